import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPeersCli } from '../../src/cli/peers.js';
import { CLOSE } from '../../src/gateway/close-codes.js';
import { AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Issue 18: a peer removed on machine B is noticed at once. `zcode-hub peers remove <origin>` (the
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
