/**
 * Turn-aligned history paging (ARCHITECTURE.md §4.2): `session/load` with `_meta.zcode.limit`
 * replays a tail of about `limit` messages that starts at a turn boundary (a user message);
 * `_zcode/load_earlier` pages further back with an opaque cursor.
 *
 * Cursor = base64url(JSON `{v:1, sessionId, beforeMessageId}`), validated on decode.
 */
import { z } from 'zod';
import { HubError } from '../errors.js';
import type { MessageWithParts } from './message-schema.js';

/** What a cursor points at: the messages strictly before `beforeMessageId` in `sessionId`. */
export interface HistoryCursor {
  v: 1;
  sessionId: string;
  beforeMessageId: string;
}

const cursorSchema = z.strictObject({
  v: z.literal(1),
  sessionId: z.string().min(1).max(512),
  beforeMessageId: z.string().min(1).max(512),
});

/** Longest cursor string accepted (two 512-char ids, JSON, base64url). */
export const MAX_CURSOR_CHARS = 2_048;

/** One page of history: oldest first, with the cursor for the page before it when there is one. */
export interface HistoryPage {
  messages: MessageWithParts[];
  hasMore: boolean;
  /** Present when `hasMore`: pass to `_zcode/load_earlier`. */
  cursor?: string;
}

/** Encodes a history cursor (opaque to clients). */
export function encodeHistoryCursor(cursor: Omit<HistoryCursor, 'v'>): string {
  return Buffer.from(JSON.stringify({ v: 1, sessionId: cursor.sessionId, beforeMessageId: cursor.beforeMessageId }), 'utf8').toString(
    'base64url',
  );
}

/** Decodes and validates a cursor; throws HUB_ERR_BAD_REQUEST when it is not one of ours or names another session. */
export function decodeHistoryCursor(value: unknown, sessionId?: string): HistoryCursor {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(value)) {
    throw new HubError('HUB_ERR_BAD_REQUEST', 'Invalid history cursor');
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw new HubError('HUB_ERR_BAD_REQUEST', 'Invalid history cursor');
  }
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success) throw new HubError('HUB_ERR_BAD_REQUEST', 'Invalid history cursor');
  if (sessionId !== undefined && parsed.data.sessionId !== sessionId) {
    throw new HubError('HUB_ERR_BAD_REQUEST', 'History cursor belongs to another session');
  }
  return parsed.data;
}

/** Index where a turn-aligned tail of about `limit` messages starts (moved back to the turn's user message). */
export function turnAlignedStart(messages: readonly MessageWithParts[], limit: number): number {
  if (limit <= 0) return messages.length;
  let start = Math.max(0, messages.length - Math.floor(limit));
  while (start > 0 && messages[start]?.info.role !== 'user') start -= 1;
  return start;
}

function page(sessionId: string, messages: readonly MessageWithParts[], end: number, limit: number): HistoryPage {
  const head = messages.slice(0, end);
  const start = turnAlignedStart(head, limit);
  const slice = head.slice(start);
  const first = slice[0];
  const hasMore = start > 0 && first !== undefined;
  return {
    messages: slice,
    hasMore,
    ...(hasMore ? { cursor: encodeHistoryCursor({ sessionId, beforeMessageId: first.info.messageId }) } : {}),
  };
}

/** The turn-aligned tail of a conversation (about `limit` messages, never starting mid-turn). */
export function tailByTurns(sessionId: string, messages: readonly MessageWithParts[], limit: number): HistoryPage {
  return page(sessionId, messages, messages.length, limit);
}

/** The turn-aligned page before a cursor; throws HUB_ERR_NOT_FOUND when its message is gone (e.g. compacted away). */
export function pageBefore(sessionId: string, messages: readonly MessageWithParts[], cursor: string, limit: number): HistoryPage {
  const c = decodeHistoryCursor(cursor, sessionId);
  const end = messages.findIndex((m) => m.info.messageId === c.beforeMessageId);
  if (end < 0) throw new HubError('HUB_ERR_NOT_FOUND', 'The history cursor no longer matches a message');
  return page(sessionId, messages, end, limit);
}

/** `after_message` named a message the replayable history does not hold (unknown, compacted away, or too old). */
export class UnknownMessageError extends HubError {
  constructor(sessionId: string, messageId: string) {
    super(
      'HUB_ERR_NOT_FOUND',
      `Message ${messageId} is not in the replayable history of session ${sessionId}; attach with historyPolicy "full" instead`,
      { sessionId, messageId },
    );
  }
}

/**
 * The history after message `messageId` (the multi-client draft's `after_message`): what
 * `history` holds after it. `all` is every message fetched, the running turn's included, so an id
 * of the running turn is found too (its history part is then empty: the running turn follows whole).
 */
export function pageAfter(
  sessionId: string,
  all: readonly MessageWithParts[],
  history: readonly MessageWithParts[],
  messageId: string,
): HistoryPage {
  const at = all.findIndex((m) => m.info.messageId === messageId);
  if (at < 0) throw new UnknownMessageError(sessionId, messageId);
  const after = history.findIndex((m) => all.indexOf(m) > at);
  return { messages: after < 0 ? [] : history.slice(after), hasMore: false };
}
