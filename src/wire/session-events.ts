/**
 * The payloads of a session's own `session/event`s (docs/APP-SERVER.md §5.4, §5.5.5, §5.5.9),
 * defined once: created, resumed, retitled, closed, a message's content, and the bags — the
 * `session.updated` events (every other internal event, recognised by its keys), the
 * checkpoint, rewind and stream-recovery events — which neither side types as a whole.
 */
import { z } from 'zod';
import { asNumber, asString, drift, message, unread } from './message.js';
import { TITLE_SOURCES } from './session-info.js';

const optStr = z.string().optional();
const int0 = z.number().int().nonnegative();

/** `session.created`; the mode is read as any string (§3.4 has grown before). */
export const sessionCreated = message({ mode: asString(z.string()), contextWindow: asNumber(int0) });

/** `session.resumed`. */
export const sessionResumed = message({
  directory: asString(z.string()),
  interruptedToolCount: unread(int0),
  messageCount: asNumber(int0),
  partCount: unread(int0),
  recoveredCompactTimelineCount: unread(int0.optional()),
  recoveredSteerInputCount: unread(int0.optional()),
  resumedTodoCount: unread(int0.optional()),
});

/** `session.titleUpdated`; its id field is spelled `messageID` on the wire. */
export const sessionTitleUpdated = message({
  title: z.string(),
  previousTitle: asString(z.string()),
  source: asString(z.enum(TITLE_SOURCES)),
  messageID: optStr,
});

/** `session.closed`. */
export const sessionClosed = message({ reason: optStr });

/** `message.upserted` (§5.5.5): a message's content, without a role; history comes from `session/messages`. */
export const messageUpserted = message({
  content: drift(z.string(), z.string().default('')),
  attachments: z.array(z.unknown()).optional(),
  toolCalls: z.array(z.unknown()).optional(),
  type: optStr,
  compactBoundary: unread(z.unknown().optional()),
});

/**
 * A payload the contract leaves open: any object, both ways. `session.updated` is parsed again
 * by the hub per variant it knows (src/acp/session-updated-kind.ts).
 */
export const openPayload = { strict: z.looseObject({}), lenient: z.looseObject({}) };
