/**
 * Lenient zod schemas of the app-server results the domain reads (ZCODE-PROTOCOL §3.6, §4):
 * only the fields used here are typed, unknown keys pass (§5.6: lenient on output).
 */
import { z } from 'zod';
import { settingsPatchSchema } from '../acp/zcode-event-schema.js';

const optStr = z.string().optional();

/** SessionInfo (§3.5), loosely. */
export const sessionInfoSchema = z.looseObject({
  sessionId: z.string().min(1),
  workspace: z.looseObject({ workspacePath: z.string() }).optional(),
  title: z.string().default(''),
  mode: optStr,
  status: optStr,
  model: z.looseObject({ providerId: optStr, modelId: optStr }).optional(),
  createdAt: z.number().optional(),
  updatedAt: z.number().optional(),
  /** Archived in the ZCode app (§3.5); the hub's own flag (session-marks.ts) overrides it. */
  archivedAt: z.number().optional(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** The session snapshot (§3.6), loosely. */
export const snapshotSchema = z.looseObject({
  session: sessionInfoSchema,
  settings: settingsPatchSchema.default({}),
  runtime: z.looseObject({ eventSeq: z.number().int().nonnegative().default(0), activeTurnId: optStr }).default({ eventSeq: 0 }),
  messages: z.array(z.unknown()).default([]),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** `session/subscribe` result (§4.7). */
export const subscribeResultSchema = z.looseObject({
  eventSeq: z.number().int().nonnegative().default(0),
  events: z.array(z.unknown()).default([]),
  snapshot: z.unknown().optional(),
});

/** `session/list` result (§4.3). */
export const listResultSchema = z.looseObject({ sessions: z.array(sessionInfoSchema).default([]) });

/** `session/messages` result (§4.5). */
export const messagesResultSchema = z.looseObject({ messages: z.array(z.unknown()).default([]) });

/** `v4/command` ACK (§7.2). */
export const commandAckSchema = z.looseObject({ status: z.string(), reasonCode: optStr, message: optStr });

/** `session/fork` result (§4.11). */
export const forkResultSchema = z.looseObject({ forkedSessionId: z.string().min(1), snapshot: z.unknown().optional() });

/** `session/compact` result (§4.13). */
export const compactResultSchema = z.looseObject({ compact: z.looseObject({ state: z.string() }).optional() });

/** `session/goal` result (§4.12). */
export const goalResultSchema = z.looseObject({ response: z.string().default('') });

/** `session/cancelBackgroundTask` result (§4.10). */
export const cancelTaskResultSchema = z.looseObject({ cancelled: z.boolean().default(false), status: z.unknown().optional() });

/** A journaled `session/update` frame, read back for the REST events route. */
export const journalFrameSchema = z.looseObject({ params: z.looseObject({ update: z.unknown() }) });
