/**
 * The web app asks for the pending interactions (`_zcode/interactions/list`) once per connection:
 * the handshake loads them after the session list (HubClient onOpen), and the backend state every
 * connection is told at its start does not ask again; a backend that comes back ready after a
 * restart does (it may hold prompts again). A real HubClient against a scripted hub on a real
 * socket: the test decides when each answer comes, and counts the requests in the order the
 * socket carried them — no timing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { HubClient } from '../../web/src/hub/hub-client.js';
import { ScriptedHub, type Frame } from '../helpers/scripted-hub.js';
import { until } from '../helpers/until.js';
import { stubPageGlobals } from '../helpers/page-globals.js';

let hub: ScriptedHub;
let client: HubClient;

beforeEach(async () => {
  hub = new ScriptedHub();
  await until(() => (hub.server.address() ? true : undefined), 'the server listening');
  stubPageGlobals();
  store.update((s) => ({ ...s, chats: {}, sessions: {}, toasts: [], interactions: {} }));
  client = new HubClient(hub.url);
});
afterEach(async () => {
  client.conn.stop();
  vi.unstubAllGlobals();
  await hub.close();
});

const answer = (req: Frame, result: unknown) => hub.send({ jsonrpc: '2.0', id: req.id, result });
const backendState = (state: string) =>
  hub.send({ jsonrpc: '2.0', method: '_zcode/backend_state', params: { state, epoch: 'e1', restarts: 0 } });
const inboxRequests = () => hub.frames.filter((f) => f.method === '_zcode/interactions/list').length;

/**
 * Makes the client send one more request and waits for it: every request it sent before is in
 * `hub.frames` by then (one socket, in order).
 */
async function drained(skip: number): Promise<void> {
  const listed = client.refreshSessions();
  answer(await hub.request('session/list', skip), { sessions: [] });
  await listed;
}

/** Connects as the hub does it: initialize's answer, then the backend state every connection is told. */
async function connect(attempt: number): Promise<void> {
  answer(await hub.request('initialize', attempt), { protocolVersion: 1 });
  backendState('ready');
  answer(await hub.request('session/list', attempt * 2), { sessions: [] });
  answer(await hub.request('_zcode/interactions/list', attempt), { interactions: [] });
  await until(() => (client.conn.status === 'online' ? true : undefined), 'online');
}

describe('the pending interactions, once per connection', () => {
  it('a connect asks once; a reconnect once more; a backend back from a restart once more', async () => {
    client.start();
    await connect(0);
    await drained(1);
    expect(inboxRequests()).toBe(1);

    hub.socket.terminate();
    await connect(1);
    await drained(3);
    expect(inboxRequests()).toBe(2);

    // The backend restarts while the link stays up: ready again means prompts may wait again.
    backendState('restarting');
    backendState('ready');
    answer(await hub.request('_zcode/interactions/list', 2), { interactions: [] });
    await drained(4);
    expect(inboxRequests()).toBe(3);
  });
});
