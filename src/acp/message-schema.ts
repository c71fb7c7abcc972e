/**
 * The hub's reading of `MessageWithParts` (APP-SERVER.md §3.7), as returned by
 * `session/messages` and inside snapshots: the lenient readings of its one definition in
 * src/wire/history.ts. Loose everywhere: output objects may carry keys the published schema
 * does not list (§5.6); only what the replay needs is typed.
 */
import { z } from 'zod';
import { messageInfo, messagePart, messageWithParts, toolState, type MessageWithParts } from '../wire/history.js';
import { parseLenient } from './lenient-parse.js';

/** `info` of a message, the lenient reading of src/wire/history.ts; `role` decides user vs assistant chunks. */
export const messageInfoSchema = messageInfo.lenient;

/** Tool part `state` (§3.7), leniently: `status` pending, running, completed or error, each as any string. */
export const toolStateSchema = toolState.lenient;

/** One part; `type` picks the fields (text, reasoning, file, tool, …). */
export const messagePartSchema = messagePart.lenient;

/** A message with its parts. */
export const messageWithPartsSchema = messageWithParts.lenient;
export type { MessagePart, MessageWithParts } from '../wire/history.js';

/** The message envelope; parts are parsed one by one so one bad part costs only itself. */
const messageEnvelopeSchema = z.looseObject({ info: messageInfoSchema, parts: z.array(z.unknown()).default([]) });

/**
 * Parses a `session/messages` result (an array, or `{messages: […]}`) leniently (§5.6): null or
 * drifted fields are removed, a part that still cannot be read is skipped alone, and a message
 * whose `info` cannot be read is skipped. Everything removed is reported through `onDropped`.
 */
export function parseMessages(value: unknown, onDropped?: (what: string) => void): MessageWithParts[] {
  const list = Array.isArray(value)
    ? value
    : value !== null && typeof value === 'object' && Array.isArray((value as { messages?: unknown }).messages)
      ? (value as { messages: unknown[] }).messages
      : [];
  return list.flatMap((m, i) => {
    const r = parseLenient(messageEnvelopeSchema, m);
    for (const d of r.dropped) onDropped?.(`message ${i}: ${d}`);
    if (!r.success) {
      onDropped?.(`message ${i}: unreadable, skipped (${r.error.issues.map((x) => x.path.map(String).join('.') || '(root)').join(', ')})`);
      return [];
    }
    const parts = r.data.parts.flatMap((part, j) => {
      const p = parseLenient(messagePartSchema, part);
      for (const d of p.dropped) onDropped?.(`message ${i} part ${j}: ${d}`);
      if (!p.success) onDropped?.(`message ${i} part ${j}: unreadable, skipped`);
      return p.success ? [p.data] : [];
    });
    return [{ ...r.data, parts }];
  });
}
