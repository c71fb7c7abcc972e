import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPairCli } from '../../src/cli/pair.js';
import { runPeersCli } from '../../src/cli/peers.js';
import { AcpWsClient } from '../helpers/acp-ws-client.js';
import { DpopKey } from '../helpers/dpop-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { rawRequest, type RawResponse } from '../security/helpers/raw-http.js';

function capture(env: NodeJS.ProcessEnv) {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) }, env } };
}

/**
 * Two hubs on loopback as two machines. A's app is served from `http://localhost:PA`;
 * B is `http://127.0.0.1:PB` — a different origin. B is added from A's app the way the browser
 * does it (a non-extractable WebCrypto key, DPoP proofs, a WebSocket ticket), through B's real
 * CLI, REST and /acp with the real simulator child.
 */
describe('two machines', () => {
  let a: HubHarness;
  let b: HubHarness;
  let home: string;
  let bPort: number;
  let key: DpopKey;
  let link: URLSearchParams;
  let token: string;
  let tokenId: string;
  let socket: AcpWsClient;
  let sessionId: string;
  beforeAll(async () => {
    [a, b] = await Promise.all([startHub({ config: { name: 'laptop' } }), startHub({ config: { name: 'desktop' } })]);
    home = `http://localhost:${new URL(a.url).port}`;
    bPort = Number(new URL(b.url).port);
    key = await DpopKey.generate();
  });
  afterAll(async () => {
    await socket?.close().catch(() => undefined);
    await Promise.all([a?.close(), b?.close()]);
  });
  const bHost = () => `127.0.0.1:${bPort}`;
  /** A request to B from A's app: Origin of A, the bound token with a fresh proof. */
  const fromApp = async (method: string, path: string, body?: unknown): Promise<RawResponse> =>
    rawRequest(bPort, {
      method,
      path,
      headers: {
        host: bHost(),
        origin: home,
        ...(await key.headers(method, `http://${bHost()}${path.split('?')[0]}`, token)),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("`zcode-hub pair --into <A>` on B makes A a peer and prints the add link for A's app", async () => {
    expect(home).not.toBe(new URL(b.url).origin);
    const run = capture({ ZCODE_HUB_STATE_DIR: b.stateDir });
    expect(await runPairCli(['--into', home, '--json'], run.io)).toBe(0);
    const out = JSON.parse(run.out.stdout) as { link: string; code: string; hubId: string; peerAdded: boolean };
    registerSecret(out.code);
    expect(out.peerAdded).toBe(true);
    // Both ends are loopback: no warning.
    expect(run.out.stderr).toBe('');
    expect(out.link.startsWith(`${home}/#add=`)).toBe(true);
    link = new URLSearchParams(new URL(out.link).hash.slice(1));
    const bMe = (await (await b.api('/api/me')).json()) as { hubId: string };
    expect(Object.fromEntries(link)).toEqual({ add: out.code, hub: b.url, name: 'desktop', scope: 'operate', id: bMe.hubId });
    const peers = (await (await b.api('/api/peers')).json()) as { peers: Array<{ origin: string; via: string }> };
    expect(peers.peers).toEqual([expect.objectContaining({ origin: home, via: 'pair' })]);

    const human = capture({ ZCODE_HUB_STATE_DIR: b.stateDir });
    expect(await runPairCli(['--into', 'https://home.example.test', '--no-qr'], human.io)).toBe(0);
    expect(human.out.stdout).toMatch(/Added https:\/\/home\.example\.test to this hub's peers/);
    expect(human.out.stdout).toMatch(/Open on the phone: https:\/\/home\.example\.test\/#add=/);
    expect(human.out.stderr).toMatch(/loopback address/);
    expect(await runPairCli(['--into', home, '--scope', 'admin'], capture({ ZCODE_HUB_STATE_DIR: b.stateDir }).io)).toBe(2);
    await runPeersCli(['remove', 'https://home.example.test'], capture({ ZCODE_HUB_STATE_DIR: b.stateDir }).io);
  });

  it("A's app records B as a machine; A's CSP then lets its pages connect to B", async () => {
    const appToken = await a.token('operate', 'home app');
    const put = await a.api(`/api/machines/${link.get('id')}`, {
      token: appToken,
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: link.get('hub'), name: link.get('name') }),
    });
    expect(put.status).toBe(201);
    const csp = (await fetch(`${a.url}/api/health`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`connect-src 'self' ${new URL(b.url).origin} ws://${bHost()};`);
  });

  it("A's app pairs with B cross-origin: the token is bound to its key", async () => {
    const res = await rawRequest(bPort, {
      method: 'POST',
      path: '/api/pair',
      headers: {
        host: bHost(),
        origin: home,
        'content-type': 'application/json',
        dpop: await key.proof('POST', `${link.get('hub')}/api/pair`),
      },
      body: JSON.stringify({ code: link.get('add'), name: 'Pixel 9', delivery: 'token' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(home);
    const body = JSON.parse(res.body) as { token: string; tokenId: string; hubId: string; hubName: string; bound: boolean; scope: string };
    registerSecret(body.token);
    expect(body).toMatchObject({ hubId: link.get('id'), hubName: 'desktop', bound: true, scope: 'operate' });
    token = body.token;
    tokenId = body.tokenId;
    // Stolen without the key, the token is useless.
    const bare = await rawRequest(bPort, { path: '/api/me', headers: { host: bHost(), origin: home, authorization: `Bearer ${token}` } });
    expect(bare.status).toBe(401);
  });

  it("streams a prompt on B over /acp opened with a ticket, and lists B's sessions", async () => {
    const t = await fromApp('POST', '/api/ws-ticket');
    expect(t.status).toBe(200);
    const { ticket } = JSON.parse(t.body) as { ticket: string };
    registerSecret(ticket);
    socket = await AcpWsClient.connect(b.wsUrl, { query: { ticket }, headers: { origin: home } });
    const init = await socket.initialize({ name: 'home app' });
    expect((init._meta as { zcode: { hub: { hubId: string; name: string } } }).zcode.hub).toMatchObject({
      hubId: link.get('id'),
      name: 'desktop',
    });
    ({ sessionId } = await socket.request<{ sessionId: string }>('session/new', { cwd: b.workspace, mcpServers: [] }));
    const list = await fromApp('GET', '/api/sessions');
    expect(list.status).toBe(200);
    expect((JSON.parse(list.body) as { sessions: Array<{ sessionId: string }> }).sessions.map((s) => s.sessionId)).toContain(sessionId);
    // The ticket was spent by the upgrade.
    await expect(AcpWsClient.connect(b.wsUrl, { query: { ticket }, headers: { origin: home } })).rejects.toMatchObject({ status: 401 });
  });

  it("answers B's permission from A's app; B's audit names the device", async () => {
    const turn = socket.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'permission please' }],
    });
    await socket.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    const inbox = await fromApp('GET', `/api/interactions?sessionId=${sessionId}`);
    const [pending] = (JSON.parse(inbox.body) as { interactions: Array<{ interactionId: string }> }).interactions;
    expect(pending).toBeDefined();
    const answer = await fromApp('POST', `/api/interactions/${pending?.interactionId}/answer`, { optionId: 'allow_once' });
    expect(answer.status).toBe(200);
    expect((await turn).stopReason).toBe('end_turn');
    expect(socket.notifications('session/update').length).toBeGreaterThan(0);
    const audit = (await (await b.api('/api/audit')).json()) as {
      entries: Array<{ action: string; who: { name: string; tokenId: string }; sessionId?: string }>;
    };
    const acts = audit.entries.filter((e) => e.sessionId === sessionId).map((e) => [e.action, e.who.name]);
    expect(acts).toContainEqual(['prompt', 'Pixel 9']);
    expect(acts).toContainEqual(['answer', 'Pixel 9']);
  });

  it('revoked on B: its socket closes 4401 and every request is 401', async () => {
    expect((await b.api(`/api/tokens/${tokenId}`, { method: 'DELETE' })).status).toBe(200);
    expect((await socket.closed).code).toBe(4401);
    const me = await fromApp('GET', '/api/me');
    expect(me.status).toBe(401);
    expect(JSON.parse(me.body).error.code).toBe('HUB_ERR_UNAUTHENTICATED');
  });

  it("A removed from B's peers: B refuses A's app — CORS, requests and pairing", async () => {
    const run = capture({ ZCODE_HUB_STATE_DIR: b.stateDir });
    expect(await runPeersCli(['remove', home], run.io)).toBe(0);
    const health = await rawRequest(bPort, { path: '/api/health', headers: { host: bHost(), origin: home } });
    expect(health.status).toBe(403);
    expect(health.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await rawRequest(bPort, {
      method: 'OPTIONS',
      path: '/api/pair',
      headers: {
        host: bHost(),
        origin: home,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, dpop',
      },
    });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const code = (
      (await (
        await b.api('/api/pair/codes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"scope":"operate"}' })
      ).json()) as { code: string }
    ).code;
    registerSecret(code);
    const pair = await rawRequest(bPort, {
      method: 'POST',
      path: '/api/pair',
      headers: { host: bHost(), origin: home, 'content-type': 'application/json', dpop: await key.proof('POST', `${b.url}/api/pair`) },
      body: JSON.stringify({ code, delivery: 'token' }),
    });
    expect(pair.status).toBe(403);
    expect(JSON.parse(pair.body).error.code).toBe('HUB_ERR_ORIGIN');
    // A itself is unaffected.
    expect((await a.api('/api/me')).status).toBe(200);
  });
});
