import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { AcpWsClient as Client } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/** Reconnect and resume (ARCHITECTURE.md §4.2), close codes that never cancel (§5), REST (§6) and the zcode-acp-remote compat surface (§5.1). */

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ limits: { journalMaxUpdates: 200 } });
});
afterAll(async () => {
  await hub?.close();
});

interface UpdateParams {
  sessionId: string;
  update: { sessionUpdate: string };
  _meta: { zcode: { seq: number; epoch: string } };
}

const seqsOf = (c: AcpWsClient, sessionId: string) =>
  c
    .journaled<UpdateParams>()
    .filter((u) => u.sessionId === sessionId)
    .map((u) => u._meta.zcode.seq);
const attachParams = (sessionId: string, zcode?: Record<string, unknown>) => ({
  sessionId,
  cwd: hub.workspace,
  mcpServers: [],
  ...(zcode ? { _meta: { zcode } } : {}),
});
const prompt = (c: AcpWsClient, sessionId: string, text: string) =>
  c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });

describe('reconnect', () => {
  it('[REC-01] disconnect, updates meanwhile, resume with afterSeq + epoch: exactly the missing updates, recovered', async () => {
    const a = await hub.initializedClient({ name: 'stayer' });
    const b = await hub.initializedClient({ name: 'leaver' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await b.request('session/load', attachParams(sessionId));
    await prompt(a, sessionId, 'warm up');
    const lastB = Math.max(
      ...(await b.waitFor(() => {
        const s = seqsOf(b, sessionId);
        const la = Math.max(...seqsOf(a, sessionId));
        return s.includes(la) ? s : undefined;
      })),
    );
    const epoch = b.journaled<UpdateParams>().at(-1)?._meta.zcode.epoch;
    await b.close(1000);
    await prompt(a, sessionId, 'while you were away');
    await prompt(a, sessionId, 'and more');
    const back = await hub.initializedClient({ name: 'leaver' });
    const res = await back.request<{ _meta: { zcode: { seq: number; replayMeta: { recovered: boolean; replayed: number } } } }>(
      'session/resume',
      attachParams(sessionId, { afterSeq: lastB, epoch }),
    );
    expect(res._meta.zcode.replayMeta.recovered).toBe(true);
    const got = seqsOf(back, sessionId);
    expect(got).toEqual(Array.from({ length: res._meta.zcode.seq - lastB }, (_, i) => lastB + 1 + i));
    expect(res._meta.zcode.replayMeta.replayed).toBe(got.length);
  });

  it('[REC-02] a gap beyond the journal replays a rebuilt tail with recovered: false', async () => {
    const a = await hub.initializedClient();
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await prompt(a, sessionId, 'one');
    const epoch = a.journaled<UpdateParams>().at(-1)?._meta.zcode.epoch;
    const back = await hub.initializedClient();
    const res = await back.request<{ _meta: { zcode: { replayMeta: { recovered: boolean } } } }>(
      'session/load',
      attachParams(sessionId, { afterSeq: 1, epoch: 'an-older-epoch' }),
    );
    expect(epoch).not.toBe('an-older-epoch');
    expect(res._meta.zcode.replayMeta.recovered).toBe(false);
  });

  it('[WS-05] close 1000 mid-turn: the turn and its interaction continue; reconnect resumes and can answer', async () => {
    const phone = await hub.initializedClient({ name: 'phone' });
    const { sessionId } = await phone.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    void phone
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'permission for the tests' }] })
      .catch(() => undefined);
    await phone.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    await phone.close(1000);
    const status = (await (await hub.api(`/api/sessions/${sessionId}`)).json()) as { state: string; pendingInteractions: number };
    expect(status.state).not.toBe('idle');
    expect(status.pendingInteractions).toBe(1);
    const again = await hub.initializedClient({ name: 'phone' });
    await again.request('session/resume', attachParams(sessionId));
    const req = await again.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    const allow = (req.params.options as Array<{ optionId: string; kind: string }>).find((o) => o.kind === 'allow_once');
    again.answer(req.id, { outcome: { outcome: 'selected', optionId: allow?.optionId } });
    await again.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'idle',
    );
  });
});

describe('REST', () => {
  it('status, sessions, rename, events; interactions answered over REST with 409 for the loser [APR-02]', async () => {
    const st = await hub.api('/api/status');
    expect(st.status).toBe(200);
    expect(await st.json()).toMatchObject({ backend: { state: 'ready', kind: 'sim' }, version: expect.any(String) });

    const c = await hub.initializedClient({ name: 'rest-client' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const list = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ sessionId: string }> };
    expect(list.sessions.map((s) => s.sessionId)).toContain(sessionId);
    const renamed = await hub.api(`/api/sessions/${sessionId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Renamed' }),
    });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { title: string }).title).toBe('Renamed');
    expect((await hub.api('/api/sessions/nope')).status).toBe(404);

    const turn = prompt(c, sessionId, 'permission please');
    await c.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    const inbox = (await (await hub.api(`/api/interactions?sessionId=${sessionId}`)).json()) as {
      interactions: Array<{ interactionId: string; options: Array<{ optionId: string; kind: string }> }>;
    };
    const [pending] = inbox.interactions;
    expect(pending).toBeDefined();
    const viewer = await hub.token('view', 'rest-viewer');
    const answer = (body: unknown, token?: string) =>
      hub.api(`/api/interactions/${pending?.interactionId}/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...(token ? { token } : {}),
      });
    expect((await answer({ optionId: 'allow_once' }, viewer)).status).toBe(403);
    expect((await answer({ optionId: 'not-offered' })).status).toBe(400);
    expect(
      (
        await hub.api('/api/interactions/unknown/answer', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"optionId":"x"}',
        })
      ).status,
    ).toBe(404);
    const allow = pending?.options.find((o) => o.kind === 'allow_once');
    const win = await answer({ optionId: allow?.optionId });
    expect(win.status).toBe(200);
    const late = await answer({ optionId: allow?.optionId });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: { code: 'HUB_ERR_ALREADY_RESOLVED', details: { resolvedBy: expect.anything() } } });
    await c.waitForNotification('$/cancel_request');
    expect((await turn).stopReason).toBe('end_turn');

    const events = (await (await hub.api(`/api/sessions/${sessionId}/events?afterSeq=0`)).json()) as { events: unknown[]; lastSeq: number };
    expect(events.events.length).toBe(events.lastSeq);
    expect((await hub.api(`/api/sessions/${sessionId}/close`, { method: 'POST' })).status).toBe(200);
  });
});

