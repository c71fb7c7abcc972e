/**
 * A prompt sent while the web app's link reconnects (web/src/hub/prompt-send.ts,
 * web/src/hub/waiting-prompts.ts, HubClient.whenOnline): the link is `connecting` until its
 * handshake — `session/list` and the `session/load` of the chat on screen — has answered. The
 * prompt shows at once, marked as waiting for the connection but kept out of the chat the load
 * rebuilds, and goes once the link is online; refused, it was lost from the chat (its text only
 * went back to the box with an "offline" toast, so its bubble never showed: the browser test
 * machines.test.ts "stop B" met it while B's backend was still starting). A real HubClient against
 * a scripted hub on a real socket, so the test decides when each answer comes: no timing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { promptWaitsOn } from '../../web/src/hub/waiting-prompts.js';
import { ConnectionLost } from '../../web/src/net/rpc-connection.js';
import type { Frame } from '../helpers/scripted-hub.js';
import { freshLoad, heldClient, SID, type Held } from '../helpers/held-reconnect.js';
import { until } from '../helpers/until.js';

let h: Held;

beforeEach(async () => {
  h = await heldClient();
});
afterEach(async () => {
  await h.close();
});

/** Sends a prompt; `failed()` is what it was refused with, once it was. */
function prompt(text: string): { sent: Promise<void>; failed: () => unknown } {
  let failed: unknown;
  const sent = h.client.prompt(SID, text, []).catch((err: unknown) => {
    failed = err;
  });
  return { sent, failed: () => failed };
}

const userTexts = () => store.get().chats[SID]?.items.flatMap((it) => (it.kind === 'user' ? [it.text] : []));
const waitingTexts = () => (store.get().waitingPrompts[SID] ?? []).map((p) => p.text);

describe('a prompt sent while the link reconnects', () => {
  it('shows at once marked waiting, goes once the load has answered, and shows once: after the replay, echo and all', async () => {
    const load = await h.reconnectHeld();
    const p = prompt('and once more');
    // Shown at once, waiting, while nothing has gone to the hub; the home hub's pill knows it waits (not another machine's).
    expect(waitingTexts()).toEqual(['and once more']);
    expect([promptWaitsOn(store.get(), undefined), promptWaitsOn(store.get(), 'another-hub')]).toEqual([true, false]);
    expect(h.hub.frames.filter((f) => f.method === 'session/prompt')).toEqual([]);
    h.notify('session/update', {
      sessionId: SID,
      update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'asked before' } },
      _meta: { zcode: { replay: true } },
    });
    // Not recovered (the hub restarted): the load starts the chat afresh from its replay.
    h.answer(load, freshLoad(4, 'e2', 1));
    const sent = await until(() => p.failed() ?? h.hub.frames.find((f) => f.method === 'session/prompt'), 'the prompt sent, or refused');
    h.answer(await h.hub.request('_zcode/interactions/list', 1), { interactions: [] });
    expect(p.failed()).toBeUndefined();
    expect(sent).toMatchObject({ params: { sessionId: SID, prompt: [{ type: 'text', text: 'and once more' }] } });
    expect(userTexts()).toEqual(['asked before', 'and once more']);
    expect(waitingTexts()).toEqual([]);
    expect(promptWaitsOn(store.get(), undefined)).toBe(false);
    // The hub's echo of it, as every device gets it: still one bubble.
    h.notify('session/update', {
      sessionId: SID,
      update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'and once more' } },
      _meta: { zcode: { seq: 5, epoch: 'e2', promptId: 'p1' } },
    });
    h.answer(sent as Frame, { stopReason: 'end_turn' });
    await p.sent;
    expect(p.failed()).toBeUndefined();
    expect(userTexts()).toEqual(['asked before', 'and once more']);
  });

  it('is refused as offline when the socket drops before the handshake ends: no longer shown, and nothing is sent', async () => {
    await h.reconnectHeld();
    const p = prompt('lost link');
    expect(waitingTexts()).toEqual(['lost link']);
    h.hub.socket.terminate();
    await p.sent;
    expect(p.failed()).toBeInstanceOf(ConnectionLost);
    expect(h.hub.frames.filter((f) => f.method === 'session/prompt')).toEqual([]);
    expect(userTexts()).toEqual([]);
    expect(waitingTexts()).toEqual([]);
  });

  it('waits no longer than its bound, and not at all on a link that is not connecting', async () => {
    await expect(h.client.whenOnline(60_000)).rejects.toBeInstanceOf(ConnectionLost);
    await h.reconnectHeld();
    // The handshake is never answered here: only the bound can end the wait.
    await expect(h.client.whenOnline(1)).rejects.toBeInstanceOf(ConnectionLost);
    expect(h.client.conn.status).toBe('connecting');
  });
});
