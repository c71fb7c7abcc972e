import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AcpH2Client, H2Connection } from '../helpers/acp-h2-client.js';
import { DpopKey } from '../helpers/dpop-client.js';
import { selfSignedCert } from '../helpers/tls-cert.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

/**
 * HTTP/2 on the hub's one port (the remote-transport RFD: "Streamable HTTP transport MUST use
 * HTTP/2"): h2c by prior knowledge on plain http, h2 by ALPN with `--tls-cert`, while HTTP/1.1
 * and the WebSocket upgrade go on for everyone else. Driven with a raw node:http2 client and
 * with curl; every security check holds on HTTP/2 as on HTTP/1.1.
 */

const run = promisify(execFile);

interface CurlAnswer {
  status: number;
  version: string;
  body: string;
}

/** Runs curl; `-w` appends the HTTP version and status on the last line. */
async function curl(args: string[]): Promise<CurlAnswer> {
  const { stdout } = await run('curl', ['-sS', '--max-time', '20', '-w', '\n%{http_version} %{http_code}', ...args]);
  const cut = stdout.lastIndexOf('\n');
  const [version, status] = stdout.slice(cut + 1).split(' ');
  return { status: Number(status), version: version ?? '', body: stdout.slice(0, cut) };
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'curl', version: '1' } },
});

/**
 * curl alone drives an ACP turn over HTTP/2: initialize (the connection id from the answer's
 * headers), the event stream as a second curl kept open, then session/new and session/prompt;
 * resolves with every JSON-RPC message the stream carried.
 */
async function curlTurn(hub: HubHarness, flags: string[]): Promise<Array<Record<string, unknown>>> {
  const url = hub.url;
  const auth = ['-H', `authorization: Bearer ${hub.adminToken}`];
  const json = ['-H', 'content-type: application/json'];
  const { stdout: head } = await run('curl', [
    '-sS',
    ...flags,
    '-D',
    '-',
    '-o',
    '/dev/null',
    ...auth,
    ...json,
    '--data-binary',
    initialize,
    `${url}/acp`,
  ]);
  expect(head).toMatch(/^HTTP\/2 200/);
  const connectionId = /^acp-connection-id: (\S+)/im.exec(head)?.[1] ?? '';
  expect(connectionId).not.toBe('');
  const conn = ['-H', `acp-connection-id: ${connectionId}`];
  const stream = spawn('curl', ['-sSN', ...flags, ...auth, ...conn, '-H', 'accept: text/event-stream', `${url}/acp`]);
  let text = '';
  stream.stdout.setEncoding('utf8');
  stream.stdout.on('data', (chunk: string) => (text += chunk));
  const messages = (): Array<Record<string, unknown>> =>
    text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
  const post = async (message: unknown, extra: string[] = []): Promise<string> => {
    const { stdout } = await run('curl', [
      '-sS',
      ...flags,
      '-o',
      '/dev/null',
      '-w',
      '%{http_version} %{http_code}',
      ...auth,
      ...json,
      ...conn,
      ...extra,
      '--data-binary',
      JSON.stringify(message),
      `${url}/acp`,
    ]);
    return stdout;
  };
  try {
    expect(await post({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: hub.workspace, mcpServers: [] } })).toBe('2 202');
    const opened = await until(() => messages().find((m) => m['id'] === 2), 'session/new on the curl stream');
    const sessionId = (opened['result'] as { sessionId: string }).sessionId;
    const prompt = {
      jsonrpc: '2.0',
      id: 3,
      method: 'session/prompt',
      params: { sessionId, prompt: [{ type: 'text', text: 'hello from curl' }] },
    };
    expect(await post(prompt, ['-H', `acp-session-id: ${sessionId}`])).toBe('2 202');
    await until(() => messages().find((m) => m['id'] === 3), 'the prompt result on the curl stream');
    return messages();
  } finally {
    if (stream.pid !== undefined) stream.kill();
  }
}

function wsInitialize(url: string, token: string): Promise<{ result?: { protocolVersion?: number } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, rejectUnauthorized: false });
    ws.once('error', reject);
    ws.once('open', () => ws.send(initialize));
    ws.once('message', (data) => {
      resolve(JSON.parse(String(data)) as { result?: { protocolVersion?: number } });
      ws.close();
    });
  });
}

