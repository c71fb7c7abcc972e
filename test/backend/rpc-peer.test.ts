import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackendFailure, BackendRpcError } from '../../src/ports/backend-port.js';
import { RpcPeer, toErrorObject, type RpcOutcome } from '../../src/backend/rpc-peer.js';
import { FakeServer, MemoryTransport, captureLogger, quietLogger } from './helpers.js';

function pair(
  onRequest: (method: string, params: unknown) => Promise<RpcOutcome> = () =>
    Promise.resolve({ error: { code: -32601, message: 'Method not found' } }),
) {
  const server = new FakeServer();
  const transport = new MemoryTransport(server);
  const notes: Array<{ method: string; params: unknown }> = [];
  const peer = new RpcPeer(transport, { onNotification: (method, params) => notes.push({ method, params }), onRequest }, quietLogger());
  transport.onmessage = (m, at) => peer.handle(m, at);
  return { server, transport, peer, notes };
}

afterEach(() => vi.useRealTimers());

describe('JSON-RPC peer: correlation, timeouts, typed errors', () => {
  it('correlates responses that arrive out of order, with integer ids and no jsonrpc key', async () => {
    const { server, peer } = pair();
    const a = peer.request('session/list', undefined, 1000);
    const b = peer.request('session/read', { sessionId: 's1' }, 1000);
    const ma = await server.next();
    const mb = await server.next();
    expect(ma).toEqual({ id: 1, method: 'session/list' });
    expect(mb).toEqual({ id: 2, method: 'session/read', params: { sessionId: 's1' } });
    expect(Object.keys(ma)).not.toContain('jsonrpc');
    server.emit({ id: 2, result: { b: true } });
    server.emit({ id: 1, result: { a: true } });
    await expect(a).resolves.toEqual({ a: true });
    await expect(b).resolves.toEqual({ b: true });
    expect(peer.pendingCount).toBe(0);
  });

  it('rejects with BackendRpcError carrying code, message, data and method', async () => {
    const { server, peer } = pair();
    const p = peer.request('session/send', { sessionId: 's' }, 1000);
    const m = await server.next();
    server.emit({
      id: (m as { id: number }).id,
      error: { code: -32010, message: 'A prompt is already running for this session', data: { x: 1 } },
    });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendRpcError);
    expect(err).toMatchObject({
      code: -32010,
      method: 'session/send',
      data: { x: 1 },
      message: 'A prompt is already running for this session',
    });
  });

  it('times out a request the child never answers and forgets it; a late answer is ignored [CHD-05]', async () => {
    vi.useFakeTimers();
    const { server, peer } = pair();
    const p = peer.request('workspace/generateText', {}, 5000);
    const caught = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(4999);
    expect(peer.pendingCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const err = await caught;
    expect(err).toBeInstanceOf(BackendFailure);
    expect((err as BackendFailure).kind).toBe('timeout');
    expect(peer.pendingCount).toBe(0);
    server.emit({ id: 1, result: 'late' }); // ignored, no throw
    expect(vi.getTimerCount()).toBe(0);
  });

  it('failAll rejects every pending request at once with the given kind, and later requests too [CHD-01]', async () => {
    const { peer } = pair();
    const ps = [1, 2, 3].map((i) => peer.request(`m/${i}`, undefined, 60_000).catch((e: unknown) => e));
    peer.failAll('gone', 'The agent backend exited');
    for (const e of await Promise.all(ps)) expect(e).toMatchObject({ name: 'BackendFailure', kind: 'gone' });
    await expect(peer.request('m/4', undefined, 1000)).rejects.toMatchObject({ kind: 'gone' });
    expect(peer.pendingCount).toBe(0);
  });

  it('fails fast when the transport is overloaded, leaving nothing pending [CHD-04]', async () => {
    const { peer, transport } = pair();
    transport.overloaded = true;
    await expect(peer.request('session/list', undefined, 1000)).rejects.toMatchObject({ kind: 'overloaded' });
    expect(peer.pendingCount).toBe(0);
  });

  it('forwards notifications in order', async () => {
    const { server, notes } = pair();
    server.emit({ method: 'session/event', params: { seq: 1 } });
    server.emit({ method: 'state.updated', params: { reason: 'prompt_started' } });
    expect(notes.map((n) => n.method)).toEqual(['session/event', 'state.updated']);
  });

  it('always answers reverse requests: results, errors, throwing handlers, undefined results', async () => {
    const handler = vi.fn(async (method: string): Promise<RpcOutcome> => {
      if (method === 'ok') return { result: { fine: true } };
      if (method === 'throws') throw new Error('');
      if (method === 'undef') return { result: undefined };
      return { error: { code: -32601, message: 'Method not found' } };
    });
    const { server } = pair(handler);
    server.emit({ id: 'server-1', method: 'ok' });
    server.emit({ id: 'server-2', method: 'throws' });
    server.emit({ id: 'server-3', method: 'undef' });
    server.emit({ id: 'server-4', method: 'other/thing' });
    const answers = await Promise.all(['server-1', 'server-2', 'server-3', 'server-4'].map((id) => server.next((m) => m.id === id)));
    expect(answers[0]).toEqual({ id: 'server-1', result: { fine: true } });
    for (const a of answers.slice(1, 3)) {
      expect(a).toHaveProperty('error.code', -32603);
      expect((a as { error: { message: string } }).error.message.trim().length).toBeGreaterThan(0);
    }
    expect(answers[3]).toEqual({ id: 'server-4', error: { code: -32601, message: 'Method not found' } });
  });

  it('logs error responses that cannot be correlated (parse-error / invalid-message, §1.4)', () => {
    const cap = captureLogger();
    const server = new FakeServer();
    const transport = new MemoryTransport(server);
    const peer = new RpcPeer(transport, { onNotification: () => undefined, onRequest: async () => ({ result: {} }) }, cap.logger);
    transport.onmessage = (m, at) => peer.handle(m, at);
    server.emit({ id: 'invalid-message', error: { code: -32600, message: 'Invalid ZCode Protocol message' } });
    expect(cap.find('the backend rejected a line the hub wrote')).toHaveLength(1);
  });

  it('toErrorObject never yields a blank message', () => {
    expect(toErrorObject(new Error('   '))).toEqual({ code: -32603, message: 'The hub could not answer this request' });
    expect(toErrorObject({ code: -32001, message: 'nope', data: 1 })).toEqual({ code: -32001, message: 'nope', data: 1 });
    expect(toErrorObject(undefined).message.length).toBeGreaterThan(0);
  });
});
