/**
 * ErrorDetail (docs/APP-SERVER.md §5.5.4), defined once: what `turn.failed` and a `tool.updated`
 * of kind `error` carry. The CLI's `code` is a string; older CLIs send a number. An internal
 * error forwarded as is may be a bare string, which the hub reads as the message.
 */
import { z } from 'zod';
import { drift, message, unread } from './message.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();

export const errorDetail = message({
  type: drift(strPlus, optStr),
  message: drift(strPlus, z.string().default('')),
  stack: unread(optStr),
  code: drift(optStr, z.union([z.string(), z.number()]).optional()),
  detail: unread(z.unknown().optional()),
  underlyingErrorMessage: unread(optStr),
  underlyingErrorDetail: unread(z.unknown().optional()),
  attribution: unread(z.record(z.string(), z.unknown()).optional()),
  retryable: z.boolean().optional(),
  data: unread(z.unknown().optional()),
});

/** The hub's reading, which also takes a bare string as the message. */
export const errorDetailLenient = z.preprocess((v) => (typeof v === 'string' ? { message: v } : v), errorDetail.lenient);
export type ErrorDetail = z.infer<typeof errorDetailLenient>;

/** ErrorDetail as a field of an event payload. */
export const errorDetailField = drift(errorDetail.strict, errorDetailLenient);