describe('h2c by prior knowledge, HTTP/1.1 and WebSocket on the same plain port', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub({ limits: { httpBodyLimitBytes: 1024, pairAttemptsPerWindow: 2, httpRequestTimeoutMs: 3_000 } });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('answers HTTP/2, HTTP/1.1 and the WebSocket upgrade on one port', async () => {
    const h2 = new H2Connection(hub.url);
    const health = await h2.request({ ':method': 'GET', ':path': '/api/health' });
    expect(health.status).toBe(200);
    expect(health.body).toBe('ok');
    h2.close();
    const h1 = await fetch(`${hub.url}/api/health`);
    expect(h1.status).toBe(200);
    expect((await wsInitialize(hub.wsUrl, hub.adminToken)).result?.protocolVersion).toBe(1);
  });

  it('tells HTTP/2 from HTTP/1.1 when the first bytes arrive one at a time', async () => {
    const net = await import('node:net');
    const port = Number(new URL(hub.url).port);
    // A relay that hands the hub the client's first 40 bytes one per write, a few ms apart.
    const open = new Set<import('node:net').Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(port, '127.0.0.1');
      open.add(client).add(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.pipe(client);
      let dripped = 0;
      let chain = Promise.resolve();
      client.on('data', (chunk: Buffer) => {
        chain = chain.then(async () => {
          for (const byte of chunk) {
            upstream.write(Buffer.from([byte]));
            if (dripped >= 40) continue;
            dripped += 1;
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        });
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayUrl = `http://127.0.0.1:${(relay.address() as import('node:net').AddressInfo).port}`;
    try {
      const h2 = new H2Connection(relayUrl);
      expect((await h2.request({ ':method': 'GET', ':path': '/api/health' })).body).toBe('ok');
      h2.close();
      const h1 = await fetch(`${relayUrl}/api/health`);
      expect(await h1.text()).toBe('ok');
    } finally {
      for (const socket of open) socket.destroy();
      relay.close();
    }
  });

  it('serves many requests of one HTTP/2 connection at once, authenticated per request', async () => {
    const h2 = new H2Connection(hub.url);
    const auth = { authorization: `Bearer ${hub.adminToken}` };
    const answers = await Promise.all(Array.from({ length: 8 }, () => h2.request({ ':method': 'GET', ':path': '/api/status', ...auth })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    h2.close();
  });

  it('refuses a request without a credential 401, and ends that unauthenticated connection (GOAWAY)', async () => {
    const h2 = new H2Connection(hub.url);
    const res = await h2.request({ ':method': 'POST', ':path': '/acp', 'content-type': 'application/json' }, initialize);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'HUB_ERR_UNAUTHENTICATED' } });
    await until(() => (h2.goaway ? true : undefined), 'the GOAWAY');
    // HTTP/2 carries no Connection header (RFC 9113 §8.2.2).
    expect(res.headers.connection).toBeUndefined();
    h2.close();
  });

  it('refuses a foreign :authority, a Host that differs from :authority, and a foreign Origin 403', async () => {
    const auth = { authorization: `Bearer ${hub.adminToken}` };
    const rebound = new H2Connection(hub.url);
    const badAuthority = await rebound.request({ ':method': 'GET', ':path': '/api/status', ':authority': 'evil.example', ...auth });
    expect(badAuthority.status).toBe(403);
    expect(JSON.parse(badAuthority.body)).toMatchObject({ error: { code: 'HUB_ERR_HOST' } });
    // Refused before auth: like HTTP/1.1's `Connection: close`, the connection takes no further request.
    await until(() => (rebound.goaway ? true : undefined), 'the GOAWAY');
    rebound.close();
    const twice = new H2Connection(hub.url);
    const twoHosts = await twice.request({ ':method': 'GET', ':path': '/api/status', host: 'evil.example', ...auth });
    expect(twoHosts.status).toBe(403);
    expect(JSON.parse(twoHosts.body)).toMatchObject({ error: { code: 'HUB_ERR_HOST' } });
    twice.close();
    const h2 = new H2Connection(hub.url);
    const foreign = await h2.request(
      { ':method': 'POST', ':path': '/acp', 'content-type': 'application/json', origin: 'https://evil.example', ...auth },
      initialize,
    );
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: { code: 'HUB_ERR_ORIGIN' } });
    h2.close();
  });

  it('keeps the body limit and the rate limit', async () => {
    const h2 = new H2Connection(hub.url);
    const big = await h2.request(
      { ':method': 'POST', ':path': '/api/pair', 'content-type': 'application/json' },
      JSON.stringify({ code: 'x'.repeat(4096) }),
    );
    expect(big.status).toBe(413);
    h2.close();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const c = new H2Connection(hub.url);
      const res = await c.request(
        { ':method': 'POST', ':path': '/api/pair', 'content-type': 'application/json' },
        JSON.stringify({ code: 'NOPE-NOPE', name: 'h2' }),
      );
      statuses.push(res.status);
      c.close();
    }
    expect(statuses[2]).toBe(429);
  });

  it('checks a DPoP proof against the :authority URL: a fresh proof passes, a replayed or foreign one is 401', async () => {
    const key = await DpopKey.generate();
    const issued = await hub.auth.tokens.create({
      name: 'h2-phone',
      scope: 'operate',
      ttlMs: 3_600_000,
      via: 'api',
      jkt: await key.thumbprint(),
    });
    const me = `${hub.url}/api/me`;
    const once = await key.headers('GET', me, issued.token);
    const h2 = new H2Connection(hub.url);
    const ok = await h2.request({ ':method': 'GET', ':path': '/api/me', ...once });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ bound: true, identity: { name: 'h2-phone' } });
    const replay = await h2.request({ ':method': 'GET', ':path': '/api/me', ...once });
    expect(replay.status).toBe(401);
    h2.close();
    const elsewhere = new H2Connection(hub.url);
    const foreign = await elsewhere.request({
      ':method': 'GET',
      ':path': '/api/me',
      ...(await key.headers('GET', `http://localhost:1/api/me`, issued.token)),
    });
    expect(foreign.status).toBe(401);
    elsewhere.close();
  });

  it('answers 408 to a request whose body does not finish within the request timeout, and resets its stream', async () => {
    const h2 = new H2Connection(hub.url);
    const stream = h2.session.request(
      { ':method': 'POST', ':path': '/acp', 'content-type': 'application/json', authorization: `Bearer ${hub.adminToken}` },
      { endStream: false },
    );
    stream.write('{"jsonrpc":');
    const status = await new Promise<number>((resolve) => stream.once('response', (h) => resolve(Number(h[':status']))));
    expect(status).toBe(408);
    await new Promise((resolve) => stream.once('close', resolve));
    h2.close();
  });

  it('curl --http2-prior-knowledge alone runs an ACP turn: initialize, the event stream, session/new, a streamed prompt', async () => {
    const seen = await curlTurn(hub, ['--http2-prior-knowledge']);
    const result = seen.find((m) => m['id'] === 3)?.['result'] as { stopReason: string };
    expect(result.stopReason).toBe('end_turn');
    const kinds = seen
      .filter((m) => m['method'] === 'session/update')
      .map((m) => (m['params'] as { update: { sessionUpdate: string } }).update.sessionUpdate);
    expect(kinds).toContain('agent_message_chunk');
  });

  it('curl --http2-prior-knowledge speaks HTTP/2; curl --http2 (Upgrade: h2c) is answered over HTTP/1.1', async () => {
    const prior = await curl(['--http2-prior-knowledge', `${hub.url}/api/health`]);
    expect(prior).toMatchObject({ status: 200, version: '2', body: 'ok' });
    const init = await curl([
      '--http2-prior-knowledge',
      '-X',
      'POST',
      '-H',
      `authorization: Bearer ${hub.adminToken}`,
      '-H',
      'content-type: application/json',
      '--data-binary',
      initialize,
      `${hub.url}/acp`,
    ]);
    expect(init.version).toBe('2');
    expect(init.status).toBe(200);
    expect((JSON.parse(init.body) as { result: { protocolVersion: number } }).result.protocolVersion).toBe(1);
    const upgrade = await curl(['--http2', `${hub.url}/api/health`]);
    expect(upgrade).toMatchObject({ status: 200, version: '1.1', body: 'ok' });
  });
});

