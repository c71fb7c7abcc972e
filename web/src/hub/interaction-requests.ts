/**
 * Interaction requests the hub sends this device (`session/request_permission`,
 * `elicitation/create` forms) and the answers it sends back, live or over REST when the live
 * copy is gone (ARCHITECTURE.md §4.5).
 */
import { t } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { RpcError } from '../net/rpc-connection.js';
import { RestError } from '../net/rest.js';
import { rec, str } from '../wire.js';
import { store, toast } from './app-state.js';
import type { HubClient } from './hub-client.js';
import { fromElicitation, fromPermissionRequest, mergeInteraction, restBody, rpcResult, type Answer } from './interactions.js';
import { notSentWhy } from './not-sent.js';
import { answerChoice } from './answer-choice.js';
import { partialAnswersOf } from './question-steps.js';
import { ZCODE_REQUEST } from '../../../src/zcode-ext/methods.js';

/** A request the hub sent us for an interaction (a permission, or a form), held in the store until answered; anything else is refused. */
export function holdInteractionRequest(client: HubClient, id: string | number, method: string, params: unknown): void {
  const p =
    method === 'session/request_permission'
      ? fromPermissionRequest(id, params)
      : method === 'elicitation/create' && rec(params)?.['mode'] === 'form'
        ? fromElicitation(id, params)
        : undefined;
  if (method === 'elicitation/create' && !p) {
    client.conn.respond(id, { action: 'decline' });
    return;
  }
  if (!p) {
    client.conn.respondError(id, -32601, `Method not found: ${method}`);
    return;
  }
  const now = Date.now();
  store.update((s) => ({
    ...s,
    interactions: {
      ...s.interactions,
      [p.interactionId]: mergeInteraction(s.interactions[p.interactionId], client.tag({ ...p, createdAt: p.createdAt ?? now })),
    },
  }));
}

/** Answers an interaction: over the live request when we hold one, else over REST (ARCHITECTURE.md §4.5); a 409 names who answered first. */
export async function answerInteraction(client: HubClient, interactionId: string, answer: Answer): Promise<void> {
  let i = store.get().interactions[interactionId];
  if (!i) return;
  // The live request went with a socket that dropped: answered into the new one it would be lost.
  if (i.rpc && client.conn.status !== 'online') {
    // A second tap while the first waits: one answer goes, and no "withdrawn" for the second.
    if (store.get().answersWaiting[interactionId]) return;
    // The sheet says which answer waits, and for what, until it goes or is refused.
    const waiting = { ...(client.hubId !== undefined ? { hubId: client.hubId } : {}), choice: answerChoice(i, answer) };
    store.update((s) => ({ ...s, answersWaiting: { ...s.answersWaiting, [interactionId]: waiting } }));
    const asked = await stillAsked(client, interactionId).finally(() =>
      store.update((s) => {
        const { [interactionId]: _gone, ...answersWaiting } = s.answersWaiting;
        return { ...s, answersWaiting };
      }),
    );
    i = store.get().interactions[interactionId];
    if (!asked || !i) return;
  }
  client.answeredHere.add(interactionId);
  if (i.rpc) {
    client.conn.respond(i.rpc.id, rpcResult(i.rpc.method, answer));
    client.forget(interactionId);
    return;
  }
  try {
    await client.api(`/interactions/${encodeURIComponent(interactionId)}/answer`, { method: 'POST', body: restBody(answer) });
    client.forget(interactionId);
  } catch (err) {
    const details = err instanceof RestError ? rec(rec(rec(err.body)?.['error'])?.['details']) : undefined;
    if (err instanceof RestError && err.status === 409 && details?.['reason'] !== 'already_voted') {
      const by = str(rec(details?.['resolvedBy'])?.['name']);
      toast(by ? t('answeredBy', by) : t('answeredElsewhere'), `ix:${interactionId}`);
      client.forget(interactionId);
      return;
    }
    client.answeredHere.delete(interactionId);
    // A refusal by the rules (not eligible, voted already) says why, as `_zcode/answer_refused` does.
    if (err instanceof RestError && str(details?.['reason']) !== undefined) toast(t('answerRefused', err.message), `ix:${interactionId}`);
    else toast(err instanceof RpcError || err instanceof RestError ? err.message : t('sendFailed'));
  }
}

/** Sets the answers the hub keeps for a question (its reply, `_zcode/interaction_progress`). */
export function keepPartialAnswers(interactionId: string, partial: unknown): void {
  const partialAnswers = partialAnswersOf(partial);
  if (!partialAnswers) return;
  store.update((s) => {
    const held = s.interactions[interactionId];
    return held ? { ...s, interactions: { ...s.interactions, [interactionId]: { ...held, partialAnswers } } } : s;
  });
}

/**
 * One card of a multi-question question answered: the hub keeps it (`_zcode/partial_answer`,
 * CLIENT-PROTOCOL "Partial answers"), so a reload or another device continues at the next card;
 * the last card's answer answers the whole question there.
 */
export async function answerOneQuestion(
  client: HubClient,
  interactionId: string,
  questionIndex: number,
  answer: string | string[],
  last: boolean,
): Promise<void> {
  if (client.conn.status !== 'online' && !(await stillAsked(client, interactionId))) return;
  // The hub withdraws this device's own copy when the last card settles it: not "answered elsewhere".
  if (last) client.answeredHere.add(interactionId);
  try {
    const res = await client.conn.call(ZCODE_REQUEST.partialAnswer, { interactionId, questionIndex, answer });
    const view = rec(res.interaction);
    if (view?.['state'] === 'pending') keepPartialAnswers(interactionId, view['partialAnswers']);
  } catch (err) {
    client.answeredHere.delete(interactionId);
    toast(
      err instanceof RpcError ? t('answerRefused', err.message) : (notSentWhy('answer', err) ?? t('sendFailed')),
      `ix:${interactionId}`,
    );
  }
}

/**
 * An answer given while the link reconnects waits for it (HubClient.whenOnline), then goes only
 * if the request is still asked: the reconnect drops the live requests of the old socket, and the
 * load of each session on screen asks again the ones still pending. One not asked again was
 * answered elsewhere or withdrawn meanwhile, and an answer sent blindly could settle what the user
 * never saw. False, with the sentence shown, when the answer must not go.
 */
async function stillAsked(client: HubClient, interactionId: string): Promise<boolean> {
  const held = store.get().interactions[interactionId];
  try {
    await client.whenOnline(WEB_LIMITS.waitOnlineMs);
  } catch (err) {
    toast(notSentWhy('answer', err) ?? t('answerNotSent'), `ix:${interactionId}`);
    return false;
  }
  if (store.get().interactions[interactionId]) return true;
  // The reconnect's load marked the card with who answered it, when the hub knows (a person, not a rule).
  const card = held?.toolCallId
    ? store.get().chats[held.sessionId]?.items.find((it) => it.kind === 'tool' && it.toolCallId === held.toolCallId)
    : undefined;
  const by = card?.kind === 'tool' && !card.byRule ? card.answeredBy : undefined;
  toast(by ? t('answerWithdrawnBy', by) : t('answerWithdrawn'), `ix:${interactionId}`);
  return false;
}
