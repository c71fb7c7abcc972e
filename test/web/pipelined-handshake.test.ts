/**
 * The handshake's requests pipelined (HubClient.onOpen; CLIENT-PROTOCOL.md "Connecting"): a hub
 * that serves requests sent behind `initialize` is asked for the session list and the chats on
 * screen with it, not a round trip later; a hub whose handshake does not say so (another machine
 * on an older hub) is asked after its answer, and a home hub that turned out not to pipeline is
 * asked after the answer from its next connect on. A real HubClient against a scripted hub on a
 * real socket: the test decides when each answer comes — no timing.
 */
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { HubClient } from '../../web/src/hub/hub-client.js';
import { api } from '../../web/src/net/rest.js';
import { permissionAsk, ScriptedHub, type Frame } from '../helpers/scripted-hub.js';
import { until } from '../helpers/until.js';
import { stubPageGlobals } from '../helpers/page-globals.js';

const SID = 'sess_shown';
/** What a hub that pipelines answers `initialize` with. */
const PIPELINING = { protocolVersion: 1, agentCapabilities: { _meta: { zcode: { pipelining: true } } } };
/** What an older hub answers. */
const OLDER = { protocolVersion: 1 };

let hub: ScriptedHub;
let client: HubClient | undefined;

beforeEach(async () => {
  hub = new ScriptedHub();
  await until(() => (hub.server.address() ? true : undefined), 'the server listening');
  stubPageGlobals();
  store.update((s) => ({ ...s, chats: {}, sessions: {}, toasts: [], interactions: {} }));
});
afterEach(async () => {
  client?.conn.stop();
  client = undefined;
  vi.unstubAllGlobals();
  await hub.close();
});

const answer = (req: Frame, result: unknown) => hub.send({ jsonrpc: '2.0', id: req.id, result });
/** The methods of the requests the client sent, in the order the socket carried them. */
const sentMethods = () => hub.frames.filter((f) => f.id !== undefined && f.method !== undefined).map((f) => f.method);

/**
 * Waits until everything the client sent so far has reached the hub: a notification sent now
 * arrives after it (one socket, in order).
 */
async function drained(): Promise<void> {
  const from = hub.frames.length;
  client?.conn.notify('session/cancel', { sessionId: 'marker' });
  await until(() => (hub.frames.slice(from).some((f) => f.method === 'session/cancel') ? true : undefined), 'the marker');
}

/** Answers a connect's requests after `initialize` (the list, the shown chat's load, the inbox) and waits until online. */
async function finish(attempt: number): Promise<void> {
  answer(await hub.request('session/list', attempt), { sessions: [] });
  answer(await hub.request('session/load', attempt), { _meta: { zcode: { seq: 0, epoch: 'e1' } } });
  answer(await hub.request('_zcode/interactions/list', attempt), { interactions: [] });
  await until(() => (client?.conn.status === 'online' ? true : undefined), 'online');
}

/** Drops the socket; the reconnect (the second connect) asks for the list and the chat behind initialize, and is answered. */
async function reconnectPipelined(): Promise<void> {
  hub.socket.terminate();
  const again = await hub.request('initialize', 1);
  await hub.request('session/load', 1);
  expect(sentMethods().slice(4)).toEqual(['initialize', 'session/list', 'session/load']);
  answer(again, PIPELINING);
  await finish(1);
}

/** A client showing SID, started. */
function started(machine?: { hubId: string }): HubClient {
  const c = new HubClient(hub.url, machine ? { hubId: machine.hubId, api } : undefined);
  c.setShownSessions(() => [SID]);
  c.start();
  client = c;
  return c;
}

describe('the handshake, pipelined', () => {
  it('the home hub is asked for the list and the shown chat behind initialize, before its answer', async () => {
    started();
    const init = await hub.request('initialize');
    await hub.request('session/load');
    // Both went out while initialize was still unanswered.
    expect(sentMethods()).toEqual(['initialize', 'session/list', 'session/load']);
    answer(init, PIPELINING);
    await finish(0);
    // A reconnect does the same.
    await reconnectPipelined();
  });

  it("another machine's hub is asked after initialize's answer until a handshake said it pipelines", async () => {
    started({ hubId: 'hub_other' });
    const init = await hub.request('initialize');
    // Nothing else goes out before the answer: an older hub refuses it.
    await drained();
    expect(sentMethods()).toEqual(['initialize']);
    answer(init, PIPELINING);
    await finish(0);
    expect(sentMethods()).toEqual(['initialize', 'session/list', 'session/load', '_zcode/interactions/list']);
    // Its handshake said so: the reconnect pipelines.
    await reconnectPipelined();
  });

  it('another machine whose ticket answer said it pipelines is asked behind initialize from its first connect', async () => {
    // A machine's ticket resolver, as registry.ts makes it: its `POST /api/ws-ticket` answer said `pipelining`.
    const c = new HubClient(async () => ({ url: hub.url, pipelining: true }), { hubId: 'hub_other', api });
    c.setShownSessions(() => [SID]);
    client = c;
    c.start();
    const init = await hub.request('initialize');
    await hub.request('session/load');
    expect(sentMethods()).toEqual(['initialize', 'session/list', 'session/load']);
    answer(init, PIPELINING);
    await finish(0);
  });

  it('a home hub whose handshake does not say it pipelines is asked after the answer from the next connect on', async () => {
    started();
    const init = await hub.request('initialize');
    await hub.request('session/load');
    answer(init, OLDER);
    await finish(0);
    hub.socket.terminate();
    const again = await hub.request('initialize', 1);
    await drained();
    expect(sentMethods().slice(4)).toEqual(['initialize']);
    answer(again, OLDER);
    await finish(1);
    expect(sentMethods().slice(4)).toEqual(['initialize', 'session/list', 'session/load', '_zcode/interactions/list']);
  });

  it("a live request that comes in the same read as initialize's answer stays; the old socket's copy goes", async () => {
    const ask = (id: string, interactionId: string) => permissionAsk(id, SID, interactionId);
    started();
    answer(await hub.request('initialize'), PIPELINING);
    await finish(0);
    hub.send(ask('p-old', 'ix-old'));
    await until(() => store.get().interactions['ix-old'], "the first socket's request");
    hub.socket.terminate();
    const again = await hub.request('initialize', 1);
    // The pipelined load's request for another interaction, in the same TCP write as the answer.
    const tcp = (hub.socket as unknown as { _socket: Socket })._socket;
    tcp.cork();
    answer(again, PIPELINING);
    hub.send(ask('p-new', 'ix-new'));
    tcp.uncork();
    await finish(1);
    expect(store.get().interactions['ix-new']?.rpc?.id).toBe('p-new');
    expect(store.get().interactions['ix-old']).toBeUndefined();
  });
});