describe('/acp Streamable HTTP over one HTTP/2 connection', () => {
  let hub: HubHarness;
  let h2: H2Connection;
  let client: AcpH2Client;
  let sessionId: string;
  beforeAll(async () => {
    hub = await startHub();
    h2 = new H2Connection(hub.url);
    client = new AcpH2Client(h2, { authorization: `Bearer ${hub.adminToken}` });
  });
  afterAll(async () => {
    client?.close();
    h2?.close();
    await hub?.close();
  });

  it('initializes, opens its event stream and streams a prompt turn, every request a stream of the same connection', async () => {
    const init = await client.initialize();
    expect(init).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
    expect(client.connectionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.openStream()).toBe(200);
    sessionId = (await client.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] })).sessionId;
    const res = await client.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'hello over h2' }],
    });
    expect(res.stopReason).toBe('end_turn');
    const kinds = client.notifications<{ update: { sessionUpdate: string } }>('session/update').map((u) => u.update.sessionUpdate);
    expect(kinds).toContain('agent_message_chunk');
    expect(h2.session.destroyed).toBe(false);
  });

  it('wins the permission race against a WebSocket client; the WebSocket copy is withdrawn', async () => {
    const ws = await hub.initializedClient({ name: 'ws-desk' });
    await ws.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const turn = ws.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run the tests, permission needed' }],
    });
    const wsCopy = await ws.waitForRequest('session/request_permission');
    const h2Copy = await until(
      () => client.messages.find((m) => m.method === 'session/request_permission' && m.id !== undefined),
      'the HTTP/2 copy',
    );
    const options = (h2Copy.params as { options: Array<{ optionId: string; kind: string }> }).options;
    const allow = options.find((o) => o.kind === 'allow_once')!.optionId;
    expect((await client.answer(h2Copy.id!, { outcome: { outcome: 'selected', optionId: allow } }, sessionId)).status).toBe(202);
    expect((await turn).stopReason).toBe('end_turn');
    const withdrawn = await ws.waitForNotification<{ requestId: string | number }>('$/cancel_request');
    expect(withdrawn.requestId).toBe(wsCopy.id);
  });

  it('cancels a running turn', async () => {
    const before = client.messages.length;
    const turn = client.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'be slow about it' }],
    });
    await until(
      () =>
        client.messages
          .slice(before)
          .some(
            (m) =>
              m.method === 'session/update' &&
              (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate === 'agent_message_chunk',
          )
          ? true
          : undefined,
      'the turn to stream',
    );
    const cancel = await client.post({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId } }, { 'acp-session-id': sessionId });
    expect(cancel.status).toBe(202);
    expect((await turn).stopReason).toBe('cancelled');
  });
});

