/**
 * The payloads of a tool call's `session/event`s (docs/APP-SERVER.md §5.5.6–§5.5.8), defined
 * once: `model.streaming` (text, reasoning and tool-input deltas), `tool.updated` (a tool
 * call's life, one variant per `kind`) and the observer events around a permission. The
 * simulator emits them to the strict readings; the hub reads them leniently.
 */
import { z } from 'zod';
import { errorDetail, errorDetailLenient } from './error-detail.js';
import { permissionOption, requestOrigin, RISK_LEVELS } from './interactions.js';
import { asNumber, asString, drift, message, unread } from './message.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();
const optBool = z.boolean().optional();
const int0 = z.number().int().nonnegative();

export const STREAMING_KINDS = [
  'start',
  'finish',
  'error',
  'text_start',
  'text_delta',
  'text_end',
  'reasoning_start',
  'reasoning_delta',
  'reasoning_end',
  'tool_input_start',
  'tool_input_delta',
  'tool_input_end',
  'tool_call',
] as const;

/** `model.streaming` (§5.5.6); an unknown `kind` still reaches the hub, which ignores it. */
export const modelStreaming = message({
  kind: drift(z.enum(STREAMING_KINDS), z.string()),
  delta: optStr,
  done: optBool,
  assistantMessageId: optStr,
  partId: optStr,
  toolCallId: optStr,
  toolName: optStr,
  input: z.unknown().optional(),
  providerExecuted: unread(optBool),
});

/** Fields of every `tool.updated` variant but `batch`: they tie a sub-agent's tool to its parent. */
const toolCommon = {
  toolCallId: asString(strPlus),
  toolName: asString(strPlus.optional()),
  parentToolCallId: asString(strPlus.optional()),
  source: asString(z.literal('subagent').optional()),
  agentId: asString(z.string().optional()),
  agentType: asString(z.string().optional()),
  background: optBool,
  childSessionId: asString(strPlus.optional()),
  childToolCallId: asString(strPlus.optional()),
  description: optStr,
};

const toolResult = message({
  success: z.boolean(),
  content: z.unknown(),
  display: z.looseObject({ kind: z.string() }).optional(),
  perf: z.unknown().optional(),
  error: z.unknown().optional(),
  truncated: z.boolean().optional(),
  originalBytes: int0.optional(),
  returnedBytes: int0.optional(),
  budgetStrategy: z.string().optional(),
  artifactPath: z.string().optional(),
});

/** The extra fields of each `tool.updated` kind (§5.5.7). */
const toolKinds = {
  scheduled: {
    ...toolCommon,
    toolName: asString(strPlus),
    assistantMessageId: unread(strPlus.optional()),
    input: z.unknown().optional(),
    inputByteLength: unread(int0.optional()),
    inputOmitted: optBool,
    inputRef: unread(z.literal('model_stream').optional()),
    dependencies: unread(z.array(z.string()).optional()),
    parallelGroupIndex: unread(int0.optional()),
    canRunParallel: unread(z.boolean().optional()),
    schedule: unread(z.strictObject({ parallelGroups: z.array(z.array(z.string())), executionOrder: z.array(z.string()) }).optional()),
  },
  /** `startedAt` is ms; some CLIs send it as a string (§5.6). */
  started: { ...toolCommon, startedAt: drift(z.number(), z.union([z.number(), z.string()]).optional()) },
  progress: {
    ...toolCommon,
    elapsedMs: asNumber(int0.optional()),
    pid: unread(z.number().int().optional()),
    stdoutBytes: unread(int0.optional()),
    stderrBytes: unread(int0.optional()),
    outputBytes: unread(int0.optional()),
    outputPreview: optStr,
    stdoutTail: optStr,
    stderrTail: optStr,
  },
  result: { ...toolCommon, result: drift(toolResult.strict, z.unknown().optional()), duration: asNumber(z.number().nonnegative()) },
  error: { ...toolCommon, error: drift(errorDetail.strict, errorDetailLenient.optional()) },
  /** The only variant without a tool call id: the end of a batch of calls. */
  batch: {
    toolCallIds: drift(z.array(strPlus), z.array(z.string()).optional()),
    successCount: asNumber(int0),
    errorCount: asNumber(int0),
  },
  raw: { ...toolCommon, payload: unread(z.record(z.string(), z.unknown())) },
} as const;

const variants = Object.entries(toolKinds).map(([kind, fields]) => message({ kind: z.literal(kind), ...fields }).strict);

/**
 * `tool.updated` (§5.5.7). Strictly, one variant per `kind` with exactly its fields. The hub
 * reads one loose object with every kind's fields, all optional: `batch` has no tool call id,
 * and a kind it does not know must still pass (it is ignored, not dropped).
 */
export const toolUpdated = {
  strict: z.discriminatedUnion('kind', variants as [(typeof variants)[number], ...(typeof variants)[number][]]),
  lenient: message({
    kind: z.string(),
    ...toolKinds.raw,
    ...toolKinds.progress,
    ...toolKinds.started,
    ...toolKinds.scheduled,
    ...toolKinds.result,
    ...toolKinds.error,
    ...toolKinds.batch,
    toolName: optStr,
  }).lenient,
};

/** `permission.requested` (§5.5.8): an observer event; answering goes through the reverse request (§6.2). */
export const permissionRequested = message({
  requestId: asString(strPlus.optional()),
  toolCallId: drift(strPlus, z.string()),
  toolName: asString(strPlus),
  riskLevel: asString(z.enum(RISK_LEVELS)),
  reason: asString(z.string()),
  input: z.unknown().optional(),
  suggestedPermissionUpdates: unread(z.array(z.unknown()).optional()),
  approvalMode: unread(z.literal('user-once').optional()),
  origin: unread(requestOrigin.strict.optional()),
  options: drift(permissionOption.list(1).strict, z.array(z.unknown()).optional()),
  childSessionId: asString(strPlus.optional()),
  background: optBool,
});

/** `permission.resolved` (§5.5.8); a denial by the runtime also arrives as one, `decision: "deny"`. */
export const permissionResolved = message({
  requestId: asString(strPlus.optional()),
  toolCallId: drift(strPlus, z.string()),
  toolName: asString(strPlus.optional()),
  decision: optStr,
  reason: optStr,
  modifiedInput: unread(z.unknown().optional()),
  inputSummary: unread(z.unknown().optional()),
  childSessionId: unread(strPlus.optional()),
  background: unread(optBool),
});
