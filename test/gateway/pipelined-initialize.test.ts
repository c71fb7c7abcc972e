import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';

/**
 * A client may send its first requests right behind `initialize`, before the answer (one round
 * trip less on every connect, docs/CLIENT-PROTOCOL.md "Connecting"): they are served after it, in
 * order. The frames are sent in one TCP write, so the hub reads them in one chunk — the case where
 * the requests behind `initialize` used to be refused ("Call initialize first"), since the answer
 * was set a microtask after the frames of that chunk had all been dispatched.
 */
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ limits: { protocolViolationsBeforeClose: 2 } });
});
afterAll(async () => {
  await hub.close();
});

/** Sends `frames` in one write of the client's TCP socket. */
function sendTogether(c: AcpWsClient, frames: unknown[]): void {
  const tcp = (c.ws as unknown as { _socket: Socket })._socket;
  tcp.cork();
  for (const f of frames) c.sendJson(f);
  tcp.uncork();
}

const INIT = { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'pipelined', version: '1.0.0' } };

describe('requests pipelined behind initialize', () => {
  it('are served after its answer, in the order sent', async () => {
    const editor = await hub.initializedClient();
    const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });

    const c = await hub.client();
    sendTogether(c, [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT },
      { jsonrpc: '2.0', id: 2, method: 'session/list', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'session/load', params: { sessionId, cwd: hub.workspace, mcpServers: [] } },
      { jsonrpc: '2.0', id: 4, method: '_zcode/interactions/list', params: {} },
    ]);
    const answers = await c.waitFor((msgs) => {
      const a = msgs.filter((m) => m.method === undefined && typeof m.id === 'number');
      return a.length === 4 ? a : undefined;
    });
    expect(answers.map((m) => m.error)).toEqual([undefined, undefined, undefined, undefined]);
    // The handshake first, then each request in turn.
    expect(answers[0]?.id).toBe(1);
    const caps = (answers[0]?.result as { agentCapabilities: { _meta: { zcode: Record<string, unknown> } } }).agentCapabilities;
    expect(caps._meta.zcode.pipelining).toBe(true);
    expect(answers.map((m) => m.id).sort()).toEqual([1, 2, 3, 4]);
    const listed = (answers.find((m) => m.id === 2)?.result as { sessions: Array<{ sessionId: string }> }).sessions;
    expect(listed.map((s) => s.sessionId)).toContain(sessionId);
    // Still one connection in good standing: well within the two violations that would close it.
    expect(await c.request('session/list', {})).toHaveProperty('sessions');
    expect(c.isOpen).toBe(true);
    await c.close();
    await editor.close();
  });

  it('a request with no initialize before it is still refused', async () => {
    const c = await hub.client();
    sendTogether(c, [
      { jsonrpc: '2.0', id: 1, method: 'session/list', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'initialize', params: INIT },
    ]);
    const answers = await c.waitFor((msgs) => {
      const a = msgs.filter((m) => m.method === undefined && typeof m.id === 'number');
      return a.length === 2 ? a : undefined;
    });
    expect(answers.find((m) => m.id === 1)?.error?.code).toBe(-32600);
    expect(answers.find((m) => m.id === 2)?.error).toBeUndefined();
    await c.close();
  });

  it('behind an initialize that is refused, they are refused too', async () => {
    const c = await hub.client();
    sendTogether(c, [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 'one' } },
      { jsonrpc: '2.0', id: 2, method: 'session/list', params: {} },
    ]);
    const answers = await c.waitFor((msgs) => {
      const a = msgs.filter((m) => m.method === undefined && typeof m.id === 'number');
      return a.length === 2 ? a : undefined;
    });
    expect(answers.find((m) => m.id === 1)?.error?.code).toBe(-32602);
    expect(answers.find((m) => m.id === 2)?.error?.code).toBe(-32600);
    await c.close();
  });
});
