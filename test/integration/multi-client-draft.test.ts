import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError, type AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * The multi-client draft's vocabulary (ACP RFD "Multi-Client Session Attach", PR #533) on the
 * real hub and simulator: `_session/attach` with controller/observer roles mapped to
 * operate/view, the three history policies, `_session/permission_resolved` beside
 * `_zcode/interaction_resolved`, `_session/detach`, and `_meta.zcode.role` on session/load.
 */

type Attached = { sessionId: string; role: string; historyPolicy: string; connectedClients: Array<{ name: string; role: string }> };

async function rpcError(p: Promise<unknown>): Promise<RpcError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RpcError);
  return err as RpcError;
}

/** Messages of `method` that arrived before the answer to the request with `id`. */
function countBefore(c: AcpWsClient, method: string, sessionId: string, id: number): number {
  const end = c.messages.findIndex((m) => m.id === id && m.method === undefined);
  return c.messages.slice(0, end).filter((m) => m.method === method && (m.params as { sessionId?: string }).sessionId === sessionId).length;
}

describe('multi-client draft vocabulary', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('initialize advertises the attach roles a token may take', async () => {
    const op = await hub.client();
    expect(await op.initialize({ name: 'op' })).toMatchObject({
      agentCapabilities: {
        sessionCapabilities: {
          _meta: { attach: { roles: ['controller', 'observer'], historyPolicies: ['full', 'pending_only', 'none', 'after_message'] } },
        },
      },
    });
    const viewer = await hub.client({ token: await hub.token('view', 'viewer') });
    expect(await viewer.initialize({ name: 'viewer' })).toMatchObject({
      agentCapabilities: { sessionCapabilities: { _meta: { attach: { roles: ['observer'] } } } },
    });
    const refused = await rpcError(viewer.request('_session/attach', { sessionId: 'any', role: 'controller' }));
    expect(refused.hubCode).toBe('HUB_ERR_FORBIDDEN');
  });

  it('controller and observer: the observer watches, cannot prompt, sees the request read-only and hears permission_resolved', async () => {
    const a = await hub.initializedClient({ name: 'controller-a' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello first' }] });

    // An operate token that chooses to observe.
    const b = await hub.initializedClient({ name: 'observer-b' });
    const attached = await b.request<Attached>('_session/attach', { sessionId, role: 'observer', historyPolicy: 'full' });
    expect(attached).toMatchObject({ sessionId, role: 'observer', historyPolicy: 'full' });
    expect(attached.connectedClients).toEqual(
      expect.arrayContaining([
        // Verified authors; each client's own name only as `client` (docs/CLIENT-PROTOCOL.md "Authors").
        expect.objectContaining({
          clientId: expect.any(String),
          name: 'admin',
          person: 'admin',
          client: 'controller-a',
          role: 'controller',
        }),
        expect.objectContaining({ clientId: expect.any(String), name: 'admin', person: 'admin', client: 'observer-b', role: 'observer' }),
      ]),
    );
    const attachId = b.messages.find(
      (m) => m.id !== undefined && m.method === undefined && (m.result as { role?: string } | undefined)?.role === 'observer',
    )!.id as number;
    expect(countBefore(b, 'session/update', sessionId, attachId)).toBeGreaterThan(0);

    const forbidden = await rpcError(b.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'may I?' }] }));
    expect(forbidden.hubCode).toBe('HUB_ERR_FORBIDDEN');
    expect(forbidden.message).toMatch(/observer/);

    const turn = a.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run the tests, permission needed' }],
    });
    const request = await a.waitForRequest('session/request_permission');
    await b.waitForNotification<{ sessionId: string }>('_zcode/interaction_opened', (p) => p.sessionId === sessionId);
    expect(b.requests('session/request_permission')).toHaveLength(0);
    const allow = (request.params as { options: Array<{ optionId: string; kind: string }> }).options.find(
      (o) => o.kind === 'allow_once',
    )!.optionId;
    a.answer(request.id, { outcome: { outcome: 'selected', optionId: allow } });
    expect((await turn).stopReason).toBe('end_turn');
    for (const c of [a, b]) {
      const resolved = await c.waitForNotification<{
        sessionId: string;
        chosenOptionId?: string;
        resolvedBy?: { name: string };
        toolCallId?: string;
        state: string;
      }>('_session/permission_resolved', (p) => p.sessionId === sessionId);
      expect(resolved).toMatchObject({
        state: 'resolved',
        chosenOptionId: allow,
        resolvedBy: { name: 'admin', person: 'admin', client: 'controller-a' },
      });
      expect(resolved.toolCallId).toBeTruthy();
      await c.waitForNotification('_zcode/interaction_resolved', (p: { sessionId: string }) => p.sessionId === sessionId);
    }
    const presence = await a.waitForNotification<{ clients: Array<{ name: string; client?: string; role: string }> }>(
      '_zcode/presence',
      (p) => p.clients.some((x) => x.client === 'observer-b'),
    );
    expect(presence.clients.find((x) => x.client === 'observer-b')?.role).toBe('observer');

    expect(await b.request('_session/detach', { sessionId })).toEqual({ sessionId, status: 'detached' });
    await a.waitForNotification<{ clients: Array<{ name: string; client?: string }> }>(
      '_zcode/presence',
      (p) => !p.clients.some((x) => x.client === 'observer-b'),
    );
  });

  it('session/promote is not offered (the draft leaves it undefined); an operate token changes its role by attaching again, a view token cannot', async () => {
    const a = await hub.initializedClient({ name: 'owner' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const b = await hub.initializedClient({ name: 'was-observer' });
    await b.request<Attached>('session/attach', { sessionId, role: 'observer', historyPolicy: 'none' });
    const promote = await rpcError(
      b.request('session/promote', { sessionId, targetClient: { name: 'was-observer' }, newRole: 'controller' }),
    );
    expect(promote.code).toBe(-32601);
    expect((await rpcError(b.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'may I?' }] }))).hubCode).toBe(
      'HUB_ERR_FORBIDDEN',
    );
    // The same connection attaches again as a controller (no replay): its token's scope allows it.
    expect(await b.request<Attached>('session/attach', { sessionId, role: 'controller', historyPolicy: 'none' })).toMatchObject({
      role: 'controller',
    });
    expect(
      await b.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'now I may' }] }),
    ).toMatchObject({
      stopReason: 'end_turn',
    });
    const viewer = await hub.client({ token: await hub.token('view', 'wall') });
    await viewer.initialize({ name: 'wall' });
    await viewer.request<Attached>('session/attach', { sessionId, historyPolicy: 'none' });
    expect((await rpcError(viewer.request('session/attach', { sessionId, role: 'controller', historyPolicy: 'none' }))).hubCode).toBe(
      'HUB_ERR_FORBIDDEN',
    );
  });

  it('history policies: pending_only gets the pending request without history, none gets neither', async () => {
    const a = await hub.initializedClient({ name: 'asker' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const turn = a.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run the tests, permission needed' }],
    });
    const request = await a.waitForRequest('session/request_permission');

    const pending = await hub.initializedClient({ name: 'notifier' });
    await pending.request<Attached>('_session/attach', { sessionId, historyPolicy: 'pending_only' });
    const copy = await pending.waitForRequest('session/request_permission');
    const pendingId = pending.messages.find(
      (m) =>
        m.id !== undefined &&
        m.method === undefined &&
        (m.result as { historyPolicy?: string } | undefined)?.historyPolicy === 'pending_only',
    )!.id as number;
    expect(countBefore(pending, 'session/update', sessionId, pendingId)).toBe(0);

    const none = await hub.initializedClient({ name: 'logger' });
    const quiet = await none.request<Attached>('_session/attach', { sessionId, historyPolicy: 'none' });
    expect(quiet.role).toBe('controller');

    // The notifier answers from its copy; the asker's copy is withdrawn.
    const allow = (copy.params as { options: Array<{ optionId: string; kind: string }> }).options.find(
      (o) => o.kind === 'allow_once',
    )!.optionId;
    pending.answer(copy.id, { outcome: { outcome: 'selected', optionId: allow } });
    expect((await turn).stopReason).toBe('end_turn');
    await a.waitForNotification<{ requestId: string | number }>('$/cancel_request', (p) => p.requestId === request.id);
    // `none` saw the settlement and the live updates, never the request nor any history.
    await none.waitForNotification('_session/permission_resolved', (p: { sessionId: string }) => p.sessionId === sessionId);
    expect(none.requests('session/request_permission')).toHaveLength(0);
    expect(
      none
        .notifications<{ update: { sessionUpdate: string } }>('session/update')
        .some((u) => u.update.sessionUpdate === 'user_message_chunk'),
    ).toBe(false);
  });

  it("session/load accepts the draft's role under _meta.zcode.role", async () => {
    const a = await hub.initializedClient({ name: 'ctl' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const o = await hub.initializedClient({ name: 'obs' });
    await o.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [], _meta: { zcode: { role: 'observer' } } });
    const err = await rpcError(o.request('session/cancel', { sessionId }));
    expect(err.hubCode).toBe('HUB_ERR_FORBIDDEN');
    const viewer = await hub.initializedClient({ token: await hub.token('view', 'v2'), name: 'v2' });
    const refused = await rpcError(
      viewer.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [], _meta: { zcode: { role: 'controller' } } }),
    );
    expect(refused.hubCode).toBe('HUB_ERR_FORBIDDEN');
  });
});
