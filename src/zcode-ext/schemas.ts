/**
 * Payloads of the `_zcode/*` notifications the hub sends (docs/CLIENT-PROTOCOL.md), as zod
 * schemas with their inferred types. The domain builds them with these types; the web app
 * takes the types (`import type`); test/integration/zcode-ext.test.ts checks that what a real
 * daemon sends parses. Strict: a new field is added here first.
 */
import { z } from 'zod';
import { ZCODE_NOTIFICATION } from './methods.js';

const turnStateName = z.enum(['idle', 'running', 'awaiting_input', 'stopping']);
/**
 * A verified author (docs/CLIENT-PROTOCOL.md "Authors"): `name` ("person · device"), `person`,
 * `device` and `tokenId` come from the token; `client` is the self-declared `clientInfo.name`.
 * The three verified fields are optional only for authors recorded before people existed.
 */
const authorFields = {
  name: z.string(),
  person: z.string().optional(),
  device: z.string().optional(),
  tokenId: z.string().optional(),
  client: z.string().optional(),
};
const who = z.strictObject({ clientId: z.string(), ...authorFields });
/** An author anywhere (`resolvedBy`, `deletedBy`, the inbox's `resolvedBy`): the connection may be absent (REST). */
export const authorSchema = z.object({ clientId: z.string().optional(), ...authorFields });

export const turnStateParams = z.strictObject({
  sessionId: z.string(),
  state: turnStateName,
  turnId: z.string().optional(),
  promptedBy: who.optional(),
  promptId: z.string().optional(),
  queue: z.array(z.strictObject({ promptId: z.string(), clientId: z.string(), ...authorFields, preview: z.string() })),
});

export const sessionStateParams = z.strictObject({
  sessionId: z.string(),
  title: z.string(),
  cwd: z.string(),
  state: turnStateName,
  model: z.strictObject({ providerId: z.string(), modelId: z.string() }).optional(),
  pendingInteractions: z.number().int().nonnegative(),
  /** Background tasks running now (a task may outlive its turn: `state` is then idle). */
  runningTasks: z.number().int().nonnegative(),
  clients: z.number().int().nonnegative(),
  updatedAt: z.number(),
  /** Archived from a client: lists hide it unless asked. */
  archived: z.boolean(),
  /** The start of the session's last message, for lists. */
  preview: z.strictObject({ role: z.enum(['user', 'agent']), text: z.string() }).optional(),
});

export const presenceParams = z.strictObject({
  sessionId: z.string(),
  clients: z.array(
    z.strictObject({
      clientId: z.string(),
      ...authorFields,
      scope: z.enum(['view', 'operate', 'admin']),
      profile: z.string(),
      role: z.enum(['controller', 'observer']),
    }),
  ),
});

export const backendStateParams = z.strictObject({
  state: z.enum(['starting', 'ready', 'restarting', 'failed', 'stopped']),
  epoch: z.string(),
  restarts: z.number().int().nonnegative(),
  nextRetryMs: z.number().optional(),
});

export const ownUpdateParams = z.strictObject({
  sessionId: z.string(),
  _meta: z.strictObject({ zcode: z.looseObject({ seq: z.number().int(), epoch: z.string() }) }),
});

/** The interaction itself is the InteractionView of docs/CLIENT-PROTOCOL.md (read leniently here). */
export const interactionOpenedParams = z.strictObject({
  sessionId: z.string(),
  interaction: z.looseObject({ interactionId: z.string(), sessionId: z.string() }),
});

export const interactionResolvedParams = z.looseObject({
  sessionId: z.string(),
  interactionId: z.string(),
  state: z.enum(['resolved', 'cancelled', 'lost', 'expired']),
  resolvedBy: authorSchema.extend({ rule: z.string().optional(), grant: z.string().optional() }).optional(),
  /** Settled by an approval rule with no one asked (docs/CLIENT-PROTOCOL.md "Approval rules"). */
  rule: z.strictObject({ id: z.string(), description: z.string().optional(), decision: z.enum(['allow', 'deny']) }).optional(),
  /** Allowed by an "always allow" grant the hub keeps (docs/CLIENT-PROTOCOL.md "Always allow"). */
  grant: z.strictObject({ id: z.string(), by: z.string(), at: z.number() }).optional(),
});