describe('zcode-acp-remote compatibility', () => {
  it('lists this daemon as the one instance with its sessions and their running state', async () => {
    const c = await hub.initializedClient();
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const instances = (await (await hub.api('/api/instances')).json()) as Array<{
      id: string;
      workspace: string;
      sessions: Array<{ sessionId: string }>;
    }>;
    expect(instances).toHaveLength(1);
    expect(instances[0]?.id).toBe('zcode-hub');
    expect(instances[0]?.sessions.map((s) => s.sessionId)).toContain(sessionId);
    const status = (await (await hub.api('/api/instances/zcode-hub/status')).json()) as {
      sessions: Array<{ sessionId: string; status: string }>;
    };
    expect(status.sessions.find((s) => s.sessionId === sessionId)?.status).toBe('idle');
    expect((await hub.api('/api/instances/other/status')).status).toBe(404);
    expect((await hub.api(`/api/instances/zcode-hub/sessions/${sessionId}/close`, { method: 'POST' })).status).toBe(200);
  });

  it('serves files read-only inside the session root; .., symlinks out and absolute paths are refused', async () => {
    fs.mkdirSync(path.join(hub.workspace, 'src'), { recursive: true });
    fs.writeFileSync(path.join(hub.workspace, 'src', 'a.txt'), 'hello file');
    const outside = path.join(path.dirname(hub.workspace), 'secret.txt');
    fs.writeFileSync(outside, 'do not serve');
    fs.symlinkSync(outside, path.join(hub.workspace, 'leak.txt'));
    fs.symlinkSync(path.dirname(hub.workspace), path.join(hub.workspace, 'up'));
    const c = await hub.initializedClient();
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const q = (p: string) => `sessionId=${sessionId}&path=${encodeURIComponent(p)}`;
    const list = (await (await hub.api(`/api/instances/zcode-hub/fs/list?${q('')}`)).json()) as {
      root: string;
      entries: Array<{ name: string; kind: string }>;
      truncated: boolean;
    };
    expect(list.entries.map((e) => e.name)).toEqual(expect.arrayContaining(['src', 'leak.txt', 'up']));
    expect(list.entries.find((e) => e.name === 'src')?.kind).toBe('dir');
    const file = await hub.api(`/api/instances/zcode-hub/fs/file?${q('src/a.txt')}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('hello file');
    for (const bad of ['../secret.txt', 'leak.txt', 'up/secret.txt', outside, 'src/../../secret.txt']) {
      const res = await hub.api(`/api/instances/zcode-hub/fs/file?${q(bad)}`);
      expect(res.status, bad).toBe(403);
    }
    expect((await hub.api(`/api/instances/zcode-hub/fs/list?${q('up')}`)).status).toBe(403);
    expect((await hub.api(`/api/instances/zcode-hub/fs/file?sessionId=unknown&path=a`)).status).toBe(403);
  });

  it('the legacy profile (?instance=&token=) gets $/zcode/turnState, top-level replayMeta and session/load_earlier', async () => {
    const legacy = await Client.connect(hub.wsUrl, { query: { instance: 'zcode-hub', token: hub.adminToken } });
    try {
      await legacy.initialize({ name: 'zcode-acp-remote' });
      const { sessionId } = await legacy.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
      await prompt(legacy, sessionId, 'hello legacy');
      await legacy.waitForNotification<{ sessionId: string; running: boolean }>(
        '$/zcode/turnState',
        (p) => p.sessionId === sessionId && p.running === false,
      );
      const res = await legacy.request<{ replayMeta: { hasMore: boolean; turnActive: boolean; cursor?: string } }>(
        'session/load',
        attachParams(sessionId, { limit: 1 }),
      );
      expect(res.replayMeta.turnActive).toBe(false);
      if (res.replayMeta.hasMore && res.replayMeta.cursor) {
        const before = legacy.notifications('session/update').length;
        const page = await legacy.request<{ replayMeta: { hasMore: boolean } }>('session/load_earlier', {
          sessionId,
          before: res.replayMeta.cursor,
          limit: 50,
        });
        expect(page.replayMeta).toBeDefined();
        expect(legacy.notifications('session/update').length).toBeGreaterThan(before);
      }
    } finally {
      await legacy.close();
    }
  });
});
