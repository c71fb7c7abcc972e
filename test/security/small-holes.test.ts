import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBindSafety } from '../../src/auth/bind-safety.js';
import { buildConfig } from '../../src/config/load.js';
import { AlreadyRunningError, acquireInstanceLock } from '../../src/daemon/instance-lock.js';
import { censor, REDACT_PATHS } from '../../src/logger.js';
import { loadOrCreateVapidKeys, vapidFile } from '../../src/push/vapid-keys.js';
import { ProviderStore } from '../../src/settings/provider-store.js';
import { isSafeUrl, markdownToHtml } from '../../web/src/markdown.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { rawRequest } from './helpers/raw-http.js';
import { createToken, startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';
import { tempDir } from './helpers/temp-dir.js';

/** The smaller holes, each written as the attack. */
describe('smaller holes', () => {
  let hub: SecuredHub;
  const remote = 'https://remote.example.test';
  beforeAll(async () => {
    hub = await startSecuredHub({ allowOrigins: [remote] });
  });
  afterAll(async () => {
    await hub?.close();
  });
  const host = () => `127.0.0.1:${hub.port}`;

  it('a malformed cookie (zcode_hub_token=%E0%A4%A) is a 401, not a 500 with a stack', async () => {
    const res = await rawRequest(hub.port, {
      path: '/api/me',
      headers: { host: host(), cookie: 'zcode_hub_token=%E0%A4%A', 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBe(401);
    expect(fs.readFileSync(hub.logFile, 'utf8')).not.toMatch(/URIError|URI malformed/);
  });

  it('an --allow-origin origin is bearer-only: the cookie does not get it in', async () => {
    const view = await createToken(hub, 'view');
    const withCookie = await rawRequest(hub.port, {
      path: '/api/me',
      headers: { host: host(), origin: remote, cookie: `zcode_hub_token=${view.token}` },
    });
    expect(withCookie.status).toBe(403);
    const withBearer = await rawRequest(hub.port, {
      path: '/api/me',
      headers: { host: host(), origin: remote, authorization: `Bearer ${view.token}` },
    });
    expect(withBearer.status).toBe(200);
  });

  it('--host 0.0.0.0 with an https --public-url but no TLS still warns: plain HTTP is served on every interface', () => {
    const t = tempDir();
    try {
      const { warnings } = checkBindSafety(buildConfig({ stateDir: t.dir, host: '0.0.0.0', publicUrl: 'https://hub.example.test' }));
      expect(warnings.join(' ')).toMatch(/plain HTTP/);
    } finally {
      t.cleanup();
    }
  });

  it('a link to /\\evil.example (which a browser reads as //evil.example) is not rendered as a link', () => {
    // What Chromium does with it (WHATWG URL parsing, same as Node's URL):
    expect(new URL('/\\evil.example/x', 'https://hub.example.test/').host).toBe('evil.example');
    for (const href of ['/\\evil.example/x', '/\t/evil.example/x', '\\\\evil.example', '/\n/evil.example'])
      expect(isSafeUrl(href), JSON.stringify(href)).toBe(false);
    expect(markdownToHtml('[x](/\\evil.example/x)')).not.toContain('<a ');
    expect(isSafeUrl('/sessions/1')).toBe(true);
  });

  it('push-vapid.json (a private key) whose mode was loosened is set back to 0600', () => {
    const t = tempDir();
    try {
      loadOrCreateVapidKeys(t.dir);
      expect(fs.statSync(vapidFile(t.dir)).mode & 0o777).toBe(0o600);
      fs.chmodSync(vapidFile(t.dir), 0o644);
      loadOrCreateVapidKeys(t.dir);
      expect(fs.statSync(vapidFile(t.dir)).mode & 0o777).toBe(0o600);
    } finally {
      t.cleanup();
    }
  });

  it('a daemon.lock whose pid now belongs to another process (pid 1) does not block the start', () => {
    const t = tempDir();
    try {
      fs.writeFileSync(path.join(t.dir, 'daemon.lock'), '1\n');
      const release = acquireInstanceLock(t.dir);
      expect(fs.readFileSync(path.join(t.dir, 'daemon.lock'), 'utf8').split(/\s+/)[0]).toBe(String(process.pid));
      release();
      // A recorded start time that does not match the live pid is another process too.
      fs.writeFileSync(path.join(t.dir, 'daemon.lock'), '1 12345\n');
      acquireInstanceLock(t.dir)();
    } finally {
      t.cleanup();
    }
  });

  it('a daemon.lock naming our own pid is stale unless a daemon of this process holds it', () => {
    const t = tempDir();
    try {
      // Left by an earlier life of this pid (a container restarted): reclaimed.
      fs.writeFileSync(path.join(t.dir, 'daemon.lock'), `${process.pid}\n`);
      const release = acquireInstanceLock(t.dir);
      // A second daemon of this process on the same state dir (the same dir by another path) is refused while the first holds it.
      expect(() => acquireInstanceLock(path.join(t.dir, '.'))).toThrow(AlreadyRunningError);
      expect(fs.existsSync(path.join(t.dir, 'daemon.lock'))).toBe(true);
      release();
      acquireInstanceLock(t.dir)();
    } finally {
      t.cleanup();
    }
  });

  it('log redaction keeps WebSocket close codes and error codes, still blanks a pairing code', () => {
    const lines: string[] = [];
    const logger = pino(
      { redact: { paths: REDACT_PATHS, censor } },
      new Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) }),
    );
    logger.info({ clientId: 'c1', code: 4401 }, 'client disconnected');
    logger.info({ code: 'HUB_ERR_FORBIDDEN' }, 'refused');
    logger.info({ code: 'K7QF2-9XM4T' }, 'pairing');
    logger.info({ code: 'K7QF29XM4T' }, 'pairing');
    const parsed = lines.map((l) => JSON.parse(l) as { code: unknown });
    expect(parsed.map((p) => p.code)).toEqual([4401, 'HUB_ERR_FORBIDDEN', '[redacted]', '[redacted]']);
  });
});

describe('provider file: no key in health messages, none left in backups', () => {
  it('an invalid provider file is reported without quoting its content', async () => {
    const t = tempDir();
    try {
      const file = path.join(t.dir, 'provider_config.json');
      fs.writeFileSync(file, '{"config": {"providerConfigRules": {"providerRules": [{"apiKey": sk-live-0123456789abcdef}]}}}');
      const store = new ProviderStore({ filePath: file, backupDir: path.join(t.dir, 'backups') });
      const snap = await store.read();
      const text = JSON.stringify(snap.health);
      expect(snap.health.status).toBe('invalid');
      expect(text).toMatch(/not valid JSON/);
      for (let i = 0; i + 6 <= 'sk-live-0123456789abcdef'.length; i++)
        expect(text).not.toContain('sk-live-0123456789abcdef'.slice(i, i + 6));
    } finally {
      t.cleanup();
    }
  });
});

describe('over a real daemon', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('deleting a provider leaves its key in no backup', async () => {
    const key = 'sk-deleted-key-0123456789';
    const create = await hub.api('/api/settings/providers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providerId: 'doomed',
        apiType: 'anthropic-messages',
        baseUrl: 'https://api.example.com',
        models: ['m-1'],
        apiKey: key,
      }),
    });
    expect(create.status, await create.clone().text()).toBeLessThan(300);
    // A second write makes a backup that holds the key.
    const other = await hub.api('/api/settings/providers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providerId: 'keeper',
        apiType: 'anthropic-messages',
        baseUrl: 'https://api.example.com',
        models: ['m-1'],
        apiKey: 'sk-keeper-key-0123456789',
      }),
    });
    expect(other.status, await other.clone().text()).toBeLessThan(300);
    const backups = path.join(hub.stateDir, 'provider-backups');
    const holding = () =>
      fs.existsSync(backups) ? fs.readdirSync(backups).filter((f) => fs.readFileSync(path.join(backups, f), 'utf8').includes(key)) : [];
    expect(holding().length).toBeGreaterThan(0);
    const del = await hub.api('/api/settings/providers/doomed', { method: 'DELETE' });
    expect(del.status, await del.clone().text()).toBeLessThan(300);
    expect(holding()).toEqual([]);
    // The file itself still holds the other provider's key; only the deleted one is gone everywhere.
    const current = (await (await hub.api('/api/settings/providers')).json()) as { providers: Array<{ providerId: string }> };
    expect(current.providers.map((p) => p.providerId)).toEqual(['keeper']);
  });

  it('answering a permission with {"decline": true} over REST works, as documented', async () => {
    const c = await hub.initializedClient();
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const turn = c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'permission please' }] });
    await c.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    const inbox = (await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()) as {
      interactions: Array<{ interactionId: string; kind: string }>;
    };
    const pending = inbox.interactions.find((i) => i.kind === 'permission');
    const res = await hub.api(`/api/interactions/${pending!.interactionId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decline: true }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { interaction: { state: string } }).interaction.state).toBe('resolved');
    await turn;
  });
});
