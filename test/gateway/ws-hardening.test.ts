import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { BINARY_FRAME_REASON } from '../../src/gateway/gateway-server.js';
import { AcpWsClient, RpcError } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * WebSocket hardening as attacks with raw frames (STYLE.md: one regression test per attack).
 * The hub runs for real (simulator child, port 0); limits are shrunk so each one is crossed.
 */

const MAX_MESSAGE = 64 * 1024;
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub({ limits: { wsMaxMessageBytes: MAX_MESSAGE, protocolViolationsBeforeClose: 5, connectionsPerToken: 3 } });
});
afterAll(async () => {
  await hub?.close();
});

/** A request frame padded to exactly `bytes` bytes. */
function paddedRequest(bytes: number): string {
  const head = '{"jsonrpc":"2.0","id":"pad","method":"_test/pad","params":{"pad":"';
  const tail = '"}}';
  return head + 'a'.repeat(bytes - head.length - tail.length) + tail;
}

async function expectRpcError(p: Promise<unknown>, code: number, hubCode?: string): Promise<RpcError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RpcError);
  const rpc = err as RpcError;
  expect(rpc.code).toBe(code);
  if (hubCode) expect(rpc.hubCode).toBe(hubCode);
  return rpc;
}

describe('upgrade', () => {
  it('refuses an upgrade without credentials (401) and with a bad token', async () => {
    await expect(AcpWsClient.connect(hub.wsUrl)).rejects.toMatchObject({ status: 401 });
    await expect(AcpWsClient.connect(hub.wsUrl, { token: 'not-a-token' })).rejects.toMatchObject({ status: 401 });
  });

  it('refuses an unknown legacy instance id (404) and accepts ours with ?token=', async () => {
    await expect(AcpWsClient.connect(hub.wsUrl, { query: { instance: 'nope', token: hub.adminToken } })).rejects.toMatchObject({
      status: 404,
    });
    const legacy = await AcpWsClient.connect(hub.wsUrl, { query: { instance: 'zcode-hub', token: hub.adminToken } });
    await legacy.initialize();
    await legacy.close();
  });

  it('caps connections per token (HTTP 429 before the upgrade); closing one frees a slot', async () => {
    const token = await hub.token('view', 'capped');
    const open = await Promise.all([1, 2, 3].map(() => hub.client({ token })));
    await expect(AcpWsClient.connect(hub.wsUrl, { token })).rejects.toMatchObject({ status: 429 });
    const before = hub.daemon.app.gateway.size;
    await open[0]?.close();
    await expect.poll(() => hub.daemon.app.gateway.size).toBe(before - 1);
    const again = await hub.client({ token });
    expect(again.isOpen).toBe(true);
  });
});

