import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LEGACY_INSTANCE_ID } from '../../src/compat-instance.js';
import { AcpHttpClient } from '../helpers/acp-http-client.js';
import { until } from '../helpers/until.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * The fields the RFD "Streamable HTTP & WebSocket" names, over real sockets: `Acp-Connection-Id`
 * on the WebSocket 101 and `connectionId` in the initialize result (acp profile only), JSON-RPC
 * batches answered HUB_ERR_NOT_SUPPORTED on both transports. The RFD has a server ignore binary
 * frames; the hub closes 1003 instead (docs/CLIENT-PROTOCOL.md "WebSocket"), so a client that sent
 * one learns why it gets no answer.
 */

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

interface Opened {
  ws: WebSocket;
  connectionId: string | undefined;
  next(): Promise<{ id?: unknown; result?: Record<string, unknown>; error?: { code: number; data?: { code?: string } } }>;
}

function open(query = ''): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${hub.wsUrl}${query}`, { headers: { authorization: `Bearer ${hub.adminToken}` } });
    const inbox: string[] = [];
    const waiters: Array<(s: string) => void> = [];
    ws.on('message', (data) => {
      // Answers only: notifications the hub sends on its own (backend state …) are not what these tests read.
      if ('method' in (JSON.parse(String(data)) as object)) return;
      const w = waiters.shift();
      if (w) w(String(data));
      else inbox.push(String(data));
    });
    let connectionId: string | undefined;
    ws.once('upgrade', (res: IncomingMessage) => {
      const h = res.headers['acp-connection-id'];
      connectionId = typeof h === 'string' ? h : undefined;
    });
    ws.once('error', reject);
    ws.once('open', () =>
      resolve({
        ws,
        connectionId,
        next: () => {
          const queued = inbox.shift();
          return queued !== undefined ? Promise.resolve(JSON.parse(queued)) : new Promise((r) => waiters.push((s) => r(JSON.parse(s))));
        },
      }),
    );
  });
}

const initialize = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'rfd', version: '1' } },
  });

describe('RFD fields', () => {
  it('names the WebSocket connection in the 101 answer and in the initialize result', async () => {
    const c = await open();
    expect(c.connectionId).toMatch(/^[0-9a-f-]{36}$/);
    c.ws.send(initialize(1));
    const init = await c.next();
    expect(init.result?.connectionId).toBe(c.connectionId);
    c.ws.close();
  });

  it('gives the Streamable HTTP connection the id of its header in the body too', async () => {
    const h = new AcpHttpClient(hub.url, { authorization: `Bearer ${hub.adminToken}` });
    const result = await h.initialize();
    expect(h.connectionId).toBeDefined();
    expect(result.connectionId).toBe(h.connectionId);
  });

  it('leaves connectionId out of the legacy profile', async () => {
    const c = await open(`?instance=${LEGACY_INSTANCE_ID}`);
    c.ws.send(initialize(1));
    const init = await c.next();
    expect(init.result).toBeDefined();
    expect(init.result).not.toHaveProperty('connectionId');
    c.ws.close();
  });

  it('answers a WebSocket batch with HUB_ERR_NOT_SUPPORTED and keeps serving', async () => {
    const c = await open();
    c.ws.send(initialize(1));
    await c.next();
    c.ws.send(JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'session/list', params: {} }]));
    const answer = await c.next();
    expect(answer.id).toBeNull();
    expect(answer.error?.code).toBe(-32015);
    expect(answer.error?.data?.code).toBe('HUB_ERR_NOT_SUPPORTED');
    c.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'session/list', params: {} }));
    expect((await c.next()).id).toBe(3);
    c.ws.close();
  });

  it('answers a POST batch with 501 HUB_ERR_NOT_SUPPORTED', async () => {
    const h = new AcpHttpClient(hub.url, { authorization: `Bearer ${hub.adminToken}` });
    await h.initialize();
    const res = await h.post([{ jsonrpc: '2.0', id: 1, method: 'session/list', params: {} }]);
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ error: { code: 'HUB_ERR_NOT_SUPPORTED' } });
  });

  it('takes an answer to its request without Acp-Session-Id (matched by its id), though a session request needs the header', async () => {
    const h = new AcpHttpClient(hub.url, { authorization: `Bearer ${hub.adminToken}` });
    await h.initialize();
    await h.openStream();
    const { sessionId } = await h.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const bare = await h.post({ jsonrpc: '2.0', id: 90, method: 'session/prompt', params: { sessionId, prompt: [] } });
    expect(bare.status).toBe(400);
    const turn = h.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'please ask permission now' }],
    });
    const asked = await until(
      () => h.messages.find((m) => m.method === 'session/request_permission' && m.id !== undefined),
      'the permission request',
    );
    const options = (asked.params as { options: Array<{ optionId: string; kind: string }> }).options;
    const allow = options.find((o) => o.kind === 'allow_once')!.optionId;
    expect((await h.answer(asked.id!, { outcome: { outcome: 'selected', optionId: allow } })).status).toBe(202);
    expect((await turn).stopReason).toBe('end_turn');
    h.close();
  });

  it('closes 1003 on a binary frame, saying text frames only, before answering anything in it', async () => {
    const c = await open();
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      c.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
    );
    c.ws.send(Buffer.from(initialize(1)), { binary: true });
    expect(await closed).toEqual({ code: 1003, reason: 'text frames only: send each JSON-RPC message as a UTF-8 text frame' });
  });
});
