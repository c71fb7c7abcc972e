/**
 * Hub → app notifications (CLIENT-PROTOCOL "Notifications"): session updates, turn and session
 * state, presence, interaction lifecycle and backend state, applied to the store.
 */
import { approvalInMeta, readRuleDecision } from './approval-wire.js';
import { authorText } from './author-text.js';
import { t } from '../i18n.js';
import { fields, num, rec, str, type Fields } from '../wire.js';
import { setMachine, store, toast, updateChat } from './app-state.js';
import { applySessionUpdate, markAnswered, parseTurnState } from './chat-reducer.js';
import type { HubClient } from './hub-client.js';
import { cancelledRequestId, fromView, mergeInteraction } from './interactions.js';
import { keepPartialAnswers } from './interaction-requests.js';
import { applySessionState } from './session-list.js';
import { dropSession } from './session-gone.js';
import { presenceDevices } from './presence.js';
import { ZCODE_NOTIFICATION } from '../../../src/zcode-ext/methods.js';
import type { HubNotification, HubNotificationParams } from '../net/hub-methods.js';

/** Applies one notification's params (read leniently: each value is checked where it is read). */
type Handler<M extends HubNotification> = (client: HubClient, p: Fields<HubNotificationParams[M]>, params: unknown, method: M) => void;

/** Applies one notification from the hub. Unknown methods are ignored (forward compatibility). */
export function handleNotification(client: HubClient, method: string, params: unknown): void {
  if (isHandled(method)) dispatch(client, method, params);
}

function isHandled(method: string): method is HubNotification {
  return Object.hasOwn(HANDLERS, method);
}

function dispatch<M extends HubNotification>(client: HubClient, method: M, params: unknown): void {
  HANDLERS[method](client, fields<HubNotificationParams[M]>(params) ?? {}, params, method);
}

/** A session's update, or the seq of the hub's echo of this device's own prompt: applied to its chat. */
const sessionUpdate: Handler<'session/update' | typeof ZCODE_NOTIFICATION.ownUpdate> = (client, p, params, method) => {
  const sessionId = str(p.sessionId);
  if (!sessionId) return;
  const buffer = client.attaching.get(sessionId);
  if (buffer) buffer.push({ method, params });
  else updateChat(sessionId, (c) => applySessionUpdate(c, params));
  // A new tally on a card: the request it asks shows it too.
  const update = rec(p.update);
  const approval = approvalInMeta(update);
  if (approval) {
    const toolCallId = str(update?.['toolCallId']);
    store.update((s) => {
      const held = Object.values(s.interactions).find((i) => i.sessionId === sessionId && i.toolCallId === toolCallId);
      return held ? { ...s, interactions: { ...s.interactions, [held.interactionId]: { ...held, approval } } } : s;
    });
  }
};