describe('frames', () => {
  it('[WS-01] a message of max size + 1 closes 1009; max size itself is served; others unaffected', async () => {
    const bystander = await hub.initializedClient();
    const c = await hub.client();
    c.sendRaw(paddedRequest(MAX_MESSAGE));
    const answer = await c.waitFor((msgs) => msgs.find((m) => m.id === 'pad'), undefined, 'answer to the max-size frame');
    expect(answer.error?.code).toBe(-32601);
    c.sendRaw(paddedRequest(MAX_MESSAGE + 1));
    expect((await c.closed).code).toBe(1009);
    const list = await bystander.request<{ sessions: unknown[] }>('session/list', {});
    expect(Array.isArray(list.sessions)).toBe(true);
  });

  it.each(['/acp', 'the legacy profile'] as const)(
    'a binary frame closes the socket 1003 with a reason that says text frames only (%s); others unaffected',
    async (where) => {
      const bystander = await hub.initializedClient();
      const c =
        where === '/acp'
          ? await hub.client()
          : await AcpWsClient.connect(hub.wsUrl, { query: { instance: 'zcode-hub', token: hub.adminToken } });
      await c.initialize();
      c.sendRaw(Buffer.from('{"jsonrpc":"2.0","id":"raw-1","method":"session/list","params":{}}'), true);
      expect(await c.closed).toEqual({ code: 1003, reason: BINARY_FRAME_REASON });
      expect(BINARY_FRAME_REASON).toMatch(/^text frames only/);
      expect(c.messages.some((m) => m.id === 'raw-1')).toBe(false);
      expect(await bystander.request('session/list', {})).toHaveProperty('sessions');
      await bystander.close();
    },
  );

  it('typed errors: -32700, -32600, -32601, -32602 with issues, initialize first', async () => {
    const c = await hub.client();
    await expectRpcError(c.request('session/list', {}), -32600);
    await c.initialize();
    c.sendRaw('{not json');
    const parse = await c.waitFor((msgs) => msgs.find((m) => m.id === null && m.error));
    expect(parse.error?.code).toBe(-32700);
    await expectRpcError(c.request('no/such/method', {}), -32601, 'HUB_ERR_METHOD_NOT_FOUND');
    const bad = await expectRpcError(c.request('session/prompt', { sessionId: 7, prompt: 'x' }), -32602, 'HUB_ERR_BAD_REQUEST');
    expect((bad.data as { issues: unknown[] }).issues.length).toBeGreaterThan(0);
    c.sendJson([{ jsonrpc: '2.0', id: 'batched', method: 'session/list' }]);
    // A batch is JSON-RPC the hub does not serve: HUB_ERR_NOT_SUPPORTED, not a malformed message.
    const batch = await c.waitFor((msgs) => msgs.filter((m) => m.id === null && m.error).at(1));
    expect(batch.error?.code).toBe(-32015);
    expect((batch.error?.data as { code?: string } | undefined)?.code).toBe('HUB_ERR_NOT_SUPPORTED');
    expect(c.isOpen).toBe(true);
  });

  it('[WS-02] repeated violations close 4400', async () => {
    const c = await hub.initializedClient();
    for (let i = 0; i < 5; i++) c.sendRaw('}{');
    expect((await c.closed).code).toBe(4400);
  });

  it('[SEC-08] a view token cannot prompt, cancel, create, fork or change settings (HUB_ERR_FORBIDDEN); it can read', async () => {
    const viewer = await hub.initializedClient({ token: await hub.token('view', 'viewer') });
    const params = { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] };
    await expectRpcError(viewer.request('session/prompt', params), -32001, 'HUB_ERR_FORBIDDEN');
    await expectRpcError(viewer.request('session/cancel', { sessionId: 's' }), -32001, 'HUB_ERR_FORBIDDEN');
    await expectRpcError(viewer.request('session/new', { cwd: hub.workspace, mcpServers: [] }), -32001, 'HUB_ERR_FORBIDDEN');
    await expectRpcError(viewer.request('session/set_mode', { sessionId: 's', modeId: 'yolo' }), -32001, 'HUB_ERR_FORBIDDEN');
    await expectRpcError(
      viewer.request('session/set_config_option', { sessionId: 's', configId: 'mode', value: 'yolo' }),
      -32001,
      'HUB_ERR_FORBIDDEN',
    );
    await expectRpcError(viewer.request('_zcode/fork', { sessionId: 's' }), -32001, 'HUB_ERR_FORBIDDEN');
    await expectRpcError(viewer.request('_zcode/compact', { sessionId: 's' }), -32001, 'HUB_ERR_FORBIDDEN');
    await expectRpcError(viewer.request('_zcode/goal', { sessionId: 's', action: 'set' }), -32001, 'HUB_ERR_FORBIDDEN');
    await expectRpcError(viewer.request('_zcode/cancel_background_task', { sessionId: 's', taskId: 't' }), -32001, 'HUB_ERR_FORBIDDEN');
    const inbox = await viewer.request<{ interactions: unknown[] }>('_zcode/interactions/list', {});
    expect(Array.isArray(inbox.interactions)).toBe(true);
    expect(viewer.isOpen).toBe(true);
  });
});

