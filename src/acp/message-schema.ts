/**
 * Lenient zod schema of `MessageWithParts` (APP-SERVER.md §3.7), as returned by
 * `session/messages` and inside snapshots. Loose everywhere: output objects may carry keys the
 * published schema does not list (§5.6); only what the replay needs is typed.
 */
import { z } from 'zod';
import { parseLenient } from './lenient-parse.js';

const optStr = z.string().optional();

/** `info` of a message; `role` decides user vs assistant chunks. */
export const messageInfoSchema = z.looseObject({
  messageId: z.string().min(1),
  sessionId: optStr,
  role: z.string(),
  time: z.looseObject({ created: z.number().optional(), completed: z.number().optional() }).optional(),
  synthetic: z.boolean().optional(),
  source: z.unknown().optional(),
  visibility: optStr,
  parentMessageId: optStr,
  /** `error` when the turn failed (§3.7); the message then carries `error`. */
  finish: optStr,
  error: z.looseObject({ message: z.string().optional(), code: z.union([z.string(), z.number()]).optional(), type: optStr }).optional(),
});

/** Tool part `state`, discriminated by `status` (§3.7): pending, running, completed, error. */
export const toolStateSchema = z.looseObject({
  status: z.string(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  title: optStr,
  error: z.unknown().optional(),
  metadata: z.unknown().optional(),
});

/** One part; `type` picks the fields (text, reasoning, file, tool, …). */
export const messagePartSchema = z.looseObject({
  type: z.string(),
  partId: optStr,
  text: optStr,
  synthetic: z.boolean().optional(),
  ignored: z.boolean().optional(),
  mime: optStr,
  filename: optStr,
  url: optStr,
  callId: optStr,
  tool: optStr,
  state: toolStateSchema.optional(),
});

/** A message with its parts. */
export const messageWithPartsSchema = z.looseObject({
  info: messageInfoSchema,
  parts: z.array(messagePartSchema).default([]),
});

export type MessageWithParts = z.infer<typeof messageWithPartsSchema>;
export type MessagePart = z.infer<typeof messagePartSchema>;

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
