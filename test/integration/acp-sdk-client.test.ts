import { client, type RequestPermissionRequest, type SessionNotification } from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * The official ACP SDK client (the 2.x `client()` app, successor of `ClientSideConnection`) over
 * the SDK's own WebSocket stream against the real hub: every response the hub sends is parsed
 * by the SDK's generated schemas, so a shape the SDK rejects fails here.
 */

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

interface SdkClient {
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  agent: ReturnType<ReturnType<typeof client>['connect']>['agent'];
  close(): void;
}

function connectSdk(
  answer: (req: RequestPermissionRequest) => string | 'cancelled' = (req) => req.options[0]?.optionId ?? 'cancelled',
): SdkClient {
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const stream = createWebSocketStream(hub.wsUrl, {
    WebSocket: WebSocket as never,
    headers: { authorization: `Bearer ${hub.adminToken}` },
  });
  const app = client()
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      const choice = answer(params);
      return choice === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: choice } };
    });
  const conn = app.connect(stream);
  return { updates, permissions, agent: conn.agent, close: () => conn.close() };
}

describe('official ACP SDK client over WebSocket', () => {
  let sdk: SdkClient;
  let sessionId: string;

  beforeAll(async () => {
    sdk = connectSdk();
    const init = await sdk.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: 'sdk-test', version: '1.0.0' },
    });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
  });
  afterAll(() => sdk?.close());

  it('creates a session with modes and config options', async () => {
    const res = await sdk.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });
    sessionId = res.sessionId;
    expect(sessionId).toBeTruthy();
    expect(res.configOptions?.map((o) => o.id)).toEqual(expect.arrayContaining(['model', 'mode']));
  });

  it('streams a prompt turn as session/update and resolves with end_turn', async () => {
    const res = await sdk.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello from the SDK' }] });
    expect(res.stopReason).toBe('end_turn');
    const kinds = new Set(sdk.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate));
    expect(kinds.has('agent_message_chunk')).toBe(true);
  });

  it('answers a permission request; the tool runs and the turn ends', async () => {
    const res = await sdk.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run the tests, permission needed' }],
    });
    expect(res.stopReason).toBe('end_turn');
    expect(sdk.permissions.length).toBe(1);
    expect(sdk.permissions[0]?.options.map((o) => o.kind)).toEqual(expect.arrayContaining(['allow_once', 'reject_once']));
    const completed = sdk.updates.some((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed');
    expect(completed).toBe(true);
  });

  /** Starts a slow turn and waits until it visibly streams (an update arrived), not a sleep; resolves with its answer to come. */
  async function slowTurnStreaming() {
    const before = sdk.updates.length;
    const turn = sdk.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'be slow about it' }] });
    await expect
      .poll(() => sdk.updates.slice(before).some((u) => u.update.sessionUpdate === 'agent_message_chunk'), { timeout: 20_000 })
      .toBe(true);
    return { turn };
  }

  it('cancels a running turn with session/cancel (stopReason cancelled)', async () => {
    const { turn } = await slowTurnStreaming();
    await sdk.agent.notify('session/cancel', { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
  });

  it('withdraws a prompt still queued with its cancellationSignal ($/cancel_request): cancelled, the turn in front runs on', async () => {
    const { turn } = await slowTurnStreaming();
    const withdraw = new AbortController();
    const queued = sdk.agent.request(
      'session/prompt',
      { sessionId, prompt: [{ type: 'text', text: 'queued, then withdrawn' }] },
      { cancellationSignal: withdraw.signal },
    );
    // Withdrawn once the hub has queued it (a watcher's turn_state lists it); the answer is read by the SDK's own schema.
    const watcher = await hub.initializedClient({ name: 'watcher' });
    await watcher.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    await watcher.waitForNotification<{ sessionId: string; queue: unknown[] }>(
      '_zcode/turn_state',
      (p) => p.sessionId === sessionId && p.queue.length === 1,
    );
    withdraw.abort();
    expect((await queued).stopReason).toBe('cancelled');
    expect((await turn).stopReason).toBe('end_turn');
    expect(
      sdk.updates.some(
        (u) => u.update.sessionUpdate === 'user_message_chunk' && JSON.stringify(u.update).includes('queued, then withdrawn'),
      ),
    ).toBe(false);
  });

  it('session/load on a second connection replays the conversation before resolving', async () => {
    const other = connectSdk();
    try {
      await other.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      const res = await other.agent.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
      const replayed = other.updates.filter((u) => u.sessionId === sessionId);
      expect(replayed.length).toBeGreaterThan(0);
      expect(replayed.some((u) => u.update.sessionUpdate === 'user_message_chunk')).toBe(true);
      const meta = (res._meta as { zcode: { seq: number; replayMeta: { replayed: number } } }).zcode;
      expect(meta.replayMeta.replayed).toBeGreaterThan(0);
    } finally {
      other.close();
    }
  });
});
