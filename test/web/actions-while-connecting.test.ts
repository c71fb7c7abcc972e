/**
 * Stop, answering a card and changing a setting while the web app's link reconnects
 * (web/src/hub/turn-stop.ts, interaction-requests.ts, HubClient.setConfig): each waits for the
 * link to come online — through every failed attempt while the hub is down, as a prompt does
 * (prompt-while-connecting.test.ts) — then goes only if it
 * still makes sense once the reconnect's load has said how the chat stands — a Stop for a turn
 * that ended meanwhile, or an answer to a request withdrawn meanwhile, does not go blindly — and
 * says so in a sentence when it cannot go. A real HubClient against a scripted hub on a real
 * socket: the test decides when each answer comes, no timing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { store } from '../../web/src/hub/app-state.js';
import { t } from '../../web/src/i18n.js';
import { notSentWhy } from '../../web/src/hub/not-sent.js';
import { LinkGone, TakenBack } from '../../web/src/net/online-wait.js';
import { CLOSE } from '../../src/gateway/close-codes.js';
import { ZCODE_NOTIFICATION, ZCODE_REQUEST } from '../../src/zcode-ext/methods.js';
import { freshLoad, heldClient, SID, type Held } from '../helpers/held-reconnect.js';
import { permissionAsk } from '../helpers/scripted-hub.js';
import { until } from '../helpers/until.js';

let h: Held;

beforeEach(async () => {
  h = await heldClient();
});
afterEach(async () => {
  await h.close();
});

const running = (turnId: string) => ({ sessionId: SID, state: 'running', turnId, queue: [] });
const idle = { sessionId: SID, state: 'idle', queue: [] };
const framesOf = (method: string) => h.hub.frames.filter((f) => f.method === method);
const toasts = () => store.get().toasts.map((x) => x.text);
/** Settles `p`, keeping what it resolved or rejected with. */
function settled<T>(p: Promise<T>): () => { value?: T; error?: unknown } | undefined {
  let out: { value?: T; error?: unknown } | undefined;
  p.then(
    (value) => (out = { value }),
    (error: unknown) => (out = { error }),
  );
  return () => out;
}
/**
 * What the client sent before now: a frame it sends now reaches the hub after every earlier
 * one (one socket), so once the hub has it, anything sent before is there too.
 */
const sentBeforeNow = async (method: string) => {
  h.client.conn.notify('session/cancel', { sessionId: 'marker' });
  const marker = await until(() => {
    const i = h.hub.frames.findIndex((f) => f.method === 'session/cancel' && (f.params as { sessionId: string }).sessionId === 'marker');
    return i === -1 ? undefined : i + 1;
  }, 'the marker');
  return h.hub.frames.slice(0, marker - 1).filter((f) => f.method === method);
};
/** Answers the held load (after `before`, what the hub sends right ahead of it) and the inbox after it. */
async function loadAnswered(load: Parameters<Held['answer']>[0], before: () => void): Promise<void> {
  before();
  h.answer(load, freshLoad(4, 'e2', 0));
  h.answer(await h.hub.request('_zcode/interactions/list', 1), { interactions: [] });
  await until(() => (h.client.conn.status === 'online' ? true : undefined), 'online');
}

