/**
 * A turn that did not end normally (docs/CLIENT-PROTOCOL.md "Failed and interrupted turns"): the
 * hub journals a `session_info_update` whose `_meta.zcode.turnEnded = {outcome: failed |
 * interrupted, promptId?, error: {message}}`. The chat shows it as an error line under what was
 * said so far, with a Retry that sends the same prompt again. Pure.
 */
import { rec, str, zmeta, type Rec } from '../wire.js';
import { findLastIndex, nextId, withItems } from './chat-parts.js';
import type { ChatState, NoticeItem, RetryPrompt, UserItem } from './chat-types.js';

/** `_meta.zcode.turnEnded` of an update body, when it carries one. */
export function turnEndedOf(u: Rec): { outcome: 'failed' | 'interrupted'; promptId?: string; message: string } | undefined {
  const ended = rec(zmeta(u)['turnEnded']);
  if (!ended) return undefined;
  const outcome = ended['outcome'] === 'interrupted' ? 'interrupted' : 'failed';
  return { outcome, promptId: str(ended['promptId']), message: str(rec(ended['error'])?.['message']) ?? '' };
}

/** The prompt to send again: the bubble with `promptId`, else the last prompt shown. */
function retryOf(chat: ChatState, promptId: string | undefined): RetryPrompt | undefined {
  const byId = promptId === undefined ? -1 : findLastIndex(chat.items, (it) => it.kind === 'user' && it.promptId === promptId);
  const idx = byId !== -1 ? byId : findLastIndex(chat.items, (it) => it.kind === 'user');
  if (idx === -1) return undefined;
  const user = chat.items[idx] as UserItem;
  const images = user.images.flatMap((src) => {
    const m = /^data:([^;,]+);base64,(.*)$/.exec(src);
    return m?.[1] && m[2] ? [{ mimeType: m[1], data: m[2] }] : [];
  });
  return user.text || images.length ? { text: user.text, images } : undefined;
}

/** Adds the error line of a failed or interrupted turn (with its Retry). */
export function applyTurnEnded(chat: ChatState, ended: NonNullable<ReturnType<typeof turnEndedOf>>): ChatState {
  const [id, next] = nextId(chat);
  const retry = retryOf(chat, ended.promptId);
  const item: NoticeItem = { kind: 'notice', id, text: ended.message, level: 'error', outcome: ended.outcome, ...(retry ? { retry } : {}) };
  return withItems(next, [...next.items, item]);
}
