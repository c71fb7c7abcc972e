/**
 * MessageWithParts (docs/APP-SERVER.md §3.7), defined once: the authoritative history that
 * `session/messages` and snapshots carry. The simulator keeps and sends its messages to the
 * strict reading; the hub reads them leniently (src/acp/message-schema.ts), one part at a time.
 */
import { z } from 'zod';
import { errorDetail } from './error-detail.js';
import { drift, message, unread } from './message.js';
import { modelSelection } from './model.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();
const optBool = z.boolean().optional();
const int0 = z.number().int().nonnegative();
const metadata = unread(z.record(z.string(), z.unknown()).optional());

const time = message({ created: drift(z.number(), z.number().optional()), completed: z.number().optional() });

/** Fields of both roles' `info`. */
const infoCommon = {
  messageId: drift(strPlus, z.string().min(1)),
  sessionId: drift(strPlus, optStr),
  time: drift(time.strict, time.lenient.optional()),
  agent: unread(z.string()),
  model: unread(modelSelection.strict.optional()),
  semantics: unread(z.unknown().optional()),
};

const userFields = {
  ...infoCommon,
  system: unread(z.string().optional()),
  tools: unread(z.record(z.string(), z.boolean()).optional()),
  synthetic: optBool,
  source: z.unknown().optional(),
  visibility: optStr,
  metadata,
};

const assistantFields = {
  ...infoCommon,
  parentMessageId: drift(z.string(), optStr),
  path: unread(z.strictObject({ cwd: z.string(), root: z.string() })),
  cost: unread(z.number().nonnegative()),
  tokens: unread(
    z.strictObject({
      total: int0.optional(),
      input: int0,
      output: int0,
      reasoning: int0,
      cache: z.strictObject({ read: int0, write: int0 }),
    }),
  ),
  /** `error` when the turn failed; the message then carries `error`. */
  finish: optStr,
  error: drift(
    errorDetail.strict.optional(),
    z.looseObject({ message: optStr, code: z.union([z.string(), z.number()]).optional(), type: optStr }).optional(),
  ),
  structured: unread(z.unknown().optional()),
};

/** A message's `info`: strictly one shape per `role`; the hub reads one loose object and decides by `role`. */
export const messageInfo = {
  strict: z.discriminatedUnion('role', [
    message({ role: z.literal('user'), ...userFields }).strict,
    message({ role: z.literal('assistant'), ...assistantFields }).strict,
  ]),
  lenient: message({ role: z.string(), ...userFields, ...assistantFields }).lenient,
};

/** A tool part's `state`: strictly one shape per `status`. */
const stateCommon = { input: z.unknown(), metadata: unread(z.unknown().optional()) };
const stateFields = {
  pending: { ...stateCommon, raw: unread(z.unknown()) },
  running: { ...stateCommon, title: optStr, startedAt: unread(z.number()) },
  completed: {
    ...stateCommon,
    output: z.unknown(),
    title: drift(z.string(), optStr),
    startedAt: unread(z.number()),
    completedAt: unread(z.number()),
  },
  error: { ...stateCommon, error: z.unknown(), startedAt: unread(z.number()), completedAt: unread(z.number()) },
} as const;
export const toolState = {
  strict: z.discriminatedUnion(
    'status',
    Object.entries(stateFields).map(([status, fields]) => message({ status: z.literal(status), ...fields }).strict) as unknown as [
      z.ZodObject,
      ...z.ZodObject[],
    ],
  ),
  lenient: message({
    status: z.string(),
    ...stateFields.pending,
    ...stateFields.running,
    ...stateFields.error,
    ...stateFields.completed,
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    error: z.unknown().optional(),
  }).lenient,
};

/** Every part has these; the hub reads only the id. */
const partCommon = { partId: drift(strPlus, optStr), sessionId: unread(strPlus), messageId: unread(strPlus) };

/** The fields of each part `type`. */
const partFields = {
  text: { text: drift(z.string(), optStr), synthetic: optBool, ignored: optBool, metadata },
  reasoning: { text: drift(z.string(), optStr), metadata },
  file: { mime: drift(z.string(), optStr), filename: optStr, url: drift(z.string(), optStr), metadata },
  tool: {
    callId: drift(strPlus, optStr),
    tool: drift(strPlus, optStr),
    state: drift(toolState.strict, toolState.lenient.optional()),
    metadata,
  },
  'step-start': { snapshot: unread(z.string().optional()) },
  'step-finish': {
    reason: unread(z.string()),
    snapshot: unread(z.string().optional()),
    cost: unread(z.number()),
    tokens: unread(z.unknown()),
  },
  snapshot: { snapshot: unread(z.string()) },
  patch: { hash: unread(z.string()), files: unread(z.array(z.string())) },
  compaction: {
    auto: unread(z.boolean()),
    reason: unread(z.string().optional()),
    summaryMessageId: unread(z.string().optional()),
    metadata,
  },
  subagent: {
    prompt: unread(z.string()),
    description: unread(z.string()),
    agent: unread(z.string()),
    model: unread(modelSelection.strict.optional()),
    command: unread(z.string().optional()),
  },
  agent: { name: unread(z.string()) },
  retry: { attempt: unread(z.number().int().positive()), error: unread(z.unknown()) },
} as const;

/** A timeline part carries more than its two named fields (§3.7); its strict reading keeps them. */
const timelinePart = z.looseObject({
  type: z.literal('timeline'),
  partId: strPlus,
  sessionId: strPlus,
  messageId: strPlus,
  timelineType: z.enum(['context_compaction', 'goal_verification', 'session_fork', 'model_change']),
  display: z.enum(['separator', 'worklog']),
});

export const messagePart = {
  strict: z.discriminatedUnion('type', [
    ...Object.entries(partFields).map(([type, fields]) => message({ type: z.literal(type), ...partCommon, ...fields }).strict),
    timelinePart,
  ] as unknown as [z.ZodObject, ...z.ZodObject[]]),
  lenient: message({
    type: z.string(),
    ...partCommon,
    ...partFields.text,
    ...partFields.file,
    ...partFields.tool,
    sessionId: z.unknown().optional(),
    messageId: z.unknown().optional(),
  }).lenient,
};

export const messageWithParts = {
  strict: z.strictObject({ info: messageInfo.strict, parts: z.array(messagePart.strict) }),
  lenient: z.looseObject({ info: messageInfo.lenient, parts: z.array(messagePart.lenient).default([]) }),
};
export type MessageWithParts = z.infer<typeof messageWithParts.lenient>;
export type MessagePart = z.infer<typeof messagePart.lenient>;
