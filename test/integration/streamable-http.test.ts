import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AcpHttpClient } from '../helpers/acp-http-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { connectSdkOverHttp, type SdkHttpClient } from '../helpers/sdk-http-client.js';
import { until } from '../helpers/until.js';

/**
 * ACP over Streamable HTTP on `/acp` (RFD "Streamable HTTP & WebSocket") against the real hub
 * and simulator child: first with the official SDK's own HTTP client transport, then with a
 * plain fetch/SSE client for the wire rules, the race with a WebSocket client, and the budgets.
 */

describe('official ACP SDK client over Streamable HTTP', () => {
  let hub: HubHarness;
  let sdk: SdkHttpClient;
  let sessionId: string;
  beforeAll(async () => {
    hub = await startHub();
    sdk = connectSdkOverHttp(hub);
  });
  afterAll(async () => {
    sdk?.close();
    await hub?.close();
  });

  it('initializes, creates a session and streams a prompt turn', async () => {
    const init = await sdk.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: 'sdk-http', version: '1.0.0' },
    });
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const opened = await sdk.agent.request('session/new', { cwd: hub.workspace, mcpServers: [] });
    sessionId = opened.sessionId;
    const res = await sdk.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello over http' }] });
    expect(res.stopReason).toBe('end_turn');
    expect(sdk.updates.some((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')).toBe(true);
  });

  it('answers a permission request the hub sends on the event stream', async () => {
    const res = await sdk.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run the tests, permission needed' }],
    });
    expect(res.stopReason).toBe('end_turn');
    expect(sdk.permissions).toHaveLength(1);
    expect(sdk.updates.some((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed')).toBe(true);
  });

  it('cancels a running turn', async () => {
    const before = sdk.updates.length;
    const turn = sdk.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'be slow about it' }] });
    await expect
      .poll(() => sdk.updates.slice(before).some((u) => u.update.sessionUpdate === 'agent_message_chunk'), { timeout: 20_000 })
      .toBe(true);
    await sdk.agent.notify('session/cancel', { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
  });

  it('session/load on a second HTTP connection replays the conversation first', async () => {
    const other = connectSdkOverHttp(hub);
    try {
      await other.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      const res = await other.agent.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
      expect(other.updates.some((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'user_message_chunk')).toBe(true);
      expect((res._meta as { zcode: { replayMeta: { replayed: number } } }).zcode.replayMeta.replayed).toBeGreaterThan(0);
    } finally {
      other.close();
    }
  });
});