/** One handler per notification method the app acts on. */
const HANDLERS: { readonly [M in HubNotification]: Handler<M> } = {
  'session/update': sessionUpdate,
  [ZCODE_NOTIFICATION.ownUpdate]: sessionUpdate,

  [ZCODE_NOTIFICATION.turnState]: (client, p, params, method) => {
    const sessionId = str(p.sessionId);
    if (!sessionId) return;
    const turn = parseTurnState(params);
    // Sent right before the load result: kept in order with the replay, or the first attach
    // after a reload (no chat held yet) would lose the Stop button and the queue.
    const buffer = client.attaching.get(sessionId);
    if (buffer) buffer.push({ method, params });
    else updateChat(sessionId, (c) => ({ ...c, turn }));
    store.update((s) => {
      const prev = s.sessions[sessionId];
      const next = applySessionState(prev, { sessionId, state: turn.state }, Date.now());
      return next ? { ...s, sessions: { ...s.sessions, [sessionId]: client.tag(next) } } : s;
    });
  },

  [ZCODE_NOTIFICATION.sessionState]: (client, p, params) => {
    const sessionId = str(p.sessionId);
    if (!sessionId) return;
    const before = store.get().sessions[sessionId]?.pendingInteractions ?? 0;
    store.update((s) => {
      const next = applySessionState(s.sessions[sessionId], params, Date.now());
      return next ? { ...s, sessions: { ...s.sessions, [sessionId]: client.tag(next) } } : s;
    });
    const title = str(p.title);
    if (title) updateChat(sessionId, (c) => (c.title === title ? c : { ...c, title }));
    const after = store.get().sessions[sessionId]?.pendingInteractions ?? 0;
    if (after !== before && !client.isAttached(sessionId)) client.scheduleInbox();
  },

  [ZCODE_NOTIFICATION.sessionDeleted]: (client, p) => {
    // Deleted here or on another device: gone from the list, the inbox and any page showing it.
    const sessionId = str(p.sessionId);
    if (!sessionId) return;
    dropSession(client, sessionId, client.deletingHere.has(sessionId) ? undefined : { by: authorText(p.deletedBy) });
  },

  [ZCODE_NOTIFICATION.presence]: (_client, p) => {
    const sessionId = str(p.sessionId);
    if (!sessionId) return;
    const clients = presenceDevices(p.clients);
    store.update((s) => ({ ...s, presence: { ...s.presence, [sessionId]: clients } }));
  },

  [ZCODE_NOTIFICATION.interactionOpened]: (client, p) => {
    const parsed = fromView(p.interaction);
    if (!parsed) return;
    const view = client.tag(parsed);
    store.update((s) => ({
      ...s,
      interactions: { ...s.interactions, [view.interactionId]: mergeInteraction(s.interactions[view.interactionId], view) },
    }));
  },

  [ZCODE_NOTIFICATION.interactionResolved]: (client, p) => {
    const interactionId = str(p.interactionId);
    if (!interactionId) return;
    const held = store.get().interactions[interactionId];
    const by = authorText(p.resolvedBy);
    const mine = client.answeredHere.has(interactionId);
    client.answeredHere.delete(interactionId);
    // The card the interaction was about says who answered it.
    const card = held?.toolCallId ? { sessionId: held.sessionId, toolCallId: held.toolCallId } : client.recentCards.get(interactionId);
    // A rule or an "always allow" grant settled it with no one asked: the card shows the hub's words.
    const byRule = readRuleDecision(p.rule) !== undefined || rec(p.grant) !== undefined;
    if (by && card && str(p.state) === 'resolved') updateChat(card.sessionId, (c) => markAnswered(c, card.toolCallId, by, byRule));
    if (held || store.get().activeInteraction === interactionId || wasWithdrawn.has(interactionId)) {
      wasWithdrawn.delete(interactionId);
      if (!mine) toast(resolvedText(str(p.state), by), `ix:${interactionId}`);
    }
    client.forget(interactionId);
  },

  '$/cancel_request': (client, _p, params) => {
    // Another device answered first: drop our copy and tell the hub it is dismissed.
    const id = cancelledRequestId(params);
    if (id === undefined) return;
    const held = Object.values(store.get().interactions).find((i) => i.rpc && String(i.rpc.id) === String(id));
    if (!held?.rpc) return;
    client.conn.respond(
      held.rpc.id,
      held.rpc.method === 'session/request_permission' ? { outcome: { outcome: 'cancelled' } } : { action: 'cancel' },
    );
    // The hub withdraws the copies of a settled request just before it tells every attached device
    // how it was settled (`_zcode/interaction_resolved`): that notice alone says it, naming who —
    // a toast here too showed "Answered on another device" and, the same second, "Answered by …".
    if (!client.answeredHere.has(held.interactionId)) wasWithdrawn.add(held.interactionId);
    client.forget(held.interactionId);
  },

  [ZCODE_NOTIFICATION.interactionProgress]: (_client, p) => {
    // Another card of a question was answered (here or on another device): continue from there.
    const interactionId = str(p.interactionId);
    if (interactionId) keepPartialAnswers(interactionId, p.partialAnswers);
  },

  [ZCODE_NOTIFICATION.answerRefused]: (client, p) => {
    // Our answer did not count (a rule, a second vote, too late): say why instead of dropping it.
    const interactionId = str(p.interactionId);
    const message = str(p.message);
    if (!interactionId || !message) return;
    client.answeredHere.delete(interactionId);
    toast(t('answerRefused', message), `ix:${interactionId}`);
  },

  [ZCODE_NOTIFICATION.backendState]: (client, p) => {
    const state = str(p.state) ?? 'ready';
    const nextRetryMs = num(p.nextRetryMs);
    // Each hub has its own agent: another machine's state is that machine's (its pill reads it),
    // never the home hub's (it kept "starting" from the handshake while the home pill took B's state).
    if (client.hubId !== undefined) setMachine(client.hubId, (m) => ({ ...m, backend: state }));
    else store.update((s) => ({ ...s, backend: { state, ...(nextRetryMs !== undefined ? { nextRetryMs } : {}) } }));
    // A backend that came back may hold prompts again: reload what waits. The state every
    // connection is told at its start is not such a change, and the handshake loads the pending
    // list itself (HubClient onOpen): reloading here too asked for it twice on every connect.
    const before = backendStates.get(client);
    backendStates.set(client, state);
    if (state === 'ready' && before !== undefined && before !== 'ready') void client.refreshInbox();
  },
};

/** The backend state each hub link last announced (each machine's hub has its own backend). */
const backendStates = new WeakMap<HubClient, string>();

/** Interactions withdrawn by `$/cancel_request`, waiting for the resolved notice naming the winner. */
const wasWithdrawn = new Set<string>();

function resolvedText(state: string | undefined, by: string | undefined): string {
  if (state === 'cancelled') return t('interactionCancelled');
  if (state === 'lost') return t('interactionLost');
  if (state === 'expired') return t('interactionExpired');
  return by ? t('answeredBy', by) : t('answeredElsewhere');
}
