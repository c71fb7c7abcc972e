/**
 * Params of the `_zcode/*` requests a client sends (docs/CLIENT-PROTOCOL.md), as zod schemas
 * with their inferred types. The gateway validates with them before a handler runs; the web
 * app takes the types (`import type`) to build what it sends. Method names: ./methods.ts.
 */
import { z } from 'zod';

/** The longest session id any method or route takes (the agent's ids are far shorter; a longer one names no session). */
export const SESSION_ID_MAX_CHARS = 256;
/** A session id in params or a path. */
export const sessionIdParam = z.string().min(1).max(SESSION_ID_MAX_CHARS);
const sessionId = sessionIdParam;

/** `_zcode/load_earlier`; `before` is the zcode-acp-remote spelling of `cursor` (ARCHITECTURE.md §5.1). */
export const loadEarlierParams = z
  .object({
    sessionId,
    cursor: z.string().min(1).max(4096).optional(),
    before: z.string().min(1).max(4096).optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .refine((p) => p.cursor !== undefined || p.before !== undefined, { message: 'cursor is required', path: ['cursor'] });

export const interactionsListParams = z.object({ sessionId: sessionId.optional() });
export const forkParams = z.object({ sessionId, target: z.string().min(1).max(256).optional() });
export const compactParams = z.object({
  sessionId,
  instructions: z
    .string()
    .max(64 * 1024)
    .optional(),
});
export const goalParams = z.object({
  sessionId,
  action: z.string().min(1).max(64),
  objective: z
    .string()
    .max(64 * 1024)
    .optional(),
});
export const sessionArchiveParams = z.object({ sessionId, archived: z.boolean() });
/** One question of a pending question interaction answered (docs/CLIENT-PROTOCOL.md "Partial answers"); `""`/`[]` skips it. */
export const partialAnswerParams = z.object({
  interactionId: z.string().min(1).max(256),
  questionIndex: z.number().int().min(0).max(10_000),
  answer: z.union([z.string(), z.array(z.string()).max(1_000)]),
});
export const cancelBackgroundTaskParams = z.object({ sessionId, taskId: z.string().min(1).max(256) });

export type LoadEarlierParams = z.input<typeof loadEarlierParams>;
export type InteractionsListParams = z.infer<typeof interactionsListParams>;
export type ForkParams = z.infer<typeof forkParams>;
export type CompactParams = z.infer<typeof compactParams>;
export type GoalParams = z.infer<typeof goalParams>;
export type SessionArchiveParams = z.infer<typeof sessionArchiveParams>;
export type PartialAnswerParams = z.infer<typeof partialAnswerParams>;
export type CancelBackgroundTaskParams = z.infer<typeof cancelBackgroundTaskParams>;
