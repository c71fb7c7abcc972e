/**
 * Lenient zod schemas of the app-server's `session/event` and `state.updated` notifications
 * (APP-SERVER.md §5). Every object is loose: the server forwards internal payloads with keys
 * its own published schemas do not list, so the hub must never drop an event for an unknown
 * key (§5.6). Only the fields the translator reads are typed; most are optional because seeds
 * show older CLIs omitting them.
 */
import { z } from 'zod';
import { sessionEventEnvelope } from '../wire/events.js';
import { modelSelection } from '../wire/model.js';
import { parseLenient } from './lenient-parse.js';

const str = z.string();
const optStr = z.string().optional();
const optNum = z.number().optional();
const optBool = z.boolean().optional();

/**
 * ErrorDetail (§5.5.4); `code` is a string in S, a number in older CLIs (§12 #8). A bare string
 * (an internal error forwarded as is, §5.6) is read as the message.
 */
export const errorDetailSchema = z.preprocess(
  (v) => (typeof v === 'string' ? { message: v } : v),
  z.looseObject({
    type: optStr,
    message: z.string().default(''),
    code: z.union([z.string(), z.number()]).optional(),
    retryable: optBool,
  }),
);
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** The `session/event` envelope (§5.1), the lenient reading of src/wire/events.ts; `payload` is parsed per type afterwards. */
export const sessionEventEnvelopeSchema = sessionEventEnvelope.lenient;
export type SessionEventEnvelope = z.infer<typeof sessionEventEnvelopeSchema>;

/** Turn usage summary (§5.5.3 [F]) and model_complete usage (§5.5.9); all optional. */
export const usageSchema = z.looseObject({
  source: optStr,
  modelRequestCount: optNum,
  inputTokens: optNum,
  outputTokens: optNum,
  totalTokens: optNum,
  cacheReadTokens: optNum,
  cacheWriteTokens: optNum,
  reasoningTokens: optNum,
});
export type ZCodeUsage = z.infer<typeof usageSchema>;

const loose = z.looseObject({});

/** Payload schema per protocol `type` (§5.4): 25 names, 18 produced by S. */
export const EVENT_PAYLOAD_SCHEMAS = {
  'session.created': z.looseObject({ mode: optStr, contextWindow: optNum }),
  'session.resumed': z.looseObject({ directory: optStr, messageCount: optNum }),
  'session.titleUpdated': z.looseObject({ title: str, previousTitle: optStr, source: optStr, messageID: optStr }),
  'session.closed': z.looseObject({ reason: optStr }),
  'turn.started': z.looseObject({
    turnNumber: optNum,
    input: optStr,
    inputId: optStr,
    queryId: optStr,
    messageId: optStr,
    foregroundExecutionId: optStr,
    inputSource: optStr,
    inputVisibility: optStr,
    executionKind: optStr,
    backgroundSource: optStr,
  }),
  'turn.steerQueued': z.looseObject({
    pendingInputId: optStr,
    inputId: optStr,
    input: optStr,
    inputPreview: optStr,
    source: optStr,
    delivery: optStr,
    targetTurnId: optStr,
    queueLength: optNum,
  }),
  'turn.steerDrained': z.looseObject({
    pendingInputIds: z.array(str).optional(),
    targetTurnId: optStr,
    injectedMessageIds: z.array(str).optional(),
    drainedInputs: z.array(z.looseObject({ pendingInputId: optStr, messageId: optStr, text: optStr, delivery: optStr })).optional(),
  }),
  'turn.completed': z.looseObject({
    response: optStr,
    tokenCount: optNum,
    toolCallCount: optNum,
    duration: optNum,
    resultType: z.string().default('success'),
    usage: usageSchema.optional(),
    inputId: optStr,
    historyRoundCount: optNum,
    cacheStats: loose.optional(),
  }),
  'turn.failed': z.looseObject({ error: errorDetailSchema.default({ message: '' }), turnPhase: optStr, inputId: optStr }),
  'message.upserted': z.looseObject({
    content: z.string().default(''),
    attachments: z.array(z.unknown()).optional(),
    toolCalls: z.array(z.unknown()).optional(),
    type: optStr,
  }),
  'model.streaming': z.looseObject({
    kind: str,
    delta: optStr,
    done: optBool,
    assistantMessageId: optStr,
    partId: optStr,
    toolCallId: optStr,
    toolName: optStr,
    input: z.unknown().optional(),
  }),
  // One loose object for every `kind` (§5.5.7): `batch` has no toolCallId, unknown kinds must pass.
  'tool.updated': z.looseObject({
    kind: str,
    toolCallId: optStr,
    toolName: optStr,
    parentToolCallId: optStr,
    source: optStr,
    agentId: optStr,
    agentType: optStr,
    background: optBool,
    childSessionId: optStr,
    childToolCallId: optStr,
    description: optStr,
    input: z.unknown().optional(),
    inputOmitted: optBool,
    startedAt: z.union([z.number(), z.string()]).optional(),
    elapsedMs: optNum,
    outputPreview: optStr,
    stdoutTail: optStr,
    stderrTail: optStr,
    result: z.unknown().optional(),
    duration: optNum,
    error: errorDetailSchema.optional(),
    toolCallIds: z.array(str).optional(),
    successCount: optNum,
    errorCount: optNum,
  }),
  'permission.requested': z.looseObject({
    requestId: optStr,
    toolCallId: str,
    toolName: optStr,
    riskLevel: optStr,
    reason: optStr,
    input: z.unknown().optional(),
    options: z.array(z.unknown()).optional(),
    childSessionId: optStr,
    background: optBool,
  }),
  'permission.resolved': z.looseObject({
    requestId: optStr,
    toolCallId: str,
    toolName: optStr,
    decision: optStr,
    reason: optStr,
  }),
  'checkpoint.created': loose,
  'rewind.triggered': loose,
  'streamRecovery.updated': loose,
  // A bag of ~40 internal kinds without a name; discriminated by keys in session-updated-kind.ts.
  'session.updated': loose,
  // Declared in the union, never produced by S's mapper (§5.4): parsed, then ignored.
  'message.removed': loose,
  'part.started': loose,
  'part.delta': loose,
  'part.upserted': loose,
  'part.removed': loose,
  'userInput.requested': loose,
  'userInput.resolved': loose,
} as const;

