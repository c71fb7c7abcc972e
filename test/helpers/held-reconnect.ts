/**
 * A web `HubClient` (web/src/hub/hub-client.ts) against a ScriptedHub, brought to the moment the
 * reconnect tests need: connected, one chat loaded, the socket dropped, and the reconnect's
 * handshake answered up to that chat's `session/load`, which is held (as a hub whose backend is
 * still starting holds it) — the link is `connecting` until the test answers it. No timing: the
 * test decides when each answer comes.
 */
import { expect, vi } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { HubClient } from '../../web/src/hub/hub-client.js';
import { ScriptedHub, type Frame } from './scripted-hub.js';
import { until } from './until.js';
import { stubPageGlobals } from './page-globals.js';

export const SID = 'sess_held';
/** The hub's list, with the chat in it. */
export const LISTED = { sessions: [{ sessionId: SID, cwd: '/w', title: 'held', updatedAt: new Date(0).toISOString() }] };
/** A `session/load` answer: a fresh start from the replay (the hub restarted, or a first load). */
export const freshLoad = (seq: number, epoch: string, replayed: number) => ({
  _meta: { zcode: { seq, epoch, replayMeta: { recovered: false, replayed, hasMore: false } } },
});

export interface Held {
  hub: ScriptedHub;
  client: HubClient;
  answer(req: Frame, result: unknown): void;
  /** Sends `params` as a notification of `method` from the hub. */
  notify(method: string, params: unknown): void;
  /**
   * Connects, loads the chat (`beforeLoad` runs before the first load's answer: what the hub
   * sends with it), drops the socket and answers the reconnect up to the chat's load, which is
   * held and returned — or, with `hold` 'initialize', holds the reconnect's first request.
   */
  reconnectHeld(beforeLoad?: () => void, hold?: 'initialize' | 'session/load'): Promise<Frame>;
  /** Answers the held `initialize` and the list after it; returns the chat's load, held. */
  initialized(init: Frame): Promise<Frame>;
  /**
   * Drops the link (as a hub going down does) and returns the `initialize` of its next attempt,
   * held: the link went offline and its reconnect loop tried again by itself.
   */
  dropAgain(): Promise<Frame>;
  close(): Promise<void>;
}

/** A prompt sent from the page on `SID`: `sent` settles either way; `failed()` is what it was refused with, once it was. */
export function promptFrom(client: HubClient, text: string): { sent: Promise<void>; failed: () => unknown } {
  let failed: unknown;
  const sent = client.prompt(SID, text, []).catch((err: unknown) => {
    failed = err;
  });
  return { sent, failed: () => failed };
}

/** `initialize` is answered `initAnswer` (the hub's handshake: who this device is, with `_meta.zcode.identity`). */
export async function heldClient(initAnswer: unknown = { protocolVersion: 1 }): Promise<Held> {
  const hub = new ScriptedHub();
  await until(() => (hub.server.address() ? true : undefined), 'the server listening');
  stubPageGlobals();
  store.update((s) => ({ ...s, chats: {}, sessions: {}, toasts: [], interactions: {}, waitingPrompts: {}, me: undefined }));
  const client = new HubClient(hub.url);
  const answer = (req: Frame, result: unknown) => hub.send({ jsonrpc: '2.0', id: req.id, result });
  const notify = (method: string, params: unknown) => hub.send({ jsonrpc: '2.0', method, params });
  /** How many requests of `method` the client sent so far (each one before now was answered, or let go). */
  const sent = (method: string) => hub.frames.filter((f) => f.method === method && f.id !== undefined).length;
  const initialized = async (init: Frame) => {
    const [lists, loads] = [sent('session/list'), sent('session/load')];
    answer(init, initAnswer);
    answer(await hub.request('session/list', lists), LISTED);
    const load = await hub.request('session/load', loads);
    expect(client.conn.status).toBe('connecting');
    return load;
  };
  return {
    hub,
    client,
    answer,
    notify,
    initialized,
    async dropAgain() {
      const inits = sent('initialize');
      hub.socket.terminate();
      return hub.request('initialize', inits);
    },
    async reconnectHeld(beforeLoad, hold = 'session/load') {
      client.start();
      answer(await hub.request('initialize'), initAnswer);
      answer(await hub.request('session/list'), LISTED);
      answer(await hub.request('_zcode/interactions/list'), { interactions: [] });
      await until(() => (client.conn.status === 'online' ? true : undefined), 'online');
      const attached = client.attach(SID);
      const first = await hub.request('session/load');
      beforeLoad?.();
      answer(first, freshLoad(2, 'e1', 0));
      await attached;
      // The chat is on screen from here, as on the phone whose prompt waits for it: every
      // reconnect loads it, also after an attempt whose load a drop cut off.
      client.setShownSessions(() => [SID]);
      hub.socket.terminate();
      const init = await hub.request('initialize', 1);
      return hold === 'initialize' ? init : initialized(init);
    },
    async close() {
      client.conn.stop();
      vi.unstubAllGlobals();
      await hub.close();
    },
  };
}
