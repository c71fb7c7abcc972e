import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * ACP `session/delete` (stable in the SDK's schema) against the real simulator child: the
 * conversation leaves the agent's store (v4 `deleteSession`), every client is told, a second
 * delete is a no-op, a running turn is refused and an app-server without the command gets a
 * clear error instead of a silent success.
 */

type Listed = { sessions: Array<{ sessionId: string }> };

async function rpcError(p: Promise<unknown>): Promise<RpcError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RpcError);
  return err as RpcError;
}

describe('session/delete', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('advertises sessionCapabilities.delete and removes the session from the agent and every list', async () => {
    const a = await hub.client();
    const init = await a.initialize({ name: 'deleter' });
    expect(init).toMatchObject({ agentCapabilities: { sessionCapabilities: { delete: {} } } });
    const watcher = await hub.initializedClient({ token: await hub.token('view', 'watcher'), name: 'watcher' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello before delete' }] });
    await watcher.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });

    // A view token may not delete.
    const refused = await rpcError(watcher.request('session/delete', { sessionId }));
    expect(refused.hubCode).toBe('HUB_ERR_FORBIDDEN');

    expect(await a.request('session/delete', { sessionId })).toEqual({});
    const told = await watcher.waitForNotification<{ sessionId: string; deletedBy: { name: string } }>(
      '_zcode/session_deleted',
      (p) => p.sessionId === sessionId,
    );
    expect(told.deletedBy).toMatchObject({ name: 'admin', person: 'admin', device: 'admin', client: 'deleter' });
    const listed = await a.request<Listed>('session/list', {});
    expect(listed.sessions.map((s) => s.sessionId)).not.toContain(sessionId);
    // Gone from the agent's store: loading it again fails as not found.
    const load = await rpcError(a.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] }));
    expect(load.hubCode).toBe('HUB_ERR_SESSION_NOT_FOUND');
    // Idempotent (RFD "Session Delete": deleting a deleted session succeeds silently).
    expect(await a.request('session/delete', { sessionId })).toEqual({});
    expect(await a.request('session/delete', { sessionId: 'sess_never_existed' })).toEqual({});
  });

  it('refuses to delete while a turn runs, then deletes once it stopped', async () => {
    const a = await hub.initializedClient({ name: 'busy' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const running = a.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'slow please' }] });
    await a.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'running',
    );
    const busy = await rpcError(a.request('session/delete', { sessionId }));
    expect(busy.hubCode).toBe('HUB_ERR_SESSION_BUSY');
    a.notify('session/cancel', { sessionId });
    expect((await running).stopReason).toBe('cancelled');
    await a.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.state === 'idle',
    );
    expect(await a.request('session/delete', { sessionId })).toEqual({});
  });

  it('refuses a 10,000-character session id with a clear error on every session method, not a lookup of it', async () => {
    const a = await hub.initializedClient({ name: 'hostile' });
    const sessionId = 'z'.repeat(10_000);
    for (const [m, params] of [
      ['session/delete', { sessionId }],
      ['session/load', { sessionId, cwd: hub.workspace, mcpServers: [] }],
      ['session/resume', { sessionId, cwd: hub.workspace, mcpServers: [] }],
      ['session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] }],
      ['session/set_mode', { sessionId, modeId: 'build' }],
      ['session/close', { sessionId }],
    ] as const) {
      const err = await rpcError(a.request(m, params));
      expect(err.hubCode, m).toBe('HUB_ERR_BAD_REQUEST');
      expect(err.message, m).toContain('at most 256 characters');
      expect(err.message.length, m).toBeLessThan(500);
    }
    // 256 characters is still a session id: unknown, so already deleted.
    expect(await a.request('session/delete', { sessionId: 'z'.repeat(256) })).toEqual({});
  });

  it('DELETE /api/sessions/{id} does the same over REST', async () => {
    const a = await hub.initializedClient({ name: 'rest' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const viewer = await hub.token('view', 'rest-viewer');
    expect((await hub.api(`/api/sessions/${sessionId}`, { method: 'DELETE', token: viewer })).status).toBe(403);
    const res = await hub.api(`/api/sessions/${sessionId}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const list = (await (await hub.api('/api/sessions')).json()) as Listed;
    expect(list.sessions.map((s) => s.sessionId)).not.toContain(sessionId);
  });

  it("REST takes the ids its schema takes, and refuses a longer path segment in the hub's own words", async () => {
    // 200 characters is a session id to every method (at most 256): unknown, so already deleted.
    const long = await hub.api(`/api/sessions/${'y'.repeat(200)}`, { method: 'DELETE' });
    expect(long.status).toBe(200);
    expect(await long.json()).toEqual({ ok: true });
    // 257 is refused by the route's schema, with the field named.
    const over = await hub.api(`/api/sessions/${'y'.repeat(257)}`, { method: 'DELETE' });
    expect(over.status).toBe(400);
    expect(JSON.stringify(await over.json())).toContain('"path":"params.id"');
    // Past httpPathParamMaxChars the router refuses it before any route: the same error shape, the path not echoed.
    const huge = await hub.api(`/api/sessions/${'z'.repeat(10_000)}`, { method: 'DELETE' });
    expect(huge.status).toBe(414);
    const body = (await huge.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({ code: 'HUB_ERR_BAD_REQUEST', message: 'A path segment is longer than 1024 characters' });
    // A segment that does not decode gets the same shape, without the path.
    const bad = await hub.api('/api/sessions/%E0%A4%A', { method: 'DELETE' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'HUB_ERR_BAD_REQUEST', message: 'The request URL could not be read' } });
  });
});

describe('session/delete where the agent cannot delete', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub({ simArgs: ['--unsupported-command', 'deleteSession'] });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('answers HUB_ERR_NOT_SUPPORTED and keeps the session', async () => {
    const a = await hub.initializedClient({ name: 'old-agent' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const err = await rpcError(a.request('session/delete', { sessionId }));
    expect(err.hubCode).toBe('HUB_ERR_NOT_SUPPORTED');
    expect(err.message).toMatch(/cannot delete sessions/);
    const listed = await a.request<Listed>('session/list', {});
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    expect((await hub.api(`/api/sessions/${sessionId}`, { method: 'DELETE' })).status).toBe(501);
  });
});

describe('authenticate', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('answers a clear -32602: the hub advertises no auth methods, the token authenticates the connection', async () => {
    const a = await hub.initializedClient({ name: 'auth' });
    const err = await rpcError(a.request('authenticate', { methodId: 'oauth' }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/advertises none/);
  });
});
