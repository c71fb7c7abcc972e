import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, type AnyMessage, type RequestPermissionRequest, type Stream } from '@agentclientprotocol/sdk';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { schema, WalkPeer, type WalkError } from '../support/conformance-walk.js';

/**
 * The multi-client draft's own vocabulary (ACP RFD "Multi-Client Session Attach" and the proxies
 * that implement it), driven from outside with the official ACP SDK: `session/attach` /
 * `session/detach` by their draft names, `historyPolicy` (`after_message` too), the capability at
 * `sessionCapabilities.attach`, `connectedClients`, and the update kinds `prompt_received`,
 * `turn_complete`, `permission_resolved`, `client_disconnected` — which reach only the client that
 * attached by the draft's name, while an ordinary SDK client on the same session gets none of
 * them and every update it gets passes the SDK's schema.
 */

const zSessionNotification = schema('zSessionNotification');

type Json = Record<string, unknown>;
const DRAFT_KINDS = ['prompt_received', 'turn_complete', 'permission_resolved', 'client_disconnected'];

interface Sdk {
  /** Every `session/update`'s `update`, as sent. */
  updates: Json[];
  /** Updates the SDK's schema rejects. */
  invalid: Json[];
  agent: ReturnType<ReturnType<typeof client>['connect']>['agent'];
  close(): void;
}

/**
 * An ordinary SDK client: allows what it is asked and checks every update with the SDK's schema.
 * `updates` are taken off the wire before the SDK parses them: an update kind its schema does not
 * know never reaches a handler (the SDK answers -32602), and that is what must not happen.
 */
function sdkClient(wire: Stream): Sdk {
  const updates: Json[] = [];
  const tap = new TransformStream<AnyMessage, AnyMessage>({
    transform(msg, out) {
      const m = msg as { method?: string; params?: { update?: Json } };
      if (m.method === 'session/update' && m.params?.update !== undefined) updates.push(m.params.update);
      out.enqueue(msg);
    },
  });
  const stream: Stream = { writable: wire.writable, readable: wire.readable.pipeThrough(tap) };
  const invalid: Json[] = [];
  const app = client()
    .onNotification('session/update', ({ params }) => {
      if (!zSessionNotification.safeParse(params).success) invalid.push(params as unknown as Json);
    })
    .onRequest('session/request_permission', ({ params }: { params: RequestPermissionRequest }) => {
      const allow = params.options.find((o) => o.kind === 'allow_once') ?? params.options[0];
      return allow ? { outcome: { outcome: 'selected', optionId: allow.optionId } } : { outcome: { outcome: 'cancelled' } };
    });
  const conn = app.connect(stream);
  return { updates, invalid, agent: conn.agent, close: () => conn.close() };
}

/**
 * A client written to the draft: the SDK's transport, its own JSON-RPC reading (the SDK's
 * `session/update` schema rejects the draft's kinds, as it must until ACP has them).
 */
function draftClient(stream: Stream): WalkPeer {
  return new WalkPeer('draft', stream);
}
const updatesOf = (c: Sdk | WalkPeer): Json[] =>
  c instanceof WalkPeer
    ? c.received.filter(({ msg }) => msg.method === 'session/update').map(({ msg }) => (msg.params as { update: Json }).update)
    : c.updates;
const kinds = (c: Sdk | WalkPeer) => updatesOf(c).map((u) => String(u['sessionUpdate']));
const ofKind = (c: Sdk | WalkPeer, kind: string) => updatesOf(c).filter((u) => u['sessionUpdate'] === kind);

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.1'] });
});
afterAll(async () => {
  await hub?.close();
});

const ws = (): Stream =>
  createWebSocketStream(hub.wsUrl, { WebSocket: WebSocket as never, headers: { authorization: `Bearer ${hub.adminToken}` } });
const initParams = (name: string) => ({ protocolVersion: 1, clientCapabilities: {}, clientInfo: { name, version: '1.0.0' } });
const init = (c: Sdk | WalkPeer, name: string) =>
  c instanceof WalkPeer ? c.request('initialize', initParams(name)) : c.agent.request('initialize', initParams(name));

