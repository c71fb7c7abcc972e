import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPeersCli } from '../../src/cli/peers.js';
import { CLOSE } from '../../src/gateway/close-codes.js';
import { AcpHttpClient } from '../helpers/acp-http-client.js';
import { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';

/**
 * A peer removed on machine B is noticed at once. `zcode-hub peers remove <origin>` (the
 * running daemon's admin REST) closes B's live WebSockets opened from that origin with 4003
 * (`CLOSE.ORIGIN_NOT_ALLOWED`, which the app shows as "not allowed"), not at their next reconnect;
 * sockets from anywhere else stay open.
 */
describe('removing a peer closes its open sockets', () => {
  let b: HubHarness;
  const HOME = 'http://localhost:4173';
  const OTHER = 'http://localhost:4174';
  beforeAll(async () => {
    b = await startHub({ config: { name: 'desktop', peers: [] } });
  });
  afterAll(async () => {
    await b?.close();
  });

  const addPeers = async (...origins: string[]) => {
    for (const origin of origins) {
      const res = await b.api('/api/peers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ origin }),
      });
      expect(res.status).toBe(201);
    }
  };
  const removePeer = (origin: string) =>
    runPeersCli(['remove', `${origin}/`], {
      stdout: { write: () => true },
      stderr: { write: () => true },
      env: { ZCODE_HUB_STATE_DIR: b.stateDir },
    });

  it('closes the removed origin’s Streamable HTTP connections at once too, and they hear nothing after it', async () => {
    await addPeers(HOME, OTHER);
    const token = await b.token('operate', 'http-phone');
    const auth = (origin?: string) => ({ authorization: `Bearer ${token}`, ...(origin ? { origin } : {}) });
    const fromHome = new AcpHttpClient(b.url, auth(HOME));
    await fromHome.initialize('home app');
    expect(await fromHome.openStream()).toBe(200);
    // Opened without an Origin (no browser), then used from the peer's page: bound at that request.
    const laterHome = new AcpHttpClient(b.url, auth());
    await laterHome.initialize('home app, late origin');
    expect(await laterHome.openStream({ origin: HOME })).toBe(200);
    const fromOther = new AcpHttpClient(b.url, auth(OTHER));
    await fromOther.initialize('other app');
    expect(await fromOther.openStream()).toBe(200);
    // A connection is bound to the origin that first used it: another origin cannot borrow it.
    expect((await laterHome.post({ jsonrpc: '2.0', id: 99, method: 'session/list', params: {} }, { origin: OTHER })).status).toBe(404);

    expect(await removePeer(HOME)).toBe(0);
    await until(() => (fromHome.streamEnded && laterHome.streamEnded) || undefined, 'the removed origin’s streams end');
    expect(fromHome.raw).toContain(`: close ${CLOSE.ORIGIN_NOT_ALLOWED}`);
    expect(laterHome.raw).toContain(`: close ${CLOSE.ORIGIN_NOT_ALLOWED}`);
    // A session created after the removal reaches the other origin's stream, never the removed one's.
    const cli = await b.initializedClient({ name: 'terminal' });
    const { sessionId } = await cli.request<{ sessionId: string }>('session/new', { cwd: b.workspace, mcpServers: [] });
    const listed = await fromOther.request<{ sessions: Array<{ sessionId: string }> }>('session/list', {});
    expect(listed.sessions.map((x) => x.sessionId)).toContain(sessionId);
    expect(fromOther.streamEnded).toBe(false);
    expect(JSON.stringify(fromHome.messages)).not.toContain(sessionId);
    // And the removed origin cannot post on its old connection.
    expect((await fromHome.post({ jsonrpc: '2.0', id: 7, method: 'session/list', params: {} })).status).toBe(403);
    // The admin's removal is in the audit log with what it closed.
    const audit = (await (await b.api('/api/audit?limit=500')).json()) as {
      entries: Array<{ action: string; detail?: { origin?: string; closedConnections?: number } }>;
    };
    expect(audit.entries.filter((e) => e.action === 'peer.remove').at(-1)?.detail).toMatchObject({ closedConnections: 2 });
    fromOther.close();
  });

  it('closes the removed origin’s sockets with 4003; other origins and non-browser clients keep theirs', async () => {
    for (const origin of [HOME, OTHER]) {
      const res = await b.api('/api/peers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ origin }),
      });
      expect(res.status).toBe(201);
    }
    const token = await b.token('operate', 'phone');
    const fromHome = await AcpWsClient.connect(b.wsUrl, { token, headers: { origin: HOME } });
    await fromHome.initialize({ name: 'home app' });
    const fromOther = await AcpWsClient.connect(b.wsUrl, { token, headers: { origin: OTHER } });
    await fromOther.initialize({ name: 'other app' });
    const cli = await b.client();
    await cli.initialize({ name: 'terminal' });

    const out = { stdout: '', stderr: '' };
    const io = {
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
      env: { ZCODE_HUB_STATE_DIR: b.stateDir },
    };
    expect(await runPeersCli(['remove', `${HOME}/`], io)).toBe(0);
    expect(await fromHome.closed).toMatchObject({ code: CLOSE.ORIGIN_NOT_ALLOWED });
    expect(CLOSE.ORIGIN_NOT_ALLOWED).toBe(4003);
    // The others are untouched: they still answer.
    expect(await fromOther.request('session/list', {})).toBeDefined();
    expect(await cli.request('session/list', {})).toBeDefined();
    expect(fromOther.closeState).toBeUndefined();
    // And the removed origin cannot come back in.
    await expect(AcpWsClient.connect(b.wsUrl, { token, headers: { origin: HOME } })).rejects.toMatchObject({ status: 403 });
    await fromOther.close();
  });
});