describe('h2 by ALPN over TLS, HTTP/1.1 and WebSocket beside it', () => {
  let hub: HubHarness;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-h2tls-'));
    const { certPath: cert, keyPath: key } = selfSignedCert(dir);
    hub = await startHub({ config: { tlsCert: cert, tlsKey: key }, limits: { preAuthDeadlineMs: 1_000 } });
  });
  afterAll(async () => {
    await hub?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('negotiates h2 and runs an ACP connection over it; a missing token is 401', async () => {
    expect(hub.url.startsWith('https://')).toBe(true);
    const h2 = new H2Connection(hub.url);
    expect(await h2.alpn()).toBe('h2');
    const client = new AcpH2Client(h2, { authorization: `Bearer ${hub.adminToken}` });
    expect(await client.initialize()).toMatchObject({ protocolVersion: 1 });
    expect(await client.openStream()).toBe(200);
    const list = await client.request<{ sessions: unknown[] }>('session/list', {});
    expect(Array.isArray(list.sessions)).toBe(true);
    client.close();
    const anonymous = await h2.request({ ':method': 'GET', ':path': '/api/status' });
    expect(anonymous.status).toBe(401);
    h2.close();
  });

  it('an authenticated WebSocket and HTTP/2 connection outlive the pre-auth deadline; a silent TLS connection does not', async () => {
    // The deadline's bookkeeping is keyed by the TCP socket; a TLS request's socket wraps it.
    const ws = new WebSocket(hub.wsUrl, { headers: { authorization: `Bearer ${hub.adminToken}` }, rejectUnauthorized: false });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    let wsClosed = false;
    ws.once('close', () => (wsClosed = true));
    const h2 = new H2Connection(hub.url);
    const auth = { authorization: `Bearer ${hub.adminToken}` };
    expect((await h2.request({ ':method': 'GET', ':path': '/api/status', ...auth })).status).toBe(200);
    const tls = await import('node:tls');
    const silent = tls.connect({ host: '127.0.0.1', port: Number(new URL(hub.url).port), rejectUnauthorized: false });
    silent.on('error', () => undefined);
    await new Promise((resolve) => silent.once('close', resolve));
    expect(wsClosed).toBe(false);
    expect(h2.session.destroyed).toBe(false);
    expect((await h2.request({ ':method': 'GET', ':path': '/api/status', ...auth })).status).toBe(200);
    ws.close();
    h2.close();
  });

  it('curl --http2 (ALPN h2) alone runs an ACP turn over TLS', async () => {
    const seen = await curlTurn(hub, ['-k', '--http2']);
    expect((seen.find((m) => m['id'] === 3)?.['result'] as { stopReason: string }).stopReason).toBe('end_turn');
  });

  it('curl --http2 negotiates h2; curl --http1.1 and the WebSocket still get HTTP/1.1', async () => {
    const h2 = await curl(['-k', '--http2', `${hub.url}/api/health`]);
    expect(h2).toMatchObject({ status: 200, version: '2', body: 'ok' });
    const h1 = await curl(['-k', '--http1.1', `${hub.url}/api/health`]);
    expect(h1).toMatchObject({ status: 200, version: '1.1', body: 'ok' });
    expect((await wsInitialize(hub.wsUrl, hub.adminToken)).result?.protocolVersion).toBe(1);
  });
});

