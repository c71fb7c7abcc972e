import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcError } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Managing sessions over ACP and REST: `session/list` carries the last activity
 * (`updatedAt`), the archive flag and a preview of the last message (`_meta.zcode`); archiving is
 * `_zcode/session_archive` or `PATCH /api/sessions/{id}`, every client's list hears it, and an
 * archived session is left out of lists unless asked for.
 */

type Entry = {
  sessionId: string;
  title?: string;
  updatedAt?: string;
  _meta: { zcode: { archived: boolean; preview?: { role: string; text: string } } };
};
type Listed = { sessions: Entry[] };

describe('archive, last activity and preview', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('session/list shows the last message and when it happened', async () => {
    const a = await hub.initializedClient({ name: 'lister' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello there' }] });
    const entry = (await a.request<Listed>('session/list', {})).sessions.find((s) => s.sessionId === sessionId);
    expect(entry?._meta.zcode.archived).toBe(false);
    expect(entry?._meta.zcode.preview?.role).toBe('agent');
    expect(entry?._meta.zcode.preview?.text.length).toBeGreaterThan(0);
    expect(Date.parse(entry?.updatedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const rest = (await (await hub.api('/api/sessions')).json()) as {
      sessions: Array<{ sessionId: string; archived: boolean; preview?: { text: string } }>;
    };
    expect(rest.sessions.find((s) => s.sessionId === sessionId)?.preview?.text).toBe(entry?._meta.zcode.preview?.text);
  });

  it('_zcode/session_archive hides a session from lists, tells every client, and unarchives', async () => {
    const a = await hub.initializedClient({ name: 'archiver' });
    const watcher = await hub.initializedClient({ token: await hub.token('view', 'watcher'), name: 'watcher' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });

    const refused = await a.request('_zcode/session_archive', { sessionId, archived: 'yes' }).catch((e: unknown) => e);
    expect((refused as RpcError).code).toBe(-32602);
    const viewer = await watcher.request('_zcode/session_archive', { sessionId, archived: true }).catch((e: unknown) => e);
    expect((viewer as RpcError).hubCode).toBe('HUB_ERR_FORBIDDEN');

    const r = await a.request<{ session: { archived: boolean } }>('_zcode/session_archive', { sessionId, archived: true });
    expect(r.session.archived).toBe(true);
    await watcher.waitForNotification<{ sessionId: string; archived: boolean }>(
      '_zcode/session_state',
      (p) => p.sessionId === sessionId && p.archived,
    );
    expect((await a.request<Listed>('session/list', {})).sessions.map((s) => s.sessionId)).not.toContain(sessionId);
    const all = await a.request<Listed>('session/list', { _meta: { zcode: { includeArchived: true } } });
    expect(all.sessions.find((s) => s.sessionId === sessionId)?._meta.zcode.archived).toBe(true);

    await a.request('_zcode/session_archive', { sessionId, archived: false });
    expect((await a.request<Listed>('session/list', {})).sessions.map((s) => s.sessionId)).toContain(sessionId);
  });

  it('PATCH /api/sessions/{id} archives over REST; ?includeArchived=true lists it; unknown ids are 404', async () => {
    const a = await hub.initializedClient({ name: 'rest' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const patch = (body: unknown, token?: string) =>
      hub.api(`/api/sessions/${sessionId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...(token ? { token } : {}),
      });
    expect((await patch({ archived: true }, await hub.token('view', 'rest-viewer'))).status).toBe(403);
    expect((await patch({})).status).toBe(400);
    const res = await patch({ archived: true });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { archived: boolean }).archived).toBe(true);
    const ids = async (q: string) =>
      ((await (await hub.api(`/api/sessions${q}`)).json()) as { sessions: Array<{ sessionId: string }> }).sessions.map((s) => s.sessionId);
    expect(await ids('')).not.toContain(sessionId);
    expect(await ids('?includeArchived=true')).toContain(sessionId);
    expect((await patch({ archived: false, title: 'Back again' })).status).toBe(200);
    expect(await ids('')).toContain(sessionId);
    const missing = await hub.api('/api/sessions/sess_never_existed', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ archived: true }),
    });
    expect(missing.status).toBe(404);
  });

  it('a session whose runtime was closed in the agent is archived without reopening it', async () => {
    const a = await hub.initializedClient({ name: 'cold' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello cold' }] });
    // Unload it in the agent: archiving is the hub's flag and needs no runtime.
    expect((await hub.api(`/api/sessions/${sessionId}/close`, { method: 'POST' })).status).toBe(200);
    await a.request('_zcode/session_archive', { sessionId, archived: true });
    const all = await a.request<Listed>('session/list', { _meta: { zcode: { includeArchived: true } } });
    expect(all.sessions.find((s) => s.sessionId === sessionId)?._meta.zcode.archived).toBe(true);
  });
});