describe('[WS-02] malformed frame storm', () => {
  let storm: HubHarness;
  beforeAll(async () => {
    storm = await startHub({ limits: { wsMaxMessageBytes: MAX_MESSAGE, protocolViolationsBeforeClose: 10_000 } });
  });
  afterAll(async () => {
    await storm?.close();
  });

  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const FRAMES: Array<string | Buffer> = [
    '{bad json',
    '',
    'null',
    '42',
    '"str"',
    '[]',
    '{}',
    '{"jsonrpc":"1.0","id":"raw-1","method":"initialize"}',
    '{"jsonrpc":"2.0","id":{"x":1},"method":"session/list"}',
    '{"jsonrpc":"2.0","id":"raw-2","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"nope"}]}}',
    '{"jsonrpc":"2.0","id":"raw-3","method":"session/prompt","params":[1,2,3]}',
    '{"jsonrpc":"2.0","id":"raw-4","method":"no/such"}',
    '{"jsonrpc":"2.0","id":"raw-5","method":"__proto__","params":{}}',
    '{"jsonrpc":"2.0","id":"raw-6","method":"constructor","params":{}}',
    '{"jsonrpc":"2.0","id":"raw-7","method":"session/list","params":{"__proto__":{"polluted":true},"cwd":"x"}}',
    '{"jsonrpc":"2.0","id":"raw-8","method":"session/load","params":{"sessionId":"s","cwd":"/","mcpServers":[],"_meta":{"zcode":{"afterSeq":-1}}}}',
    `{"jsonrpc":"2.0","id":"raw-9","method":"session/list","params":{"cwd":"${'x'.repeat(50_000)}"}}`,
    `{"jsonrpc":"2.0","id":"raw-10","method":"_zcode/goal","params":{"sessionId":"${'s'.repeat(60_000)}"}}`,
    deep(5_000),
    `{"jsonrpc":"2.0","id":"raw-11","method":"session/list","params":{"_meta":${deep(10_000)}}}`,
    '{"jsonrpc":"2.0","id":"raw-12","result":{"outcome":{"outcome":"selected","optionId":"x"}}}',
    '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}',
    '{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":42}}',
    '\uD800',
  ];

  it('1,000 malformed frames from 10 sockets: typed errors, no crash, no pollution, hub still serves', async () => {
    const sockets = await Promise.all(Array.from({ length: 10 }, () => storm.initializedClient()));
    let sent = 0;
    for (let round = 0; sent < 1_000; round++) {
      for (const s of sockets) {
        const frame = FRAMES[(round + sent) % FRAMES.length] ?? '';
        s.sendRaw(frame);
        sent++;
      }
    }
    // Every socket answers a final well-formed request after its share of garbage: order is kept.
    const finals = await Promise.all(sockets.map((s) => s.request<{ sessions: unknown[] }>('session/list', {})));
    for (const f of finals) expect(Array.isArray(f.sessions)).toBe(true);
    for (const s of sockets) {
      expect(s.isOpen).toBe(true);
      expect(s.garbage).toEqual([]);
      for (const m of s.messages) if (m.error) expect([-32700, -32600, -32601, -32602, -32002, -32001, -32015]).toContain(m.error.code);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A binary frame closes its own socket (1003) and nothing else.
    const victim = sockets[0] as AcpWsClient;
    victim.sendRaw(Buffer.from([0xde, 0xad]), true);
    expect((await victim.closed).code).toBe(1003);
    expect(await (sockets[1] as AcpWsClient).request('session/list', {})).toHaveProperty('sessions');
    const fresh = await storm.initializedClient();
    expect(await fresh.request('session/list', {})).toHaveProperty('sessions');
  });
});

describe('[WS-04] heartbeat', () => {
  let beat: HubHarness;
  beforeAll(async () => {
    beat = await startHub({ limits: { heartbeatIntervalMs: 300 } });
  });
  afterAll(async () => {
    await beat?.close();
  });

  it('a peer that stops answering pings is terminated and removed everywhere; a live one stays', async () => {
    type Presence = { sessionId: string; clients: unknown[] };
    const live = await beat.initializedClient();
    const dead = await beat.initializedClient({ name: 'frozen' });
    const session = await live.request<{ sessionId: string }>('session/new', { cwd: beat.workspace, mcpServers: [] });
    await dead.request('session/load', { sessionId: session.sessionId, cwd: beat.workspace, mcpServers: [] });
    const both = await live.waitForNotification<Presence>(
      '_zcode/presence',
      (p) => p.sessionId === session.sessionId && p.clients.length === 2,
    );
    const seen = live.notifications<Presence>('_zcode/presence').indexOf(both) + 1;
    // Attached for sure; now it freezes (a phone put to sleep): it stops reading, so its pongs stop.
    const frozen = (dead.ws as WebSocket & { _socket: { pause(): void; resume(): void } })._socket;
    frozen.pause();
    // A presence sent after it had attached (the one from before does not count).
    await live.waitForNotification<Presence>(
      '_zcode/presence',
      (p) => p.sessionId === session.sessionId && p.clients.length === 1,
      undefined,
      seen,
    );
    expect(beat.daemon.app.gateway.size).toBe(1);
    expect(live.isOpen).toBe(true);
    frozen.resume();
    expect((await dead.closed).code).toBe(1006);
  });
});

describe('slow consumer', () => {
  let slow: HubHarness;
  beforeAll(async () => {
    slow = await startHub({ limits: { clientOutboundBudgetBytes: 16 * 1024 } });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('[FAN-02] a client that stops reading is closed 4008 once over its budget; the others keep receiving', async () => {
    const healthy = await slow.initializedClient();
    const session = await healthy.request<{ sessionId: string }>('session/new', { cwd: slow.workspace, mcpServers: [] });
    // One 2 MiB prompt: its echo is journaled, so every session/load replays 2 MiB.
    await healthy.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: `hello ${'z'.repeat(2 * 1024 * 1024)}` }],
    });
    const stalled = await slow.initializedClient();
    const load = { sessionId: session.sessionId, cwd: slow.workspace, mcpServers: [] };
    await stalled.request('session/load', load);
    await healthy.waitForNotification<{ clients: unknown[] }>('_zcode/presence', (p) => p.clients.length === 2);
    // Stop reading: the kernel buffers fill, then ws's buffer crosses the budget.
    (stalled.ws as WebSocket & { _socket: { pause(): void } })._socket.pause();
    for (let i = 0; i < 40; i++) void stalled.requestRaw('session/load', load).catch(() => undefined);
    const presence = healthy.notifications('_zcode/presence').length;
    await healthy.waitFor(
      (msgs) =>
        msgs
          .filter((m) => m.method === '_zcode/presence')
          .slice(presence)
          .find((m) => (m.params as { clients: unknown[] }).clients.length === 1),
      20_000,
      'the stalled client to be dropped',
    );
    expect(slow.daemon.app.gateway.size).toBe(1);
    const res = await healthy.request<{ stopReason: string }>('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'hello again' }],
    });
    expect(res.stopReason).toBe('end_turn');
  });
});
