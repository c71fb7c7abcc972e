/**
 * `--record-wire FILE` on a real daemon with the real simulator child: every message both ways
 * as NDJSON, mode 0600, bounded by limits.wireRecordMaxBytes, and no secret of a configured
 * provider in it — neither under a secret key nor pasted into a prompt.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED, redactWire } from '../../src/backend/wire-redact.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

const hubs: HubHarness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function recordingFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-wire-'));
  dirs.push(dir);
  return path.join(dir, 'wire.ndjson');
}

interface WireLine {
  dir: 'in' | 'out' | 'meta';
  t: number;
  msg?: { id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown };
  event?: string;
}

const readWire = (file: string): WireLine[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as WireLine);

async function promptOnce(hub: HubHarness, text: string): Promise<void> {
  const c = await hub.initializedClient({ name: 'recorded' });
  const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
  await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
}

describe('--record-wire', () => {
  it('records both directions in order with monotonic times, private, without a provider key even when a prompt quotes it', async () => {
    const file = recordingFile();
    const hub = await startHub({ config: { recordWire: file } });
    hubs.push(hub);
    const apiKey = 'sk-wire-test-0123456789abcdefABCDEF';
    const created = await hub.api('/api/settings/providers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providerId: 'wired',
        apiType: 'anthropic-messages',
        baseUrl: 'https://api.example.com',
        models: ['m-1'],
        apiKey,
      }),
    });
    expect(created.status).toBe(201);
    await promptOnce(hub, `my key is ${apiKey}, keep it safe`);
    await hub.close();

    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(apiKey);
    expect(text).toContain(`my key is ${REDACTED}, keep it safe`);
    const lines = readWire(file);
    expect(lines[0]).toMatchObject({ dir: 'meta', event: 'start' });
    expect(lines.at(-1)).toMatchObject({ dir: 'meta', event: 'end' });
    const times = lines.map((l) => l.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const methods = (dir: 'in' | 'out') => lines.filter((l) => l.dir === dir && l.msg?.method).map((l) => l.msg!.method);
    expect(methods('out')).toEqual(expect.arrayContaining(['runtime/capabilities', 'session/create', 'session/subscribe', 'session/send']));
    expect(methods('in')).toEqual(expect.arrayContaining(['session/event', 'state.updated', 'session/requestRuntimePreferences']));
    // Each request of the hub has its answer in the file, by id.
    const create = lines.find((l) => l.dir === 'out' && l.msg?.method === 'session/create')!;
    expect(lines.some((l) => l.dir === 'in' && l.msg?.id === create.msg!.id && l.msg?.result !== undefined)).toBe(true);
  });

  it('stops at limits.wireRecordMaxBytes with one final marker line', async () => {
    const file = recordingFile();
    const maxBytes = 6_000;
    const hub = await startHub({ config: { recordWire: file }, limits: { wireRecordMaxBytes: maxBytes } });
    hubs.push(hub);
    await promptOnce(hub, 'hello there');
    await hub.close();
    const lines = readWire(file);
    expect(lines.at(-1)).toMatchObject({ dir: 'meta', event: 'limit', limit: 'wireRecordMaxBytes', maxBytes });
    expect(lines.filter((l) => l.event === 'limit')).toHaveLength(1);
    const body = fs.readFileSync(file, 'utf8');
    expect(Buffer.byteLength(body) - Buffer.byteLength(`${JSON.stringify(lines.at(-1))}\n`)).toBeLessThanOrEqual(maxBytes);
  });

  it('a file it cannot write is a clear start-up error', async () => {
    await expect(startHub({ config: { recordWire: path.join(os.tmpdir(), 'no-such-dir-zch', 'w.ndjson') } })).rejects.toThrow(
      /cannot write the --record-wire file .*no-such-dir-zch/,
    );
  });
});

describe('wire redaction', () => {
  it('blanks secret keys and known secrets inside strings, keeps token counts and error codes', () => {
    const secrets = new Set(['sk-known-secret-123456']);
    const msg = {
      id: 'server-1',
      result: {
        headers: { authorization: 'Bearer abc', 'x-api-key': 'k-1' },
        apiKey: 'k-2',
        access: { type: 'apiKey', apiKey: 'k-3' },
        githubToken: 'ghp_x',
        usage: { inputTokens: 12, outputTokens: 3 },
        error: { code: -32603, message: 'failed with sk-known-secret-123456 in it' },
      },
    };
    expect(redactWire(msg, secrets)).toEqual({
      id: 'server-1',
      result: {
        headers: { authorization: REDACTED, 'x-api-key': REDACTED },
        apiKey: REDACTED,
        access: { type: 'apiKey', apiKey: REDACTED },
        githubToken: REDACTED,
        usage: { inputTokens: 12, outputTokens: 3 },
        error: { code: -32603, message: `failed with ${REDACTED} in it` },
      },
    });
  });
});
