/**
 * Lenient zod schemas of the app-server's session results and of the v4 command ACK
 * (APP-SERVER.md §3.6, §4, §7.2), parsed by the client (client.ts): only the fields the hub
 * reads are typed, unknown keys pass (§5.6: lenient on output).
 */
import { z } from 'zod';
import { sessionInfo } from '../wire/session-info.js';
import { snapshot } from '../wire/snapshot.js';
import { commandAck } from '../wire/v4.js';

/** SessionInfo (§3.5), the lenient reading of src/wire/session-info.ts: only the id is required. */
export const sessionInfoSchema = sessionInfo.lenient;
export type { SessionInfo } from '../wire/session-info.js';

/** The session snapshot (§3.6), the lenient reading of src/wire/snapshot.ts. */
export const snapshotSchema = snapshot.lenient;
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

/** The v4 command ACK (§7.2), read leniently: defined once with the simulator's in src/wire/v4.ts. */
export const commandAckSchema = commandAck.lenient;
export type { CommandAck } from '../wire/v4.js';

/** `session/fork` result (§4.11). */
export const forkResultSchema = z.looseObject({ forkedSessionId: z.string().min(1), snapshot: z.unknown().optional() });

/** `session/compact` result (§4.13). */
export const compactResultSchema = z.looseObject({ compact: z.looseObject({ state: z.string() }).optional() });

/** `session/goal` result (§4.12). */
export const goalResultSchema = z.looseObject({ response: z.string().default('') });

/** `session/cancelBackgroundTask` result (§4.10). */
export const cancelTaskResultSchema = z.looseObject({ cancelled: z.boolean().default(false), status: z.unknown().optional() });

/** `session/subagents` result (§4.16): running ones and a page of ended ones, each read loosely by its user. */
export const subagentsResultSchema = z.looseObject({
  running: z.array(z.unknown()).default([]),
  ended: z.looseObject({ items: z.array(z.unknown()).default([]) }).default({ items: [] }),
});

/** A `deferred` draft's `session/create` result, for its model list only (§4.1): entries are parsed by their reader. */
export const draftCreateResultSchema = z.looseObject({
  session: z.looseObject({ sessionId: z.string() }),
  settings: z.looseObject({ model: z.looseObject({ available: z.array(z.unknown()) }) }),
});

/** Results the hub does not read (`session/send`, `session/stop`, `session/close`, …). */
export const ignoredResultSchema = z.unknown();