describe('Stop pressed while the link reconnects', () => {
  it('goes once online when the turn it was pressed for still runs', async () => {
    const load = await h.reconnectHeld(() => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    const stop = settled(h.client.cancel(SID));
    expect(framesOf('session/cancel')).toEqual([]);
    await loadAnswered(load, () => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    await until(() => stop(), 'Stop settled');
    expect(stop()).toEqual({ value: 'sent' });
    await until(() => framesOf('session/cancel')[0], 'session/cancel sent');
    expect(framesOf('session/cancel')[0]?.params).toEqual({ sessionId: SID });
  });

  it('does not go when that turn ended meanwhile, or another began', async () => {
    const load = await h.reconnectHeld(() => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    const stop = settled(h.client.cancel(SID));
    // Another device's prompt runs now: a Stop sent now would end it, not the one pressed for.
    await loadAnswered(load, () => h.notify(ZCODE_NOTIFICATION.turnState, running('t2')));
    await until(() => stop(), 'Stop settled');
    expect(stop()).toEqual({ value: 'ended' });
    const again = settled(h.client.cancel(SID));
    await until(() => again(), 'the second Stop settled');
    // Online, the turn on screen (t2) is stopped as the user sees it.
    expect(again()).toEqual({ value: 'sent' });
    expect(framesOf('session/cancel')).toHaveLength(1);
  });

  it('does not go when the turn went idle meanwhile', async () => {
    const load = await h.reconnectHeld(() => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    const stop = settled(h.client.cancel(SID));
    await loadAnswered(load, () => h.notify(ZCODE_NOTIFICATION.turnState, idle));
    await until(() => stop(), 'Stop settled');
    expect(stop()).toEqual({ value: 'ended' });
    expect(framesOf('session/cancel')).toEqual([]);
  });

  it('waits while the hub stays down, and goes once a later attempt is online and the turn still runs', async () => {
    await h.reconnectHeld(() => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    const stop = settled(h.client.cancel(SID));
    const init = await h.dropAgain();
    expect(stop()).toBeUndefined();
    expect(framesOf('session/cancel')).toEqual([]);
    await loadAnswered(await h.initialized(init), () => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    await until(() => stop(), 'Stop settled');
    expect(stop()).toEqual({ value: 'sent' });
    await until(() => framesOf('session/cancel')[0], 'session/cancel sent');
    expect(framesOf('session/cancel')).toHaveLength(1);
  });

  it('takes back the prompts of this device waiting in that session: they never go, Stop does', async () => {
    const load = await h.reconnectHeld(() => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    const queued = settled(h.client.prompt(SID, 'after this one', []));
    expect(store.get().waitingPrompts[SID]?.map((p) => p.text)).toEqual(['after this one']);
    const stop = settled(h.client.cancel(SID));
    await until(() => queued(), 'the waiting prompt settled');
    expect(queued()?.error).toBeInstanceOf(TakenBack);
    expect(store.get().waitingPrompts[SID]).toBeUndefined();
    await loadAnswered(load, () => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    await until(() => stop(), 'Stop settled');
    expect(stop()).toEqual({ value: 'sent' });
    expect(await sentBeforeNow('session/prompt')).toEqual([]);
    expect(framesOf('session/cancel').filter((f) => (f.params as { sessionId: string }).sessionId === SID)).toHaveLength(1);
  });

  it('is refused, never dropped silently, when the link will not come back by itself', async () => {
    await h.reconnectHeld(() => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    const stop = settled(h.client.cancel(SID));
    h.hub.socket.close(CLOSE.UNAUTHENTICATED, 'unauthenticated');
    await until(() => stop(), 'Stop settled');
    expect(stop()?.error).toBeInstanceOf(LinkGone);
    // It says why: the token, not "not connected" (which a wait would heal).
    expect(notSentWhy('stop', stop()?.error)).toBe(t('stopRevokedNotSent'));
    expect(framesOf('session/cancel')).toEqual([]);
  });

  it('says the link was closed when it is stopped while Stop waits (signed out, the machine removed)', async () => {
    await h.reconnectHeld(() => h.notify(ZCODE_NOTIFICATION.turnState, running('t1')));
    const stop = settled(h.client.cancel(SID));
    h.client.conn.stop();
    await until(() => stop(), 'Stop settled');
    expect(notSentWhy('stop', stop()?.error)).toBe(t('stopClosedNotSent'));
    expect(framesOf('session/cancel')).toEqual([]);
  });
});

describe('a card answered while the link reconnects', () => {
  const ask = (id: string) => h.hub.send(permissionAsk(id, SID, 'ix1'));
  const answers = () => h.hub.frames.filter((f) => f.method === undefined && f.result !== undefined);
  /**
   * The card is on screen until the new socket's handshake drops the old socket's live requests
   * (onOpen, once `initialize` answers): it is answered while that is held.
   */
  const answeredWhileReconnecting = async () => {
    const init = await h.reconnectHeld(() => ask('p1'), 'initialize');
    expect(store.get().interactions['ix1']).toBeDefined();
    const sent = settled(h.client.answer('ix1', { kind: 'option', optionId: 'allow' }));
    expect(answers()).toEqual([]);
    // The sheet can say which answer waits for the link (the option's words).
    expect(store.get().answersWaiting['ix1']).toEqual({ choice: 'Allow' });
    return { init, sent };
  };

  it('goes once online, over the request the reconnect asked again', async () => {
    const { init, sent } = await answeredWhileReconnecting();
    await loadAnswered(await h.initialized(init), () => ask('p2'));
    await until(() => sent(), 'the answer settled');
    expect(answers()).toEqual([{ jsonrpc: '2.0', id: 'p2', result: { outcome: { outcome: 'selected', optionId: 'allow' } } }]);
    expect(store.get().interactions['ix1']).toBeUndefined();
    expect(store.get().answersWaiting).toEqual({});
  });

  it('goes once when tapped twice while waiting, with no "withdrawn" for the second tap', async () => {
    const { init, sent } = await answeredWhileReconnecting();
    const again = settled(h.client.answer('ix1', { kind: 'option', optionId: 'allow' }));
    await loadAnswered(await h.initialized(init), () => ask('p2'));
    await until(() => sent() && again(), 'both answers settled');
    expect(answers().map((f) => f.id)).toEqual(['p2']);
    expect(toasts()).toEqual([]);
  });

  it('does not go when the request was not asked again (answered elsewhere or withdrawn), and says so', async () => {
    const { init, sent } = await answeredWhileReconnecting();
    await loadAnswered(await h.initialized(init), () => undefined);
    await until(() => sent(), 'the answer settled');
    expect(answers()).toEqual([]);
    expect(toasts()).toContain(t('answerWithdrawn'));
    expect(store.get().answersWaiting).toEqual({});
  });

  it('names who answered when the reconnect’s load says so', async () => {
    const { init, sent } = await answeredWhileReconnecting();
    // The replay marks the card with the hub's verified author of the answer (Cid, while this phone was away).
    const answeredBy = { name: 'cid · Cid phone', person: 'cid', device: 'Cid phone', tokenId: 'tok-cid', clientId: 'c3' };
    const card = { sessionUpdate: 'tool_call', toolCallId: 'tc1', title: 'Run ls', status: 'completed', _meta: { zcode: { answeredBy } } };
    await loadAnswered(await h.initialized(init), () => h.notify('session/update', { sessionId: SID, update: card }));
    await until(() => sent(), 'the answer settled');
    expect(answers()).toEqual([]);
    expect(toasts()).toEqual([t('answerWithdrawnBy', 'cid · Cid phone')]);
  });

  it('waits while the hub stays down, then goes over the request a later reconnect asked again', async () => {
    const { init, sent } = await answeredWhileReconnecting();
    h.answer(init, { protocolVersion: 1 });
    const again = await h.dropAgain();
    expect(sent()).toBeUndefined();
    await loadAnswered(await h.initialized(again), () => ask('p3'));
    await until(() => sent(), 'the answer settled');
    expect(answers()).toEqual([{ jsonrpc: '2.0', id: 'p3', result: { outcome: { outcome: 'selected', optionId: 'allow' } } }]);
    expect(toasts()).toEqual([]);
  });

  it('does not go when the link will not come back by itself, and says so', async () => {
    const { sent } = await answeredWhileReconnecting();
    h.hub.socket.close(CLOSE.UNAUTHENTICATED, 'unauthenticated');
    await until(() => sent(), 'the answer settled');
    expect(answers()).toEqual([]);
    expect(toasts()).toEqual([t('answerRevokedNotSent')]);
  });

  it('says the hub refused this app when it drops the app’s origin meanwhile', async () => {
    const { sent } = await answeredWhileReconnecting();
    h.hub.socket.close(CLOSE.ORIGIN_NOT_ALLOWED, 'origin not allowed');
    await until(() => sent(), 'the answer settled');
    expect(answers()).toEqual([]);
    expect(toasts()).toEqual([t('answerRefusedNotSent')]);
  });
});

describe('a question card answered while the link reconnects', () => {
  const askQuestion = (id: string) =>
    h.hub.send({
      jsonrpc: '2.0',
      id,
      method: 'elicitation/create',
      params: {
        sessionId: SID,
        mode: 'form',
        message: 'Which one?',
        requestedSchema: { type: 'object', properties: { q_0: { type: 'string', title: 'Which one?', enum: ['a', 'b'] } } },
        _meta: { zcode: { interactionId: 'ix2', kind: 'question' } },
      },
    });

  it('keeps its card’s answer until online, then sends it while the question is still asked', async () => {
    const init = await h.reconnectHeld(() => askQuestion('q1'), 'initialize');
    expect(store.get().interactions['ix2']).toBeDefined();
    const sent = settled(h.client.answerQuestion('ix2', 0, 'a', false));
    expect(await sentBeforeNow(ZCODE_REQUEST.partialAnswer)).toEqual([]);
    await loadAnswered(await h.initialized(init), () => askQuestion('q2'));
    const req = await h.hub.request(ZCODE_REQUEST.partialAnswer);
    expect(req.params).toEqual({ interactionId: 'ix2', questionIndex: 0, answer: 'a' });
    h.answer(req, { interaction: { state: 'pending', partialAnswers: [] } });
    await until(() => sent(), 'the answer settled');
    expect(toasts()).toEqual([]);
  });

  it('does not send it when the question was not asked again, and says so', async () => {
    const init = await h.reconnectHeld(() => askQuestion('q1'), 'initialize');
    const sent = settled(h.client.answerQuestion('ix2', 0, 'a', false));
    await loadAnswered(await h.initialized(init), () => undefined);
    await until(() => sent(), 'the answer settled');
    expect(framesOf(ZCODE_REQUEST.partialAnswer)).toEqual([]);
    expect(toasts()).toContain(t('answerWithdrawn'));
  });
});

describe('a setting changed while the link reconnects', () => {
  const model = (currentValue: string) => [
    {
      id: 'model',
      name: 'Model',
      type: 'select',
      currentValue,
      options: [
        { value: 'small', name: 'Small' },
        { value: 'large', name: 'Large' },
      ],
    },
  ];
  const shownModel = () => store.get().chats[SID]?.configOptions.find((o) => o.id === 'model');

  it('goes after the load, so the load does not undo it on screen', async () => {
    const load = await h.reconnectHeld();
    const set = settled(h.client.setConfig(SID, 'model', 'large'));
    expect(await sentBeforeNow('session/set_config_option')).toEqual([]);
    h.answer(load, { ...freshLoad(4, 'e2', 0), configOptions: model('small') });
    const req = await h.hub.request('session/set_config_option');
    expect(req.params).toEqual({ sessionId: SID, configId: 'model', value: 'large' });
    h.answer(req, { configOptions: model('large') });
    await until(() => set(), 'the setting settled');
    expect(set()).toEqual({ value: undefined });
    expect(shownModel()).toMatchObject({ currentValue: 'large' });
  });

  it('waits while the hub stays down, and goes after a later attempt’s load', async () => {
    await h.reconnectHeld();
    const set = settled(h.client.setConfig(SID, 'model', 'large'));
    const init = await h.dropAgain();
    expect(set()).toBeUndefined();
    expect(framesOf('session/set_config_option')).toEqual([]);
    h.answer(await h.initialized(init), { ...freshLoad(4, 'e2', 0), configOptions: model('small') });
    const req = await h.hub.request('session/set_config_option');
    h.answer(req, { configOptions: model('large') });
    await until(() => set(), 'the setting settled');
    expect(set()).toEqual({ value: undefined });
    expect(shownModel()).toMatchObject({ currentValue: 'large' });
  });

  it('is refused when the link will not come back by itself', async () => {
    await h.reconnectHeld();
    const set = settled(h.client.setConfig(SID, 'model', 'large'));
    expect(await sentBeforeNow('session/set_config_option')).toEqual([]);
    h.hub.socket.close(CLOSE.UNAUTHENTICATED, 'unauthenticated');
    await until(() => set(), 'the setting settled');
    expect(set()?.error).toBeInstanceOf(LinkGone);
    expect(notSentWhy('setting', set()?.error)).toBe(t('settingRevokedNotChanged'));
    expect(framesOf('session/set_config_option')).toEqual([]);
  });
});