describe('Streamable HTTP wire rules', () => {
  let hub: HubHarness;
  const auth = (): Record<string, string> => ({ authorization: `Bearer ${hub.adminToken}` });
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('initialize answers 200 with Acp-Connection-Id; the stream then carries what was sent before it opened', async () => {
    const c = new AcpHttpClient(hub.url, auth());
    const init = await c.initialize();
    expect(c.connectionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
    expect(await c.openStream()).toBe(200);
    // _zcode/backend_state was queued at initialize, before any stream existed.
    await until(() => c.notifications('_zcode/backend_state')[0], 'backend_state on the stream');
    const list = await c.request<{ sessions: unknown[] }>('session/list', {});
    expect(Array.isArray(list.sessions)).toBe(true);
    c.close();
  });

  it('refuses what the RFD refuses: 415, 406, 400, 404, 409, batches', async () => {
    const c = new AcpHttpClient(hub.url, auth());
    await c.initialize();
    const raw = (init: RequestInit & { headers?: Record<string, string> }) =>
      fetch(`${hub.url}/acp`, { ...init, headers: { ...auth(), ...init.headers } });
    expect(
      (
        await raw({
          method: 'POST',
          headers: { 'content-type': 'text/plain', 'acp-connection-id': c.connectionId! },
          body: '{"jsonrpc":"2.0","method":"x"}',
        })
      ).status,
    ).toBe(415);
    expect((await raw({ method: 'GET', headers: { 'acp-connection-id': c.connectionId! } })).status).toBe(406);
    expect((await raw({ method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(400);
    expect(
      (
        await raw({
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"session/list"}',
        })
      ).status,
    ).toBe(400);
    expect((await raw({ method: 'GET', headers: { accept: 'text/event-stream', 'acp-connection-id': 'not-a-connection' } })).status).toBe(
      404,
    );
    const batch = await c.post([{ jsonrpc: '2.0', id: 1, method: 'session/list' }]);
    expect(batch.status).toBe(501);
    expect(await batch.json()).toMatchObject({ error: { code: 'HUB_ERR_NOT_SUPPORTED' } });
    expect((await c.post({ jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: 1 } })).status).toBe(400);
    // A session-scoped message names its session in the header too, and the same one.
    expect((await c.post({ jsonrpc: '2.0', id: 2, method: 'session/cancel', params: { sessionId: 's1' } })).status).toBe(400);
    expect(
      (await c.post({ jsonrpc: '2.0', id: 3, method: 'session/cancel', params: { sessionId: 's1' } }, { 'acp-session-id': 's2' })).status,
    ).toBe(400);
    expect(await c.openStream()).toBe(200);
    const second = new AcpHttpClient(hub.url, auth());
    second.connectionId = c.connectionId;
    expect(await second.openStream()).toBe(409);
    c.close();
  });

  it('a connection id is not a credential: another token cannot use it, no credential is 401, a foreign Origin 403', async () => {
    const c = new AcpHttpClient(hub.url, auth());
    await c.initialize();
    const other = new AcpHttpClient(hub.url, { authorization: `Bearer ${await hub.token('operate', 'other')}` });
    other.connectionId = c.connectionId;
    expect((await other.post({ jsonrpc: '2.0', id: 1, method: 'session/list', params: {} })).status).toBe(404);
    expect(await other.openStream()).toBe(404);
    const anonymous = new AcpHttpClient(hub.url, {});
    expect((await anonymous.post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } })).status).toBe(401);
    const cross = new AcpHttpClient(hub.url, { ...auth(), origin: 'https://evil.example' });
    expect((await cross.post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } })).status).toBe(403);
  });

  it('scopes are the WebSocket ones: a view token reads but cannot prompt', async () => {
    const viewer = new AcpHttpClient(hub.url, { authorization: `Bearer ${await hub.token('view', 'http-viewer')}` });
    const init = await viewer.initialize('viewer');
    expect(init).toMatchObject({ _meta: { zcode: { identity: { scope: 'view' } } } });
    await viewer.openStream();
    await viewer.request('session/list', {});
    const err = await viewer.request('session/new', { cwd: hub.workspace, mcpServers: [] }).then(
      () => undefined,
      (e: { rpc?: { data?: { code?: string } } }) => e.rpc,
    );
    expect(err?.data?.code).toBe('HUB_ERR_FORBIDDEN');
    viewer.close();
  });

  it('DELETE ends the connection: its stream closes and its id is gone', async () => {
    const c = new AcpHttpClient(hub.url, auth());
    await c.initialize();
    await c.openStream();
    const res = await fetch(`${hub.url}/acp`, { method: 'DELETE', headers: { ...auth(), 'acp-connection-id': c.connectionId! } });
    expect(res.status).toBe(202);
    await until(() => (c.streamEnded ? true : undefined), 'the stream to end');
    expect((await c.post({ jsonrpc: '2.0', id: 5, method: 'session/list', params: {} })).status).toBe(404);
  });

  it('revoking the token ends its HTTP connections like its WebSockets', async () => {
    const issued = await hub.auth.tokens.create({ name: 'http-phone', scope: 'operate', ttlMs: 3_600_000, via: 'api' });
    const c = new AcpHttpClient(hub.url, { authorization: `Bearer ${issued.token}` });
    await c.initialize();
    await c.openStream();
    hub.auth.tokens.revoke(issued.record.id);
    await until(() => (c.streamEnded ? true : undefined), 'the stream to end');
    expect(c.raw).toContain(': close 4401');
  });

  it('replay after a lost connection: a new connection resumes from its last seq and gets exactly the gap', async () => {
    const phone = new AcpHttpClient(hub.url, auth());
    await phone.initialize('resumer');
    await phone.openStream();
    const { sessionId } = await phone.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await phone.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello before the tunnel dropped' }] });
    type Update = { sessionId: string; _meta: { zcode: { seq: number; epoch: string } } };
    // The journaled updates: the agent's commands come as state, without a seq.
    const journaled = (u: Update) => u.sessionId === sessionId && typeof u._meta?.zcode?.seq === 'number';
    const seen = phone.notifications<Update>('session/update').filter(journaled);
    const last = seen[seen.length - 1]!._meta.zcode;
    phone.close();
    await until(
      () => ([...hub.daemon.app.gateway.connections()].some((c) => c.clientName === 'resumer') ? undefined : true),
      'the dropped connection to end',
    );
    // Meanwhile another client moves the session on.
    const desk = await hub.initializedClient({ name: 'desk-2' });
    await desk.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    await desk.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'while the phone was away' }] });
    const back = new AcpHttpClient(hub.url, auth());
    await back.initialize('resumer-again');
    await back.openStream();
    const res = await back.request<{ _meta: { zcode: { replayMeta: { recovered: boolean; replayed: number } } } }>('session/resume', {
      sessionId,
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { afterSeq: last.seq, epoch: last.epoch } },
    });
    const gap = back
      .notifications<Update>('session/update')
      .filter(journaled)
      .map((u) => u._meta.zcode.seq);
    expect(res._meta.zcode.replayMeta.recovered).toBe(true);
    expect(gap.length).toBeGreaterThan(0);
    expect(gap).toEqual(Array.from({ length: gap.length }, (_, i) => last.seq + 1 + i));
    back.close();
  });

  it('the permission race spans transports: an HTTP answer wins, the WebSocket copy is withdrawn', async () => {
    const ws = await hub.initializedClient({ name: 'ws-desk' });
    const { sessionId } = await ws.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const phone = new AcpHttpClient(hub.url, auth());
    await phone.initialize('http-phone');
    await phone.openStream();
    await phone.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const turn = ws.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run the tests, permission needed' }],
    });
    const wsCopy = await ws.waitForRequest('session/request_permission');
    const httpCopy = await until(
      () => phone.messages.find((m) => m.method === 'session/request_permission' && m.id !== undefined),
      'the HTTP copy',
    );
    const options = (httpCopy.params as { options: Array<{ optionId: string; kind: string }> }).options;
    const allow = options.find((o) => o.kind === 'allow_once')!.optionId;
    expect((await phone.answer(httpCopy.id!, { outcome: { outcome: 'selected', optionId: allow } }, sessionId)).status).toBe(202);
    expect((await turn).stopReason).toBe('end_turn');
    const withdrawn = await ws.waitForNotification<{ requestId: string | number }>('$/cancel_request');
    expect(withdrawn.requestId).toBe(wsCopy.id);
    const resolved = await ws.waitForNotification<{ resolvedBy?: { name: string } }>('_zcode/interaction_resolved');
    expect(resolved.resolvedBy).toMatchObject({ name: 'admin', person: 'admin', client: 'http-phone' });
    phone.close();
  });
});