describe('HTTP/2 limits', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub({
      limits: {
        http2MaxConcurrentStreams: 2,
        http2MaxHeaderListBytes: 4096,
        preAuthDeadlineMs: 1_000,
        // Only the pre-auth deadline, not the idle timer, can close a silent connection here.
        httpKeepAliveTimeoutMs: 120_000,
        unauthConnectionsPerAddress: 3,
        unauthConnectionsTotal: 3,
      },
    });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('an HTTP/2 connection sits in the unauthenticated pool until one of its requests authenticates', async () => {
    const net = await import('node:net');
    const port = Number(new URL(hub.url).port);
    const admitted = new H2Connection(hub.url);
    expect((await admitted.request({ ':method': 'GET', ':path': '/api/status', authorization: `Bearer ${hub.adminToken}` })).status).toBe(
      200,
    );
    const waiting = new H2Connection(hub.url);
    expect((await waiting.request({ ':method': 'GET', ':path': '/api/health' })).status).toBe(200);
    // Four idle sockets from the same address: the pool (3 per address) drops its oldest, the unauthenticated HTTP/2 one.
    const idle = Array.from({ length: 4 }, () => net.connect(port, '127.0.0.1'));
    for (const s of idle) s.on('error', () => undefined);
    await until(
      () => (waiting.session.destroyed || waiting.session.closed ? true : undefined),
      'the unauthenticated HTTP/2 connection to go',
    );
    expect(admitted.session.destroyed).toBe(false);
    expect((await admitted.request({ ':method': 'GET', ':path': '/api/status', authorization: `Bearer ${hub.adminToken}` })).status).toBe(
      200,
    );
    for (const s of idle) s.destroy();
    admitted.close();
  });

  it('refuses a stream past http2MaxConcurrentStreams (REFUSED_STREAM); the ones under it are answered', async () => {
    // Three request bodies left open, sent before the hub's SETTINGS arrive so the client cannot
    // hold the third back itself: the first two stay open whatever the timing, the third is one too many.
    const h2 = new H2Connection(hub.url);
    const headers = { ':method': 'POST', ':path': '/api/pair', 'content-type': 'application/json' };
    const streams = [0, 1, 2].map(() => h2.session.request(headers, { endStream: false }));
    const outcomes = streams.map(
      (stream) =>
        new Promise<string>((resolve) => {
          stream.on('response', (h) => resolve(String(h[':status'])));
          stream.on('error', (e: Error) => resolve(e.message));
          stream.resume();
        }),
    );
    expect(await outcomes[2]).toContain('NGHTTP2_REFUSED_STREAM');
    for (const stream of streams.slice(0, 2)) stream.end(JSON.stringify({ code: 'NOPE-NOPE', name: 'h2' }));
    // Answered (401: no such code), not refused.
    expect(await Promise.all(outcomes.slice(0, 2))).toEqual(['401', '401']);
    h2.close();
  });

  it('refuses a header block over http2MaxHeaderListBytes', async () => {
    const h2 = new H2Connection(hub.url);
    const under = await h2.request({ ':method': 'GET', ':path': '/api/health', 'x-pad': 'a'.repeat(1024) });
    expect(under.status).toBe(200);
    const over = await h2.request({ ':method': 'GET', ':path': '/api/health', 'x-pad': 'a'.repeat(8192) }).then(
      (a) => String(a.status),
      (e: Error) => e.message,
    );
    // node resets a stream whose header block is over the advertised size.
    expect(over).toContain('NGHTTP2_ENHANCE_YOUR_CALM');
    h2.close();
  });

  it('closes an HTTP/2 connection that sends no request within the pre-auth deadline, and one stuck inside the preface', async () => {
    const h2 = new H2Connection(hub.url);
    // The hub's SETTINGS: an HTTP/2 connection, which then sends nothing.
    await new Promise((resolve) => h2.session.once('remoteSettings', resolve));
    await new Promise((resolve) => h2.session.once('close', resolve));
    expect(h2.session.destroyed).toBe(true);
    const net = await import('node:net');
    const port = Number(new URL(hub.url).port);
    const half = net.connect(port, '127.0.0.1', () => half.write('PRI * HTTP/2.0\r\n'));
    await new Promise((resolve) => half.once('close', resolve));
    expect(half.destroyed).toBe(true);
  });
});

