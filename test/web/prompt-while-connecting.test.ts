/**
 * A prompt sent while the web app's link is down but reconnecting (web/src/hub/prompt-send.ts,
 * web/src/hub/waiting-prompts.ts, HubClient.whenOnline): the link is `connecting` until its
 * handshake — `session/list` and the `session/load` of the chat on screen — has answered, and
 * `offline` between reconnect attempts while the hub is down. The prompt shows at once, marked as
 * waiting for the connection but kept out of the chat the load rebuilds, and goes once the link
 * is online — however many attempts that takes, within WEB_LIMITS.waitOnlineMs; refused at the
 * first failed attempt, a prompt sent while a hub restarted was lost. A link that will not come
 * back by itself (its token revoked, stopped) refuses it at once, saying why. A real HubClient
 * against a scripted hub on a real socket, so the test decides when each answer comes: no timing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { promptNotSent } from '../../web/src/hub/prompt-send.js';
import { promptWaitsOn, takeBackPrompt } from '../../web/src/hub/waiting-prompts.js';
import { t } from '../../web/src/i18n.js';
import { LinkGone, TakenBack } from '../../web/src/net/online-wait.js';
import { ConnectionLost } from '../../web/src/net/rpc-connection.js';
import { CLOSE } from '../../src/gateway/close-codes.js';
import type { Frame } from '../helpers/scripted-hub.js';
import { freshLoad, heldClient, promptFrom, SID, type Held } from '../helpers/held-reconnect.js';
import { until } from '../helpers/until.js';

let h: Held;

beforeEach(async () => {
  h = await heldClient();
});
afterEach(async () => {
  await h.close();
});

const prompt = (text: string) => promptFrom(h.client, text);

const userTexts = () => store.get().chats[SID]?.items.flatMap((it) => (it.kind === 'user' ? [it.text] : []));
const prompts = () => h.hub.frames.filter((f) => f.method === 'session/prompt');
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

  it('keeps waiting while the hub stays down through several attempts, and goes once, when a later attempt is online', async () => {
    await h.reconnectHeld();
    const p = prompt('through the restart');
    // The hub goes down: this attempt fails, and so does the next one (the link offline between them).
    await h.dropAgain();
    const init = await h.dropAgain();
    expect(p.failed()).toBeUndefined();
    expect(waitingTexts()).toEqual(['through the restart']);
    expect(prompts()).toEqual([]);
    // Back: this attempt's handshake answers, and the prompt goes after the chat's load.
    const load = await h.initialized(init);
    expect(prompts()).toEqual([]);
    h.answer(load, freshLoad(4, 'e2', 0));
    const sent = await until(() => p.failed() ?? prompts()[0], 'the prompt sent, or refused');
    expect(p.failed()).toBeUndefined();
    expect(sent).toMatchObject({ params: { sessionId: SID, prompt: [{ type: 'text', text: 'through the restart' }] } });
    expect(userTexts()).toEqual(['through the restart']);
    expect(waitingTexts()).toEqual([]);
    // Answered, with the hub's echo before it: still one bubble, and one prompt sent.
    h.notify('session/update', {
      sessionId: SID,
      update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'through the restart' } },
      _meta: { zcode: { seq: 5, epoch: 'e2', promptId: 'p1' } },
    });
    h.answer(sent as Frame, { stopReason: 'end_turn' });
    await p.sent;
    expect(p.failed()).toBeUndefined();
    expect(userTexts()).toEqual(['through the restart']);
    expect(prompts()).toHaveLength(1);
  });

  it('sent while the link is offline between two attempts, shows at once marked waiting', async () => {
    await h.reconnectHeld();
    let p: ReturnType<typeof prompt> | undefined;
    let sentAt: string | undefined;
    // Sent the moment the link says offline (the store tells its listeners as it changes).
    const off = store.subscribe(() => {
      if (sentAt !== undefined || store.get().conn.status !== 'offline') return;
      sentAt = store.get().conn.status;
      p = prompt('while offline');
    });
    const init = await h.dropAgain();
    off();
    expect(sentAt).toBe('offline');
    expect(p?.failed()).toBeUndefined();
    expect(waitingTexts()).toEqual(['while offline']);
    h.answer(await h.initialized(init), freshLoad(4, 'e2', 0));
    await until(() => prompts()[0], 'the prompt sent');
    expect(userTexts()).toEqual(['while offline']);
  });

  it('is refused at once, saying access was revoked, when the hub refuses the token: not "offline"', async () => {
    await h.reconnectHeld();
    const p = prompt('revoked meanwhile');
    h.hub.socket.close(CLOSE.UNAUTHENTICATED, 'unauthenticated');
    await p.sent;
    expect(p.failed()).toBeInstanceOf(LinkGone);
    expect(promptNotSent(p.failed())).toBe(t('revokedNotSent'));
    expect(waitingTexts()).toEqual([]);
    // A link that will not come back by itself keeps nothing waiting: a prompt now is refused at once, unshown.
    const now = prompt('after it');
    await now.sent;
    expect((now.failed() as LinkGone).why).toBe('revoked');
    expect(waitingTexts()).toEqual([]);
    expect(prompts()).toEqual([]);
  });

  it('is refused when the link is closed for good (signed out, the machine removed)', async () => {
    await h.reconnectHeld();
    const p = prompt('closing');
    h.client.conn.stop();
    await p.sent;
    expect((p.failed() as LinkGone).why).toBe('closed');
    expect(promptNotSent(p.failed())).toBe(t('closedNotSent'));
    expect(waitingTexts()).toEqual([]);
  });

  it('already sent when the link is closed for good, settles at once: no wait for an answer, no error (the turn runs on at the hub)', async () => {
    const load = await h.reconnectHeld();
    h.answer(load, freshLoad(4, 'e1', 0));
    await until(() => (h.client.conn.status === 'online' ? true : undefined), 'online');
    const p = prompt('in flight');
    await h.hub.request('session/prompt');
    h.client.conn.stop();
    await p.sent;
    expect(p.failed()).toBeUndefined();
    const items = store.get().chats[SID]?.items ?? [];
    expect(items.filter((it) => it.kind === 'user').map((it) => [it.text, it.localId])).toEqual([['in flight', undefined]]);
    expect(items.filter((it) => it.kind === 'notice')).toEqual([]);
  });

  it('can be taken back while it waits: no longer shown, no sentence, and never sent once the link is back', async () => {
    await h.reconnectHeld();
    const p = prompt('second thoughts');
    const kept = prompt('this one goes');
    const [waiting] = store.get().waitingPrompts[SID] ?? [];
    takeBackPrompt(waiting?.localId ?? '');
    await p.sent;
    expect(p.failed()).toBeInstanceOf(TakenBack);
    expect(promptNotSent(p.failed())).toBeUndefined();
    expect(waitingTexts()).toEqual(['this one goes']);
    h.answer(await h.initialized(await h.dropAgain()), freshLoad(4, 'e2', 0));
    await until(() => prompts()[0], 'the prompt kept sent');
    expect(kept.failed()).toBeUndefined();
    expect(prompts().map((f) => (f.params as { prompt: Array<{ text: string }> }).prompt[0]?.text)).toEqual(['this one goes']);
    expect(userTexts()).toEqual(['this one goes']);
  });

  it('waits no longer than its bound, refused then as offline, and not at all on a link never started', async () => {
    await expect(h.client.whenOnline(60_000)).rejects.toBeInstanceOf(LinkGone);
    await h.reconnectHeld();
    // The handshake is never answered here: only the bound can end the wait.
    const late = await h.client.whenOnline(1).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ConnectionLost);
    expect(promptNotSent(late)).toBe(t('offlineNotSent'));
    expect(h.client.conn.status).toBe('connecting');
  });
});