describe('the multi-client draft vocabulary, by its own names, over WebSocket', () => {
  it('attach, prompt_received, permission_resolved, turn_complete, client_disconnected, detach; an ordinary client gets none of them', async () => {
    const owner = sdkClient(ws());
    const dashboard = draftClient(ws());
    const teammate = sdkClient(ws());
    try {
      await init(owner, 'editor');
      const caps = (await init(dashboard, 'notification-dashboard')) as { agentCapabilities: { sessionCapabilities: Json } };
      expect(caps.agentCapabilities.sessionCapabilities['attach']).toEqual({
        roles: ['controller', 'observer'],
        historyPolicies: ['full', 'pending_only', 'none', 'after_message'],
      });
      const { sessionId } = await owner.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });

      const attached = await dashboard.request<Json>('session/attach', {
        sessionId,
        role: 'controller',
        historyPolicy: 'none',
        clientInfo: { name: 'notification-dashboard', version: '1.0.0' },
      });
      expect(attached).toMatchObject({ sessionId, role: 'controller', historyPolicy: 'none' });
      expect(attached['connectedClients']).toEqual(
        expect.arrayContaining([expect.objectContaining({ client: 'editor', role: 'controller' })]),
      );

      // A client announcing ACP v2 (every v1 kind): still none of the draft's, which are no ACP version's.
      await teammate.agent.request('initialize', { ...initParams('teammate-ide'), protocolVersion: 2 });
      await teammate.agent.request('session/resume', { sessionId, cwd: hub.workspace, mcpServers: [] });
      await owner.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'please permission now' }] });
      // The answer to a later request follows every notification sent before it.
      await dashboard.request('session/list', {});

      const [received] = ofKind(dashboard, 'prompt_received');
      expect(received).toMatchObject({
        type: 'prompt_received',
        content: [{ type: 'text', text: 'please permission now' }],
        client: { client: 'editor' },
      });
      expect(typeof received?.['timestamp']).toBe('string');
      const [resolved] = ofKind(dashboard, 'permission_resolved');
      expect(resolved).toMatchObject({
        type: 'permission_resolved',
        state: 'resolved',
        resolvedBy: { client: expect.stringMatching(/^(editor|notification-dashboard|teammate-ide)$/) },
      });
      expect(typeof resolved?.['toolCallId']).toBe('string');
      expect(typeof resolved?.['chosenOptionId']).toBe('string');
      expect(ofKind(dashboard, 'turn_complete')).toEqual([expect.objectContaining({ type: 'turn_complete', stopReason: 'end_turn' })]);
      // In order: asked, answered, ended.
      const order = kinds(dashboard).filter((k) => DRAFT_KINDS.includes(k));
      expect(order).toEqual(['prompt_received', 'permission_resolved', 'turn_complete']);

      // The teammate leaves: the dashboard is told who left, with the role it had.
      await teammate.agent.request('session/list', {});
      expect(kinds(teammate)).toContain('user_message_chunk');
      teammate.close();
      await expect
        .poll(async () => {
          await dashboard.request('session/list', {});
          return ofKind(dashboard, 'client_disconnected');
        })
        .toEqual([
          expect.objectContaining({
            type: 'client_disconnected',
            client: expect.objectContaining({ client: 'teammate-ide', role: 'controller' }),
          }),
        ]);

      expect(await dashboard.request('session/detach', { sessionId })).toEqual({ sessionId, status: 'detached' });

      // The ordinary SDK client on the same session: no draft kind, nothing its schema rejects.
      await owner.agent.request('session/list', {});
      expect(kinds(owner).filter((k) => DRAFT_KINDS.includes(k))).toEqual([]);
      expect(owner.invalid).toEqual([]);
      expect(kinds(teammate).filter((k) => DRAFT_KINDS.includes(k))).toEqual([]);
    } finally {
      owner.close();
      teammate.close();
      await dashboard.close();
    }
  }, 60_000);

  it('historyPolicy after_message replays only what follows the named message; an unknown one is refused and attaches nothing', async () => {
    const owner = sdkClient(ws());
    const late = draftClient(ws());
    try {
      await init(owner, 'editor');
      const { sessionId } = await owner.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });
      await owner.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'explain this repo' }] });
      // The client's last message: the agent's answer to the first prompt, by the ACP messageId its chunks carried.
      const answered = ofKind(owner, 'agent_message_chunk').at(-1)?.['messageId'];
      expect(typeof answered).toBe('string');
      await owner.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'and now the tests' }] });
      await init(late, 'late');

      const refused = await late
        .request('session/attach', { sessionId, historyPolicy: 'after_message', messageId: 'msg_nobody_sent' })
        .then(
          () => undefined,
          (e: unknown) => e as WalkError,
        );
      expect(refused?.error.data).toMatchObject({ code: 'HUB_ERR_NOT_FOUND', details: { messageId: 'msg_nobody_sent' } });
      expect(refused?.message).toContain('historyPolicy "full"');
      const missing = await late.request('session/attach', { sessionId, historyPolicy: 'after_message' }).then(
        () => undefined,
        (e: unknown) => e as WalkError,
      );
      expect(missing?.error.data).toMatchObject({ code: 'HUB_ERR_BAD_REQUEST' });
      expect(updatesOf(late)).toEqual([]);

      const res = await late.request<Json>('session/attach', { sessionId, historyPolicy: 'after_message', messageId: answered });
      expect(res).toMatchObject({ historyPolicy: 'after_message', role: 'controller' });
      // The refused attach left no attachment behind: the client is listed once.
      expect((res['connectedClients'] as Array<{ client?: string }>).filter((c) => c.client === 'late')).toHaveLength(1);
      const replayedText = ofKind(late, 'user_message_chunk').map((u) => (u['content'] as { text?: string }).text);
      expect(replayedText).toEqual(['and now the tests']);
      expect(ofKind(late, 'agent_message_chunk').some((u) => u['messageId'] === answered)).toBe(false);
      expect(ofKind(late, 'agent_message_chunk').length).toBeGreaterThan(0);
    } finally {
      owner.close();
      await late.close();
    }
  }, 60_000);
});

