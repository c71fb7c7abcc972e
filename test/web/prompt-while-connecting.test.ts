/**
 * A prompt sent while the web app's link reconnects (web/src/hub/prompt-send.ts,
 * HubClient.whenOnline, web/src/net/online-wait.ts): the link is `connecting` until its
 * handshake — `session/list` and the `session/load` of the chat on screen — has answered, and a
 * prompt sent meanwhile goes once the link is online instead of being refused as offline.
 * Refused, it was lost from the chat: its text only went back to the box with an "offline"
 * toast, so its bubble never showed (the browser test machines.test.ts "stop B" met it while B's
 * backend was still starting). A real HubClient against a scripted hub on a real socket, so the
 * test decides when each answer comes: no timing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsSocket } from 'ws';
import { store } from '../../web/src/hub/app-state.js';
import { HubClient } from '../../web/src/hub/hub-client.js';
import { ConnectionLost } from '../../web/src/net/rpc-connection.js';
import { ScriptedHub, type Frame } from '../helpers/scripted-hub.js';
import { until } from '../helpers/until.js';

const SID = 'sess_held';
/** The hub's list, with the chat in it. */
const LISTED = { sessions: [{ sessionId: SID, cwd: '/w', title: 'held', updatedAt: new Date(0).toISOString() }] };
/** A `session/load` answer: a fresh start from the replay (the hub restarted, or a first load). */
const freshLoad = (seq: number, epoch: string, replayed: number) => ({
  _meta: { zcode: { seq, epoch, replayMeta: { recovered: false, replayed, hasMore: false } } },
});

let hub: ScriptedHub;
let client: HubClient;

beforeEach(async () => {
  hub = new ScriptedHub();
  await until(() => (hub.server.address() ? true : undefined), 'the server listening');
  // What a page has and Node 20 lacks: the browser's WebSocket, the user agent deviceLabel
  // reads, and the version the build puts into initialize (web/vite.config.ts `define`).
  vi.stubGlobal('WebSocket', WsSocket);
  vi.stubGlobal('navigator', { userAgent: 'test' });
  vi.stubGlobal('__APP_VERSION__', '0.0.0-test');
  store.update((s) => ({ ...s, chats: {}, sessions: {}, toasts: [] }));
  client = new HubClient(hub.url);
});
afterEach(async () => {
  client.conn.stop();
  vi.unstubAllGlobals();
  await hub.close();
});

function answer(req: Frame, result: unknown): void {
  hub.send({ jsonrpc: '2.0', id: req.id, result });
}

/**
 * Connects, loads the chat, then drops the socket: the reconnect's handshake is answered up to
 * the chat's `session/load`, which is held (as a hub whose backend is still starting holds it).
 */
async function reconnectHeld(): Promise<Frame> {
  client.start();
  answer(await hub.request('initialize'), { protocolVersion: 1 });
  answer(await hub.request('session/list'), LISTED);
  answer(await hub.request('_zcode/interactions/list'), { interactions: [] });
  await until(() => (client.conn.status === 'online' ? true : undefined), 'online');
  const attached = client.attach(SID);
  answer(await hub.request('session/load'), freshLoad(2, 'e1', 0));
  await attached;
  hub.socket.terminate();
  answer(await hub.request('initialize', 1), { protocolVersion: 1 });
  answer(await hub.request('session/list', 1), LISTED);
  const load = await hub.request('session/load', 1);
  expect(client.conn.status).toBe('connecting');
  return load;
}

/** Sends a prompt; `failed()` is what it was refused with, once it was. */
function prompt(text: string): { sent: Promise<void>; failed: () => unknown } {
  let failed: unknown;
  const sent = client.prompt(SID, text, []).catch((err: unknown) => {
    failed = err;
  });
  return { sent, failed: () => failed };
}

const userTexts = () => store.get().chats[SID]?.items.flatMap((it) => (it.kind === 'user' ? [it.text] : []));

describe('a prompt sent while the link reconnects', () => {
  it('goes once the list and the chat’s load have answered, its bubble after the replayed history', async () => {
    const load = await reconnectHeld();
    const p = prompt('and once more');
    hub.send({
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: SID,
        update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'asked before' } },
        _meta: { zcode: { replay: true } },
      },
    });
    // Not recovered (the hub restarted): the load starts the chat afresh from its replay.
    answer(load, freshLoad(4, 'e2', 1));
    const sent = await until(() => p.failed() ?? hub.frames.find((f) => f.method === 'session/prompt'), 'the prompt sent, or refused');
    answer(await hub.request('_zcode/interactions/list', 1), { interactions: [] });
    expect(p.failed()).toBeUndefined();
    expect(sent).toMatchObject({ params: { sessionId: SID, prompt: [{ type: 'text', text: 'and once more' }] } });
    expect(userTexts()).toEqual(['asked before', 'and once more']);
    answer(sent as Frame, { stopReason: 'end_turn' });
    await p.sent;
    expect(p.failed()).toBeUndefined();
    expect(userTexts()).toEqual(['asked before', 'and once more']);
  });

  it('is refused as offline when the socket drops before the handshake ends, and nothing is sent', async () => {
    await reconnectHeld();
    const p = prompt('lost link');
    hub.socket.terminate();
    await p.sent;
    expect(p.failed()).toBeInstanceOf(ConnectionLost);
    expect(hub.frames.filter((f) => f.method === 'session/prompt')).toEqual([]);
    expect(userTexts()).toEqual([]);
  });

  it('waits no longer than its bound, and not at all on a link that is not connecting', async () => {
    await expect(client.whenOnline(60_000)).rejects.toBeInstanceOf(ConnectionLost);
    await reconnectHeld();
    // The handshake is never answered here: only the bound can end the wait.
    await expect(client.whenOnline(1)).rejects.toBeInstanceOf(ConnectionLost);
    expect(client.conn.status).toBe('connecting');
  });
});
