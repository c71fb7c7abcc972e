/**
 * The web app's JSON-RPC connection (web/src/net/rpc-connection.ts) against a real WebSocket
 * server on port 0 that speaks JSON-RPC, each test scripting what the "hub" answers. Node 20 has
 * no built-in WebSocket, so the connection opens the `ws` package's, a real socket with the
 * browser's interface.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsSocket } from 'ws';
import { ConnectionLost, RpcConnection, RpcError, type ConnStatus, type RpcOptions } from '../../web/src/net/rpc-connection.js';
import { MalformedResult } from '../../web/src/net/hub-methods.js';
import { LinkGone } from '../../web/src/net/online-wait.js';
import { openEarlySocket, takeEarlySocket } from '../../web/src/net/early-socket.js';
import { listParams, loadParams } from '../../web/src/hub/handshake-requests.js';
import { until } from '../helpers/until.js';
import { ScriptedHub as Hub } from '../helpers/scripted-hub.js';

// ws's WebSocket is the browser's interface (onopen/onmessage/onclose, readyState, send, close);
// its declared event types differ in detail, hence the one cast.
const WebSocket = WsSocket as unknown as NonNullable<RpcOptions['WebSocket']>;

const ZLIST = '_zcode/interactions/list';

let hub: Hub;
let conn: RpcConnection;
let notifications: Array<{ method: string; params: unknown }>;
let requests: Array<{ id: string | number; method: string; params: unknown }>;
let warnings: string[];
let statuses: ConnStatus[];

beforeEach(async () => {
  hub = new Hub();
  await until(() => (hub.server.address() ? true : undefined), 'the server listening');
  notifications = [];
  requests = [];
  warnings = [];
  statuses = [];
  conn = new RpcConnection(
    hub.url,
    {
      onOpen: async () => undefined,
      onNotification: (method, params) => notifications.push({ method, params }),
      onRequest: (id, method, params) => requests.push({ id, method, params }),
      onStatus: (status) => statuses.push(status),
    },
    { WebSocket, warn: (message) => warnings.push(message) },
  );
  conn.start();
  await until(() => (conn.status === 'online' ? true : undefined), 'the connection online');
});

afterEach(async () => {
  conn.stop();
  await hub.close();
});

describe('RpcConnection against a JSON-RPC WebSocket server', () => {
  it('pairs each answer with its call by id, also when the answers come out of order', async () => {
    const first = conn.call('session/new', { cwd: '/a', mcpServers: [] });
    const second = conn.call('session/new', { cwd: '/b', mcpServers: [] });
    const a = await hub.request('session/new');
    const b = await hub.request('session/new', 1);
    expect(a).toMatchObject({ params: { cwd: '/a', mcpServers: [] } });
    expect(a.id).not.toBe(b.id);
    hub.send({ jsonrpc: '2.0', id: b.id, result: { sessionId: 'sess_b' } });
    hub.send({ jsonrpc: '2.0', id: a.id, result: { sessionId: 'sess_a' } });
    expect((await first).sessionId).toBe('sess_a');
    expect((await second).sessionId).toBe('sess_b');
  });

  it("rejects a call the server answers with an error, keeping its code, message and the hub's code", async () => {
    const call = conn.call('session/prompt', { sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }] }, 0);
    const req = await hub.request('session/prompt');
    hub.send({
      jsonrpc: '2.0',
      id: req.id,
      error: { code: -32002, message: 'Session not found', data: { code: 'HUB_ERR_SESSION_NOT_FOUND' } },
    });
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: -32002, message: 'Session not found', hubCode: 'HUB_ERR_SESSION_NOT_FOUND' });
  });

  it('takes an error answer without a numeric code as an internal error (-32603)', async () => {
    const call = conn.call('session/set_mode', { sessionId: 's1', modeId: 'plan' });
    const req = await hub.request('session/set_mode');
    hub.send({ jsonrpc: '2.0', id: req.id, error: { message: 'odd' } });
    await expect(call).rejects.toMatchObject({ name: 'RpcError', code: -32603, message: 'odd' });
  });

  it('rejects a result of the wrong shape with MalformedResult naming the method and the field', async () => {
    const call = conn.call('session/new', { cwd: '/a', mcpServers: [] });
    const req = await hub.request('session/new');
    hub.send({ jsonrpc: '2.0', id: req.id, result: { sessionId: 42 } });
    const err = await call.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResult);
    expect((err as Error).message).toBe('session/new: result.sessionId is not of type string');
  });

  it('fails every pending call with ConnectionLost when the socket drops, then reconnects', async () => {
    const one = conn.call('_zcode/interactions/list', {});
    const two = conn.call('session/prompt', { sessionId: 's1', prompt: [] }, 0);
    await hub.request('session/prompt');
    const dropped = hub.socket;
    dropped.terminate();
    await expect(one).rejects.toBeInstanceOf(ConnectionLost);
    await expect(two).rejects.toBeInstanceOf(ConnectionLost);
    expect(statuses).toContain('offline');
    await until(() => (hub.sockets.length === 2 && conn.status === 'online' ? true : undefined), 'a new connection');
    // The new socket carries calls again.
    const again = conn.call(ZLIST, {});
    const req = await hub.request(ZLIST, 1);
    hub.send({ jsonrpc: '2.0', id: req.id, result: { interactions: [] } });
    expect((await again).interactions).toEqual([]);
  });

  it('fails every call still in flight at once with LinkGone "closed" when the link is stopped, and does not reconnect', async () => {
    const one = conn.call(ZLIST, {});
    // No timeout at all (a prompt's): without stop() failing it, it would wait forever.
    const two = conn.call('session/prompt', { sessionId: 's1', prompt: [] }, 0);
    await hub.request('session/prompt');
    conn.stop();
    const lost = await one.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(lost).toBeInstanceOf(LinkGone);
    expect((lost as LinkGone).why).toBe('closed');
    await expect(two).rejects.toBeInstanceOf(LinkGone);
    // The hub sees the socket closed normally, and no new one follows.
    await until(() => (hub.socket.readyState === hub.socket.CLOSED ? true : undefined), 'the socket closed');
    expect(hub.sockets).toHaveLength(1);
    expect(statuses).not.toContain('offline');
  });

  it('rejects a call at once when there is no open socket', async () => {
    conn.stop();
    await expect(conn.call(ZLIST, {})).rejects.toBeInstanceOf(ConnectionLost);
  });

  it('rejects a call nobody answers within its timeout', async () => {
    await expect(conn.call(ZLIST, {}, 1)).rejects.toThrow('_zcode/interactions/list timed out');
    // A late answer to it is dropped quietly: nothing waits for it any more.
    const req = await hub.request(ZLIST);
    hub.send({ jsonrpc: '2.0', id: req.id, result: { interactions: [] } });
    await roundTrip();
    expect(warnings).toEqual([]);
  });

  it('routes notifications and requests from the server to their handlers, and sends the answer back', async () => {
    hub.send({ jsonrpc: '2.0', method: '_zcode/turn_state', params: { sessionId: 's1', state: 'running', queue: [] } });
    hub.send({ jsonrpc: '2.0', id: 'perm-1', method: 'session/request_permission', params: { sessionId: 's1' } });
    await until(() => (requests.length === 1 ? true : undefined), 'the request handled');
    expect(notifications).toEqual([{ method: '_zcode/turn_state', params: { sessionId: 's1', state: 'running', queue: [] } }]);
    expect(requests).toEqual([{ id: 'perm-1', method: 'session/request_permission', params: { sessionId: 's1' } }]);
    conn.respond('perm-1', { outcome: { outcome: 'cancelled' } });
    conn.respondError(7, -32601, 'Method not found: x');
    await until(() => (hub.frames.length === 2 ? true : undefined), 'both answers');
    expect(hub.frames).toEqual([
      { jsonrpc: '2.0', id: 'perm-1', result: { outcome: { outcome: 'cancelled' } } },
      { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found: x' } },
    ]);
    expect(conn.notify('session/cancel', { sessionId: 's1' })).toBe(true);
    await until(() => (hub.frames.length === 3 ? true : undefined), 'the notification');
    expect(hub.frames[2]).toEqual({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's1' } });
  });

  it('ignores malformed frames with a clear log, and keeps working', async () => {
    hub.send('this is not json');
    hub.send('[1, 2, 3]');
    hub.send({ jsonrpc: '2.0', id: 5 });
    hub.socket.send(Buffer.from('binary'), { binary: true });
    await until(() => (warnings.length === 4 ? true : undefined), 'four warnings');
    expect(warnings).toEqual([
      'rpc: ignored a frame that is not a JSON object: this is not json',
      'rpc: ignored a frame that is not a JSON object: [1, 2, 3]',
      'rpc: ignored a frame that is neither a request, a notification nor an answer: {"jsonrpc":"2.0","id":5}',
      'rpc: ignored a frame that is not text (the hub speaks JSON-RPC in text frames)',
    ]);
    expect(conn.status).toBe('online');
    const call = conn.call(ZLIST, {});
    const req = await hub.request(ZLIST);
    hub.send({ jsonrpc: '2.0', id: req.id, result: { interactions: [{ interactionId: 'i1' }] } });
    expect((await call).interactions).toHaveLength(1);
    expect(notifications).toEqual([]);
    expect(requests).toEqual([]);
  });
});

/** One request/answer round trip: every frame the server sent before it has been handled. */
async function roundTrip(): Promise<void> {
  const before = hub.frames.length;
  const call = conn.call('session/set_mode', { sessionId: 's1', modeId: 'x' });
  const req = await until(() => hub.frames.slice(before).find((f) => f.method === 'session/set_mode'), 'the round trip');
  hub.send({ jsonrpc: '2.0', id: req.id, result: {} });
  await call;
}