export type ZCodeEventType = keyof typeof EVENT_PAYLOAD_SCHEMAS;
export type EventPayload<K extends ZCodeEventType> = z.infer<(typeof EVENT_PAYLOAD_SCHEMAS)[K]>;

/** The envelope fields the translator reads (a loose type's index signature would erase them under `Omit`). */
export interface EventEnvelopeFields {
  eventId?: string;
  sessionId: string;
  seq: number;
  timestamp?: number;
  turnId?: string;
  traceId?: string;
  deliveryKind?: string;
}

/** A parsed `session/event`, discriminated by `type`. */
export type ZCodeEvent = {
  [K in ZCodeEventType]: EventEnvelopeFields & { type: K; payload: EventPayload<K> };
}[ZCodeEventType];

/**
 * Outcome of parsing: a known event, an unknown type (ignored, §11 #25), or invalid params.
 * `dropped` names the fields removed to parse it (nulls, drifted types; §5.6) — for the log.
 */
export type ParsedSessionEvent =
  | { kind: 'event'; event: ZCodeEvent; dropped: string[] }
  | { kind: 'unknown'; envelope: SessionEventEnvelope; dropped: string[] }
  | { kind: 'invalid'; error: z.ZodError; dropped: string[] };

/** True for the 25 protocol type names of §5.4. */
export function isKnownEventType(type: string): type is ZCodeEventType {
  return Object.hasOwn(EVENT_PAYLOAD_SCHEMAS, type);
}

/** Parses `session/event` params leniently: unknown keys pass, unknown types are reported, not thrown. */
export function parseSessionEvent(params: unknown): ParsedSessionEvent {
  const envelope = parseLenient(sessionEventEnvelopeSchema, params);
  if (!envelope.success) return { kind: 'invalid', error: envelope.error, dropped: envelope.dropped };
  const { type } = envelope.data;
  if (!isKnownEventType(type)) return { kind: 'unknown', envelope: envelope.data, dropped: envelope.dropped };
  const payload = parseLenient<unknown>(EVENT_PAYLOAD_SCHEMAS[type], envelope.data.payload ?? {});
  const dropped = [...envelope.dropped, ...payload.dropped.map((d) => `payload.${d}`)];
  if (!payload.success) return { kind: 'invalid', error: payload.error, dropped };
  return { kind: 'event', event: { ...envelope.data, type, payload: payload.data } as ZCodeEvent, dropped };
}

/** `state.updated` params (§5.8); `patch` is `{status}` or a Settings object depending on `reason`. */
export const stateUpdatedParamsSchema = z.looseObject({
  type: z.literal('state.updated').optional(),
  scope: z.string().default('session'),
  workspace: loose.optional(),
  sessionId: optStr,
  revision: z.number().int().nonnegative().default(0),
  reason: optStr,
  patch: z.unknown().optional(),
});
export type StateUpdatedParams = z.infer<typeof stateUpdatedParamsSchema>;

/**
 * A ModelSelection as found in events and settings (§3.2), tolerant of old `modelID` spellings:
 * the lenient reading of the one definition in src/wire/model.ts.
 */
export const modelSelectionSchema = modelSelection.lenient;
export type { ModelSelectionLike } from '../wire/model.js';

/** A ModelOption's `reasoning` (§3.6): the levels a model takes; one is required when present (§3.2). */
export const reasoningSchema = z.looseObject({
  levels: z.array(z.looseObject({ value: str, label: optStr, description: optStr })).default([]),
  defaultLevel: optStr,
});

/** The Settings object carried by most `state.updated` patches (§3.6). */
export const settingsPatchSchema = z.looseObject({
  model: z
    .looseObject({
      current: modelSelectionSchema.optional(),
      available: z
        .array(
          z.looseObject({
            ref: modelSelectionSchema,
            label: optStr,
            providerLabel: optStr,
            contextWindow: optNum,
            reasoning: reasoningSchema.optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  thoughtLevel: z
    .looseObject({
      enabled: optBool,
      current: optStr,
      available: z.array(z.looseObject({ value: str, label: optStr, description: optStr })).optional(),
    })
    .optional(),
  mode: z.looseObject({ current: optStr }).optional(),
  permission: loose.optional(),
});
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
