import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { registerSecret } from '../security/helpers/log-capture.js';

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

interface AuditPage {
  entries: Array<{ action: string; who: { name: string }; detail?: { route?: string; method?: string } }>;
}

describe('settings writes are audited', () => {
  it('a provider created and deleted over REST is recorded with the device, without its key', async () => {
    const admin = await hub.token('admin', 'ops-laptop');
    const apiKey = 'sk-audit-test-0123456789abcdef';
    registerSecret(apiKey);
    const created = await hub.api('/api/settings/providers', {
      method: 'POST',
      token: admin,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        providerId: 'audited',
        apiType: 'anthropic-messages',
        baseUrl: 'https://api.example.com',
        models: ['m-1'],
        apiKey,
      }),
    });
    expect(created.status).toBe(201);
    expect((await hub.api('/api/settings/providers/audited', { method: 'DELETE', token: admin })).status).toBe(204);
    // A refused write (unknown provider) is not an act: nothing recorded for it.
    expect((await hub.api('/api/settings/providers/nope', { method: 'DELETE', token: admin })).status).toBe(404);

    const page = (await (await hub.api('/api/audit')).json()) as AuditPage;
    const settings = page.entries.filter((e) => e.action === 'settings.change');
    expect(settings.map((e) => [e.who.name, e.detail?.method, e.detail?.route])).toEqual([
      ['ops-laptop', 'POST', '/api/settings/providers'],
      ['ops-laptop', 'DELETE', '/api/settings/providers/:providerId'],
    ]);
    expect(fs.readFileSync(path.join(hub.stateDir, 'audit.jsonl'), 'utf8')).not.toContain(apiKey);
  });
});

describe('a saved workflow started over REST without a session', () => {
  it('runs on a hub session that is journaled and listed like any other, and its start is audited', async () => {
    const dir = path.join(hub.workspace, '.zcode', 'workflows');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'audit-me.js'),
      '/* @zcode-workflow\n{"description": "Check the audit"}\n*/\nexport default async function run() {}\n',
    );
    const res = await hub.api(`/api/settings/workflows/project/audit-me/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workspace: hub.workspace }),
    });
    expect(res.status).toBe(201);
    const started = (await res.json()) as { sessionId: string; runId: string; created: boolean };
    expect(started.created).toBe(true);
    // The hub itself knows the session (not just the child's list): its record and journal exist.
    expect((await hub.api(`/api/sessions/${started.sessionId}`)).status).toBe(200);
    expect((await hub.api(`/api/sessions/${started.sessionId}/events?afterSeq=0`)).status).toBe(200);
    const page = (await (await hub.api('/api/audit')).json()) as AuditPage;
    expect(page.entries.some((e) => e.action === 'workflow.run' && e.detail?.route === '/api/settings/workflows/:scope/:name/start')).toBe(
      true,
    );
  });
});

describe('POST /api/backend/restart', () => {
  it('restarts the child (new epoch, ready again), is admin-only and audited', async () => {
    const operator = await hub.token('operate', 'op');
    expect((await hub.api('/api/backend/restart', { method: 'POST', token: operator })).status).toBe(403);
    const before = hub.daemon.backend.status().epoch;
    const res = await hub.api('/api/backend/restart', { method: 'POST' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { state: string; epoch: number };
    expect(body.epoch).toBeGreaterThan(before);
    expect(body.state).toBe('ready');
    const page = (await (await hub.api('/api/audit')).json()) as AuditPage;
    expect(page.entries.some((e) => e.action === 'backend.restart')).toBe(true);
  });
});