describe('a socket the page opened before the app ran (early-socket.ts)', () => {
  let early: Hub;
  let app: RpcConnection | undefined;
  const INIT = { protocolVersion: 1, clientCapabilities: {} };

  beforeEach(async () => {
    early = new Hub();
    await until(() => (early.server.address() ? true : undefined), 'the server listening');
    // What early-socket.ts reads in a page: the page's address and the browser's WebSocket.
    vi.stubGlobal('location', { protocol: 'http:', host: new URL(early.url).host });
    vi.stubGlobal('WebSocket', WsSocket);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    app?.stop();
    await early.close();
  });

  /** An RpcConnection that calls `initialize` on open, as the app does; resolves with its answer. */
  function appConnection(): { conn: RpcConnection; initialized: Promise<unknown>; seen: string[] } {
    const seen: string[] = [];
    let done: (v: unknown) => void = () => undefined;
    const initialized = new Promise<unknown>((resolve) => (done = resolve));
    const c = new RpcConnection(
      early.url,
      {
        onOpen: async (rpc) => {
          seen.push('open');
          const answer = await rpc.call('initialize', INIT);
          seen.push('initialized');
          done(answer);
        },
        onNotification: (method) => seen.push(method),
        onRequest: () => undefined,
        onStatus: () => undefined,
      },
      { WebSocket },
    );
    app = c;
    return { conn: c, initialized, seen };
  }

  it('is taken over with its initialize already sent: no second socket, no second initialize, and what came before is handled after the open, in order', async () => {
    openEarlySocket([{ method: 'initialize', params: INIT }]);
    const init = await early.request('initialize');
    expect(init.id).toBe(0);
    early.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: 1, _meta: { zcode: { hub: 'early' } } } });
    early.send({ jsonrpc: '2.0', method: '_zcode/backend_state', params: { state: 'ready' } });
    // Both frames reached the page before the app took the socket.
    await until(() => (early.frames.length > 0 ? true : undefined), 'the request');
    const { conn: c, initialized, seen } = appConnection();
    const taken = takeEarlySocket();
    await until(() => ((taken?.received.length ?? 0) === 2 ? true : undefined), 'both frames held');
    c.adopt(taken);
    c.start();
    expect(await initialized).toMatchObject({ _meta: { zcode: { hub: 'early' } } });
    await until(() => (c.status === 'online' ? true : undefined), 'online');
    // The handshake's awaiter goes on before the notification that followed its answer, as it would off the socket.
    await until(() => (seen.length === 3 ? true : undefined), 'the notification');
    expect(seen).toEqual(['open', 'initialized', '_zcode/backend_state']);
    expect(early.sockets.length).toBe(1);
    expect(early.frames.filter((f) => f.method === 'initialize').length).toBe(1);
    // The app's own ids go on from 1.
    const next = c.call(ZLIST, {});
    const req = await early.request(ZLIST);
    expect(req.id).toBe(1);
    early.send({ jsonrpc: '2.0', id: req.id, result: { interactions: [] } });
    await next;
  });

  it('takes over the requests sent behind initialize: each call that asks the same takes its answer; one nobody asked is dropped, and asked later goes anew', async () => {
    const LIST = listParams();
    const SHOWN = loadParams('sess_shown', '');
    const OTHER = loadParams('sess_other', '');
    openEarlySocket([
      { method: 'initialize', params: INIT },
      { method: 'session/list', params: LIST },
      { method: 'session/load', params: SHOWN },
    ]);
    // All three go out at once, none waiting for an answer, with ids the app's never take.
    await early.request('session/load');
    expect(early.frames.map((f) => [f.method, f.id])).toEqual([
      ['initialize', 0],
      ['session/list', -1],
      ['session/load', -2],
    ]);
    expect(early.frames[2]?.params).toEqual(SHOWN);
    early.send({ jsonrpc: '2.0', id: 0, result: { protocolVersion: 1 } });
    early.send({ jsonrpc: '2.0', id: -1, result: { sessions: [{ sessionId: 'sess_shown' }] } });
    early.send({ jsonrpc: '2.0', id: -2, result: { _meta: { zcode: { seq: 7 } } } });
    const taken = takeEarlySocket();
    await until(() => ((taken?.received.length ?? 0) === 3 ? true : undefined), 'the three answers held');
    // The app's handshake asks the list and a load of another chat (the address changed, say).
    let answers: unknown[] = [];
    const c = new RpcConnection(
      early.url,
      {
        onOpen: async (rpc) => {
          answers = await Promise.all([rpc.call('initialize', INIT), rpc.call('session/list', LIST), rpc.call('session/load', OTHER)]);
        },
        onNotification: () => undefined,
        onRequest: () => undefined,
        onStatus: () => undefined,
      },
      { WebSocket },
    );
    app = c;
    c.adopt(taken);
    c.start();
    const other = await early.request('session/load', 1);
    expect([other.id, other.params]).toEqual([1, OTHER]);
    early.send({ jsonrpc: '2.0', id: other.id, result: { _meta: { zcode: { seq: 3 } } } });
    await until(() => (c.status === 'online' ? true : undefined), 'online');
    expect(answers).toEqual([{ protocolVersion: 1 }, { sessions: [{ sessionId: 'sess_shown' }] }, { _meta: { zcode: { seq: 3 } } }]);
    expect(early.frames.filter((f) => f.method === 'session/list')).toHaveLength(1);
    // The early load nobody asked: its answer went nowhere, and the same load asked now goes out anew.
    const later = c.call('session/load', SHOWN);
    const again = await early.request('session/load', 2);
    expect(again.id).toBe(2);
    early.send({ jsonrpc: '2.0', id: again.id, result: { _meta: { zcode: { seq: 8 } } } });
    expect(await later).toEqual({ _meta: { zcode: { seq: 8 } } });
  });

  it('a socket still opening is taken over and the app sends initialize itself when it opens', async () => {
    openEarlySocket([{ method: 'initialize', params: INIT }]);
    const { conn: c, initialized } = appConnection();
    c.adopt(takeEarlySocket());
    c.start();
    const init = await early.request('initialize');
    early.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: 1 } });
    await initialized;
    expect(early.sockets.length).toBe(1);
    expect(early.frames.filter((f) => f.method === 'initialize').length).toBe(1);
  });

  it('a socket that closed before the app ran is left alone: the app opens its own', async () => {
    openEarlySocket([{ method: 'initialize', params: INIT }]);
    await early.request('initialize');
    const taken = takeEarlySocket();
    early.socket.terminate();
    await until(() => (taken && taken.ws.readyState > 1 ? true : undefined), 'the early socket closed');
    const { conn: c, initialized } = appConnection();
    c.adopt(taken);
    c.start();
    const init = await early.request('initialize', 1);
    expect(init.id).toBe(1);
    early.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: 1 } });
    await initialized;
    expect(early.sockets.length).toBe(2);
  });
});
