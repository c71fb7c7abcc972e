/**
 * Prompts sent from this device (ARCHITECTURE.md §4.4). On an idle session the bubble shows at once
 * (optimistic). While a turn runs the hub queues the prompt: it waits in the chat's outbox (the
 * queue chip shows it) and its bubble joins the chat only when its own turn starts — told by
 * `_zcode/own_update`, or after a reconnect by the echo itself. Added earlier, the bubble would
 * land in the middle of the answer still streaming. Pure: unit-tested in test/web.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { blockText, findLastIndex, imageOf, nextId, withItems } from './chat-parts.js';
import type { ChatState, UserItem } from './chat-types.js';

/** Adds a prompt sent from this device: a bubble when idle, else a place in the outbox. */
export function addLocalPrompt(chat: ChatState, localId: string, blocks: ContentBlock[]): ChatState {
  const text = blocks.map(blockText).join('');
  const images = blocks.map(imageOf).filter((i): i is string => !!i);
  const busy = chat.turn.state !== 'idle' || chat.turn.queue.length > 0 || chat.outbox.length > 0;
  if (busy) return { ...chat, outbox: [...chat.outbox, { localId, text, images }] };
  const [id, next] = nextId(chat);
  return withItems(next, [...chat.items, { kind: 'user', id, text, images, localId, own: true }]);
}

/**
 * Our prompt `promptId` starts its turn (`_zcode/own_update`): the oldest outbox prompt becomes
 * a bubble at the end of the chat, or — sent while idle — the optimistic bubble learns its id.
 */
export function ownPromptStarted(chat: ChatState, promptId: string): ChatState {
  if (chat.items.some((it) => it.kind === 'user' && it.promptId === promptId)) return chat;
  const [head, ...rest] = chat.outbox;
  if (head) {
    const [id, next] = nextId(chat);
    const item: UserItem = { kind: 'user', id, text: head.text, images: head.images, localId: head.localId, own: true, promptId };
    return withItems({ ...next, outbox: rest }, [...next.items, item]);
  }
  const idx = findLastIndex(
    chat.items,
    (it) => it.kind === 'user' && it.own === true && it.localId !== undefined && it.promptId === undefined,
  );
  if (idx === -1) return chat;
  const items = chat.items.slice();
  items[idx] = { ...(items[idx] as UserItem), promptId };
  return { ...chat, items };
}

/**
 * The echo of a prompt (`user_message_chunk` with `_meta.zcode.promptId`): true when it is one
 * of ours already shown, or claims the outbox head it matches (our own_update went to a
 * connection of ours that has since dropped). Undefined: not ours, show it as usual.
 */
export function claimEcho(chat: ChatState, promptId: string, text: string): ChatState | undefined {
  if (chat.items.some((it) => it.kind === 'user' && it.own === true && it.promptId === promptId)) return chat;
  const head = chat.outbox[0];
  if (head && text !== '' && head.text === text) return ownPromptStarted(chat, promptId);
  return undefined;
}

/**
 * The prompt `localId` was answered: its bubble is no longer pending. One that never left the
 * outbox (stopped while queued, or refused) goes without a bubble. `error` adds a notice.
 */
export function settleLocalPrompt(chat: ChatState, localId: string, error?: string): ChatState {
  let next: ChatState = chat.outbox.some((o) => o.localId === localId)
    ? { ...chat, outbox: chat.outbox.filter((o) => o.localId !== localId) }
    : chat;
  const idx = next.items.findIndex((it) => it.kind === 'user' && it.localId === localId);
  if (idx !== -1) {
    const items = next.items.slice();
    items[idx] = { ...(items[idx] as UserItem), localId: undefined };
    next = { ...next, items };
  }
  if (!error) return next;
  const [id, n] = nextId(next);
  return withItems(n, [...next.items, { kind: 'notice', id, text: error, level: 'error' }]);
}

/**
 * The prompt `localId` was refused and never ran (an error answer naming no `promptId`: nothing is
 * journaled for it): its bubble or outbox place goes, as the prompt box takes its text back.
 */
export function withdrawLocalPrompt(chat: ChatState, localId: string): ChatState {
  const outbox = chat.outbox.filter((o) => o.localId !== localId);
  const items = chat.items.filter((it) => !(it.kind === 'user' && it.localId === localId));
  if (outbox.length === chat.outbox.length && items.length === chat.items.length) return chat;
  return { ...chat, outbox, items };
}

/** A queue preview's words (the hub joins blocks with spaces, an image as `[image]`): for matching only. */
const words = (text: string): string =>
  text
    .replace(/\[image\]/g, ' ')
    .replace(/…$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Which of the hub's queued prompts (`_zcode/turn_state` `queue`) are this page's outbox prompts,
 * by promptId → localId: the entries this connection (`clientId`) queued, in order, each matched to
 * the next outbox prompt in send order whose text begins with the entry's preview. One that does
 * not match gets no place (nothing to take back from here). Pure.
 */
export function ownQueued(
  queue: ChatState['turn']['queue'],
  outbox: ChatState['outbox'],
  clientId: string | undefined,
): Map<string, string> {
  const own = new Map<string, string>();
  if (clientId === undefined) return own;
  let next = 0;
  for (const q of queue) {
    if (q.clientId !== clientId) continue;
    const o = outbox[next];
    if (!o || !words(o.text).startsWith(words(q.preview ?? ''))) break;
    own.set(q.promptId, o.localId);
    next += 1;
  }
  return own;
}