describe('closing the hub with HTTP/2 connections open', () => {
  it('sends GOAWAY, ends the open event stream and closes; nothing holds the shutdown', async () => {
    // A long keep-alive: only the GOAWAY at close, not the idle timer, can end the idle connection.
    const hub = await startHub({ limits: { httpKeepAliveTimeoutMs: 120_000 } });
    const h2 = new H2Connection(hub.url);
    const client = new AcpH2Client(h2, { authorization: `Bearer ${hub.adminToken}` });
    await client.initialize();
    expect(await client.openStream()).toBe(200);
    const idle = new H2Connection(hub.url);
    expect((await idle.request({ ':method': 'GET', ':path': '/api/health' })).status).toBe(200);
    const closed = Promise.all([h2, idle].map((c) => new Promise((resolve) => c.session.once('close', resolve))));
    await hub.close();
    await closed;
    expect(h2.goaway || h2.session.destroyed).toBe(true);
    expect(idle.session.destroyed).toBe(true);
  });
});

describe('the outbound budget over HTTP/2', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    hub = await startHub({
      limits: { clientOutboundBudgetBytes: 1024 * 1024 },
      simArgs: ['--event-rate', '2000', '--event-bytes', '2000', '--event-duration-ms', '3000'],
    });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('a stalled HTTP/2 event-stream reader is closed 4008; its connection and the other clients carry on', async () => {
    const ws = await hub.initializedClient({ name: 'fast' });
    const { sessionId } = await ws.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const h2 = new H2Connection(hub.url);
    const stalled = new AcpH2Client(h2, { authorization: `Bearer ${hub.adminToken}` });
    await stalled.initialize('stalled-h2');
    await stalled.openStream();
    await stalled.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    stalled.pause();
    const turn = ws.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'flood' }] });
    // The ACP connection is gone (404), while the HTTP/2 connection under it still serves requests.
    await until(
      async () => ((await stalled.post({ jsonrpc: '2.0', method: 'session/list_ping' })).status === 404 ? true : undefined),
      'the stalled connection to be closed',
      30_000,
    );
    expect((await turn).stopReason).toBe('end_turn');
    expect((await h2.request({ ':method': 'GET', ':path': '/api/health' })).status).toBe(200);
    h2.close();
    // The stream the reader never drained is reset after the close grace (wsCloseGraceMs). This client never
    // closes its side either: the hub still closes (the afterAll), ending the half-closed socket itself.
  });
});

describe('idle HTTP/2 connections', () => {
  let hub: HubHarness;
  beforeAll(async () => {
    // A heartbeat far away: an open event stream then carries nothing while the keep-alive runs out.
    hub = await startHub({ limits: { httpKeepAliveTimeoutMs: 800, heartbeatIntervalMs: 60_000 } });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('keeps a connection with an open stream past the keep-alive timeout, and closes it once idle', async () => {
    const h2 = new H2Connection(hub.url);
    const client = new AcpH2Client(h2, { authorization: `Bearer ${hub.adminToken}` });
    await client.initialize('idle-h2');
    expect(await client.openStream()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(h2.goaway).toBe(false);
    expect((await client.request<{ sessions: unknown[] }>('session/list', {})).sessions).toBeInstanceOf(Array);
    client.close();
    await until(() => (h2.goaway ? true : undefined), 'the GOAWAY of the idle connection');
    h2.close();
  });
});
