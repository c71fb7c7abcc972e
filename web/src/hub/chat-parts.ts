/** Small builders shared by the chat reducers (chat-reducer.ts, local-prompts.ts). Pure. */
import { WEB_LIMITS } from '../limits.js';
import { rec, str } from '../wire.js';
import type { ChatItem, ChatState } from './chat-types.js';

/** Text of a content block as shown in a bubble; images are counted by the caller. */
export function blockText(block: unknown): string {
  const b = rec(block);
  if (!b) return '';
  switch (str(b['type'])) {
    case 'text':
      return str(b['text']) ?? '';
    case 'resource_link':
      return `[${str(b['name']) ?? str(b['uri']) ?? ''}](${str(b['uri']) ?? ''})`;
    case 'resource':
      return str(rec(b['resource'])?.['text']) ?? '';
    default:
      return '';
  }
}

/** The `src` of an image block (a data URL or its uri), or undefined. */
export function imageOf(block: unknown): string | undefined {
  const b = rec(block);
  if (b?.['type'] !== 'image') return undefined;
  const data = str(b['data']);
  const mime = str(b['mimeType']) ?? 'image/png';
  if (data) return `data:${mime};base64,${data}`;
  return str(b['uri']);
}

/** Replaces the items, dropping the oldest past WEB_LIMITS.chatMaxItems (they stay loadable). */
export function withItems(chat: ChatState, items: ChatItem[]): ChatState {
  const over = items.length - WEB_LIMITS.chatMaxItems;
  return { ...chat, items: over > 0 ? items.slice(over) : items, history: over > 0 ? { ...chat.history, hasMore: true } : chat.history };
}

/** A fresh item id (stable keys for rendering). */
export function nextId(chat: ChatState): [string, ChatState] {
  return [`i${chat.nextId}`, { ...chat, nextId: chat.nextId + 1 }];
}

/** The last index where `pred` holds, or -1. */
export function findLastIndex<T>(list: readonly T[], pred: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (pred(list[i] as T)) return i;
  return -1;
}