describe('Streamable HTTP outbound budget', () => {
  let hub: HubHarness;
  const auth = (): Record<string, string> => ({ authorization: `Bearer ${hub.adminToken}` });
  beforeAll(async () => {
    hub = await startHub({
      limits: { clientOutboundBudgetBytes: 1024 * 1024 },
      simArgs: ['--event-rate', '2000', '--event-bytes', '2000', '--event-duration-ms', '3000'],
    });
  });
  afterAll(async () => {
    await hub?.close();
  });

  async function slowCloses(): Promise<number> {
    const text = await (await hub.api('/metrics')).text();
    return Number(/^zcode_hub_slow_consumer_closes_total (\d+)/m.exec(text)?.[1] ?? '0');
  }

  it('a stalled SSE reader is closed 4008 like a slow WebSocket; the other clients carry on', async () => {
    const before = await slowCloses();
    const ws = await hub.initializedClient({ name: 'fast' });
    const { sessionId } = await ws.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const stalled = new AcpHttpClient(hub.url, auth());
    await stalled.initialize('stalled');
    await stalled.openStream();
    await stalled.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    stalled.pause();
    const turn = ws.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'flood' }] });
    await until(
      async () => ((await stalled.post({ jsonrpc: '2.0', method: 'session/list_ping' })).status === 404 ? true : undefined),
      'the stalled connection to be closed',
      30_000,
    );
    expect(await slowCloses()).toBeGreaterThan(before);
    expect((await turn).stopReason).toBe('end_turn');
    stalled.close();
  });

  it('a connection that never opens its stream is closed 4008 once its queue crosses the budget', async () => {
    const before = await slowCloses();
    const ws = await hub.initializedClient({ name: 'fast-2' });
    const { sessionId } = await ws.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const blind = new AcpHttpClient(hub.url, auth());
    await blind.initialize('blind');
    expect(
      (
        await blind.post(
          { jsonrpc: '2.0', id: 7, method: 'session/resume', params: { sessionId, cwd: hub.workspace, mcpServers: [] } },
          { 'acp-session-id': sessionId },
        )
      ).status,
    ).toBe(202);
    const turn = ws.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'flood again' }] });
    await until(
      async () => ((await blind.post({ jsonrpc: '2.0', method: 'noop' })).status === 404 ? true : undefined),
      'the blind connection to be closed',
      30_000,
    );
    expect(await slowCloses()).toBeGreaterThan(before);
    await turn;
  });
});

describe('Streamable HTTP heartbeat', () => {
  let hub: HubHarness;
  const auth = (): Record<string, string> => ({ authorization: `Bearer ${hub.adminToken}` });
  beforeAll(async () => {
    // The HTTP server's request timeout is far shorter than a stream's life here: an
    // event stream must outlive it, since its request was received long ago.
    hub = await startHub({ limits: { heartbeatIntervalMs: 300, httpRequestTimeoutMs: 1_000, httpTimeoutSweepMs: 200 } });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('an idle connection without a stream is dropped, one with a live reader stays', async () => {
    const idle = new AcpHttpClient(hub.url, auth());
    await idle.initialize('idle');
    const live = new AcpHttpClient(hub.url, auth());
    await live.initialize('live');
    await live.openStream();
    // Watched from inside: a probe request would count as activity and keep it alive.
    const connected = (name: string): boolean => [...hub.daemon.app.gateway.connections()].some((c) => c.clientName === name);
    expect(connected('idle')).toBe(true);
    await until(() => (connected('idle') ? undefined : true), 'the idle connection to be dropped', 10_000);
    expect((await idle.post({ jsonrpc: '2.0', method: 'noop' })).status).toBe(404);
    // Three request timeouts later the reader is still connected and served.
    const opened = Date.now();
    await until(
      () => (Date.now() - opened > 3_000 && live.raw.split(':\n\n').length > 8 ? true : undefined),
      'keep-alives on the live stream for 3 s',
    );
    await live.request('session/list', {});
    expect(live.streamEnded).toBe(false);
    live.close();
  });
});
