import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLM_QUOTA_PATH } from '../../src/settings/provider-quota.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';
import { until } from '../helpers/until.js';
import { registerSecret } from '../security/helpers/log-capture.js';

/**
 * zcode-acp-remote's quota card: `GET /api/quota` against a fake GLM quota API
 * on loopback (a test server on port 0 — never a real provider host). The app reads
 * `{glm: {kind, level?, items?}, opencode: {kind, windows?}}`.
 */
const KEYS = {
  good: 'sk-good-quota-key-0001',
  hang: 'sk-hang-quota-key-0002',
  expired: 'sk-expired-quota-key-03',
  busy: 'sk-busy-quota-key-0004',
  huge: 'sk-huge-quota-key-0006',
  extra: 'sk-extra-quota-key-0005',
};
let upstream: http.Server;
const hits: string[] = [];
let hub: HubHarness;
let app: RemoteApp;
let tmp: string;

const GOOD = {
  code: 200,
  success: true,
  msg: 'ok',
  data: {
    level: 'pro',
    limits: [
      {
        type: 'TIME_LIMIT',
        unit: 5,
        number: 1,
        usage: 1000,
        currentValue: 250,
        remaining: 750,
        percentage: 25,
        nextResetTime: 1_800_000_000_000,
        usageDetails: [{ modelCode: 'search-prime', usage: 200 }],
      },
      { type: 'TOKENS_LIMIT', unit: 6, number: 7, percentage: 40, nextResetTime: 1_800_000_500_000 },
      { type: 'TOKENS_LIMIT', unit: 3, number: 5, percentage: 12, nextResetTime: 1_799_000_000_000 },
    ],
  },
};

beforeAll(async () => {
  for (const k of Object.values(KEYS)) registerSecret(k);
  upstream = http.createServer((req, res) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    hits.push(key);
    if (req.url !== GLM_QUOTA_PATH) return void res.writeHead(404).end();
    if (key === KEYS.hang) return; // never answers: the hub's timeout must end it
    if (key === KEYS.busy) return void res.writeHead(429).end('Too Many Requests');
    if (key === KEYS.huge)
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...GOOD, pad: 'x'.repeat(100_000) }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(key === KEYS.good ? GOOD : { code: 1001, success: false, msg: 'token expired' }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/anthropic`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quota-test-'));
  const providerFile = path.join(tmp, 'provider_config.json');
  const rule = (id: string, apiKey: string) => ({
    providerId: id,
    providerName: id,
    config: {
      group: 'standard-personal',
      access: { type: 'zhipu-coding-plan-api-key', apiKey },
      api: { type: 'anthropic-messages', baseUrl: base },
    },
  });
  const ids = Object.keys(KEYS) as Array<keyof typeof KEYS>;
  fs.writeFileSync(
    providerFile,
    JSON.stringify(
      {
        schemaVersion: 1,
        config: {
          providerOrder: ids,
          providerConfigRules: { providerRules: ids.map((id) => rule(id, KEYS[id])) },
          modelConfigRules: { providerModelRules: [], manualProviderModelRules: [] },
        },
      },
      null,
      2,
    ),
  );
  hub = await startHub({
    config: { providerFile },
    limits: { quotaUpstreamTimeoutMs: 1_000, quotaProvidersMax: 5, quotaCacheMs: 5_000, quotaUpstreamMaxBytes: 64 * 1024 },
  });
  app = await RemoteApp.connect(hub.url, await hub.token('view', 'phone'));
});
afterAll(async () => {
  app?.close();
  await hub?.close();
  await new Promise((r) => upstream?.close(r));
  upstream?.closeAllConnections();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

interface Section {
  providerId?: string;
  kind: string;
  level?: string;
  items?: Array<{ key: string; label: string; usedPercent: number; usedCount?: number; totalCount?: number; nextResetTime?: number }>;
}

async function quota(): Promise<{ status: number; body: { glm: Section; opencode: Section; providers: Section[] } }> {
  const res = await app.api('/api/quota');
  return { status: res.status, body: (await res.json()) as { glm: Section; opencode: Section; providers: Section[] } };
}

describe('zcode-acp-remote: quota card', () => {
  it('serves the shape the app reads: GLM level and bars from the quota API, Opencode Go not configured', async () => {
    const { status, body } = await quota();
    expect(status).toBe(200);
    expect(body.opencode).toEqual({ kind: 'not_configured' });
    expect(body.glm.kind).toBe('success');
    expect(body.glm.level).toBe('pro');
    expect(body.glm.items?.map((i) => [i.label, i.usedPercent])).toEqual([
      ['5h', 12],
      ['Week', 40],
      ['MCP', 25],
    ]);
    expect(body.glm.items?.[2]).toMatchObject({ usedCount: 250, totalCount: 1000, nextResetTime: 1_800_000_000_000 });
    expect(JSON.stringify(body)).not.toContain('sk-');
  });

  it('each provider reads its own kind: silent (quotaUpstreamTimeoutMs) or oversized (quotaUpstreamMaxBytes) is unavailable, expired auth_error, 429 rate_limited; past quotaProvidersMax none is asked', async () => {
    const { body } = await quota();
    expect(body.providers.map((p) => [p.providerId, p.kind])).toEqual([
      ['good', 'success'],
      ['hang', 'unavailable'],
      ['expired', 'auth_error'],
      ['busy', 'rate_limited'],
      ['huge', 'unavailable'],
    ]);
    expect(hits).not.toContain(KEYS.extra);
  });

  it('answers are reused for quotaCacheMs, then the quota APIs are asked again', async () => {
    const before = hits.length;
    await quota();
    expect(hits.length).toBe(before);
    await until(async () => {
      await quota();
      return hits.length > before ? true : undefined;
    }, 'a fresh upstream query once the cache expired');
  });
});