/** An answer of this connection the hub refused (docs/CLIENT-PROTOCOL.md "Approval rules", "Refusals"). */
export const answerRefusedParams = z.strictObject({
  sessionId: z.string(),
  interactionId: z.string(),
  /** The id of the hub's request this client answered (absent when no request of it is known). */
  requestId: z.union([z.string(), z.number()]).optional(),
  reason: z.enum(['not_eligible', 'already_voted', 'settled', 'invalid']),
  /** The HubError code the REST answer route gives for the same refusal. */
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});

/** One kept answer of a question interaction (docs/CLIENT-PROTOCOL.md "Partial answers"). */
export const partialAnswerSchema = z.strictObject({
  questionIndex: z.number().int().nonnegative(),
  question: z.string(),
  answer: z.union([z.string(), z.array(z.string())]),
  answeredBy: authorSchema,
  answeredAt: z.number(),
});

/** The answers a pending question holds so far changed (one more given, or cleared after a counted vote). */
export const interactionProgressParams = z.strictObject({
  sessionId: z.string(),
  interactionId: z.string(),
  partialAnswers: z.array(partialAnswerSchema),
});

export const sessionDeletedParams = z.strictObject({ sessionId: z.string(), deletedBy: authorSchema });

/** Notification method → the schema of its params. */
/** A `session/update` folded for a client whose schema cannot know its kind: the same params. */
const foldedSessionUpdateParams = z.looseObject({
  sessionId: z.string(),
  update: z.looseObject({ sessionUpdate: z.string() }),
});

export const ZCODE_NOTIFICATION_PARAMS = {
  [ZCODE_NOTIFICATION.turnState]: turnStateParams,
  [ZCODE_NOTIFICATION.sessionState]: sessionStateParams,
  [ZCODE_NOTIFICATION.presence]: presenceParams,
  [ZCODE_NOTIFICATION.backendState]: backendStateParams,
  [ZCODE_NOTIFICATION.ownUpdate]: ownUpdateParams,
  [ZCODE_NOTIFICATION.interactionOpened]: interactionOpenedParams,
  [ZCODE_NOTIFICATION.interactionResolved]: interactionResolvedParams,
  [ZCODE_NOTIFICATION.sessionDeleted]: sessionDeletedParams,
  [ZCODE_NOTIFICATION.sessionUpdate]: foldedSessionUpdateParams,
  [ZCODE_NOTIFICATION.answerRefused]: answerRefusedParams,
  [ZCODE_NOTIFICATION.interactionProgress]: interactionProgressParams,
} as const;

/** The params each `_zcode/*` notification carries, by method. */
export type ZcodeNotificationParams = { [M in keyof typeof ZCODE_NOTIFICATION_PARAMS]: z.input<(typeof ZCODE_NOTIFICATION_PARAMS)[M]> };

/**
 * What a sender must pass as a notification's params: a `_zcode/*` method's own type, checked at
 * compile time (`send('_zcode/turn_state', params)`); other methods (`session/update`, …) are
 * shaped by their own builders.
 */
export type NotificationParams<M extends string> = M extends keyof ZcodeNotificationParams ? ZcodeNotificationParams[M] : unknown;

export type TurnStateParams = z.infer<typeof turnStateParams>;
export type SessionStateParams = z.infer<typeof sessionStateParams>;
export type PresenceParams = z.infer<typeof presenceParams>;
export type BackendStateParams = z.infer<typeof backendStateParams>;
export type OwnUpdateParams = z.infer<typeof ownUpdateParams>;
export type InteractionOpenedParams = z.infer<typeof interactionOpenedParams>;
export type InteractionResolvedParams = z.infer<typeof interactionResolvedParams>;
export type SessionDeletedParams = z.infer<typeof sessionDeletedParams>;
export type AnswerRefusedParams = z.infer<typeof answerRefusedParams>;
export type PartialAnswerWire = z.infer<typeof partialAnswerSchema>;
export type InteractionProgressParams = z.infer<typeof interactionProgressParams>;