describe('the multi-client draft vocabulary over the stdio bridge', () => {
  const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'zcode-hub.js');
  let bridge: ChildProcess | undefined;
  afterAll(() => {
    bridge?.kill();
  });

  it('an editor on `zcode-hub acp` attaches by the draft name and hears prompt_received and turn_complete of a turn run elsewhere', async () => {
    const env = { ...process.env, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'warn' };
    bridge = spawn(process.execPath, [bin, 'acp', '--state-dir', hub.stateDir], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const editor = draftClient(
      ndJsonStream(
        Writable.toWeb(bridge.stdin!) as WritableStream<Uint8Array>,
        Readable.toWeb(bridge.stdout!) as ReadableStream<Uint8Array>,
      ),
    );
    const phone = sdkClient(ws());
    try {
      await init(phone, 'phone');
      const { sessionId } = await phone.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });
      await init(editor, 'editor-over-stdio');
      await editor.request('session/attach', { sessionId, historyPolicy: 'full' });
      await phone.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'from the phone' }] });
      await expect
        .poll(async () => {
          await editor.request('session/list', {});
          return kinds(editor).filter((k) => DRAFT_KINDS.includes(k));
        })
        .toEqual(['prompt_received', 'turn_complete']);
      expect(ofKind(editor, 'prompt_received')[0]).toMatchObject({
        content: [{ type: 'text', text: 'from the phone' }],
        client: { client: 'phone' },
      });
      expect(kinds(phone).filter((k) => DRAFT_KINDS.includes(k))).toEqual([]);
    } finally {
      await editor.close();
      phone.close();
    }
  }, 60_000);
});
