/**
 * The payloads of a turn's `session/event`s (docs/APP-SERVER.md §5.5.1–§5.5.4), defined once:
 * the simulator emits them to the strict readings; the hub reads them leniently (through
 * src/acp/zcode-event-schema.ts), where older CLIs leave out most fields and drift their types.
 */
import { z } from 'zod';
import { errorDetailField } from './error-detail.js';
import { asNumber, asString, drift, message, unread } from './message.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();
const int0 = z.number().int().nonnegative();

export const INPUT_VISIBILITIES = ['user-visible', 'model-only'] as const;

const turnAttachment = message({ fileName: z.string(), mime: z.string(), bytes: int0, ref: z.unknown().optional() });

/** `turn.started` (§5.5.1). */
export const turnStarted = message({
  turnNumber: asNumber(int0),
  input: asString(z.string()),
  executionStartedAt: unread(z.number().nonnegative().optional()),
  inputId: asString(strPlus.optional()),
  queryId: asString(strPlus.optional()),
  messageId: asString(strPlus.optional()),
  targetId: unread(strPlus.optional()),
  foregroundExecutionId: asString(strPlus.optional()),
  inputSource: optStr,
  inputVisibility: asString(z.enum(INPUT_VISIBILITIES).optional()),
  executionKind: asString(z.enum(['agent', 'controlOnly']).optional()),
  backgroundSource: asString(z.enum(['bash', 'subagent', 'workflow']).optional()),
  intent: unread(z.record(z.string(), z.unknown()).optional()),
  originMeta: unread(z.record(z.string(), z.unknown()).optional()),
  attachments: unread(z.array(turnAttachment.strict).optional()),
});

const STEER_DELIVERIES = ['queue', 'guide'] as const;

/** `turn.steerQueued` (§5.5.2): an input accepted while a turn runs. */
export const turnSteerQueued = message({
  pendingInputId: asString(strPlus),
  inputId: asString(strPlus.optional()),
  queryId: unread(strPlus.optional()),
  input: asString(z.string()),
  inputPreview: asString(z.string()),
  inputSize: unread(int0),
  commandKind: unread(z.enum(['sendText', 'sendGoalCommand', 'compact']).optional()),
  source: asString(z.enum(['plan_approval_feedback', 'workflow_refine_feedback']).optional()),
  toolDisallowlist: unread(z.array(z.string()).optional()),
  delivery: asString(z.enum(STEER_DELIVERIES).optional()),
  targetTurnId: asString(strPlus),
  queueLength: asNumber(int0),
  intent: unread(z.record(z.string(), z.unknown()).optional()),
});

const drainedInput = message({
  pendingInputId: asString(strPlus),
  messageId: asString(strPlus),
  text: asString(z.string()),
  delivery: asString(z.enum(STEER_DELIVERIES).optional()),
  intent: unread(z.record(z.string(), z.unknown()).optional()),
  toolDisallowlist: unread(z.array(z.string()).optional()),
});

/** `turn.steerDrained` (§5.5.2): queued inputs injected into the running turn. */
export const turnSteerDrained = message({
  pendingInputIds: drift(z.array(z.string()), z.array(z.string()).optional()),
  queryIds: unread(z.array(z.string()).optional()),
  targetTurnId: asString(strPlus),
  injectedMessageIds: drift(z.array(z.string()), z.array(z.string()).optional()),
  drainedInputs: drift(drainedInput.list().strict.optional(), drainedInput.list().lenient.optional()),
});

/** A turn's usage totals (§5.5.3) — also model_complete's usage, which the hub reads the same way. */
export const usage = message({
  source: asString(z.literal('provider')),
  modelRequestCount: asNumber(int0),
  inputTokens: asNumber(int0),
  outputTokens: asNumber(int0),
  totalTokens: asNumber(int0),
  cacheReadTokens: asNumber(int0),
  cacheWriteTokens: asNumber(int0),
  reasoningTokens: asNumber(int0),
  webFetchRequests: unread(int0),
  webSearchRequests: unread(int0),
});
export type Usage = z.infer<typeof usage.lenient>;

export const RESULT_TYPES = [
  'success',
  'cancelled',
  'error_max_turns',
  'error_max_budget',
  'error_during_execution',
  'error_max_tool_calls',
] as const;

const cacheStats = message({
  totalMessages: unread(int0),
  cachedMessages: unread(int0),
  lastCacheHit: unread(z.boolean()),
  cacheReadTokens: unread(int0.optional()),
});

/** `turn.completed` (§5.5.3): every ending that is not a runtime error, a user stop included. */
export const turnCompleted = message({
  response: asString(z.string()),
  tokenCount: asNumber(int0),
  toolCallCount: asNumber(int0),
  duration: asNumber(z.number().nonnegative()),
  /** An older CLI without it ended its turns successfully. */
  resultType: drift(z.enum(RESULT_TYPES), z.string().default('success')),
  usage: usage.optional(),
  historyRoundCount: asNumber(int0.optional()),
  cacheStats: cacheStats.optional(),
  inputId: asString(strPlus.optional()),
  backgroundSubagentResultConsumed: unread(z.boolean().optional()),
});

/** `turn.failed` (§5.5.4): a runtime error. */
export const turnFailed = message({
  error: drift(errorDetailField.strict, errorDetailField.lenient.default({ message: '' })),
  turnPhase: asString(z.string()),
  inputId: asString(strPlus.optional()),
  backgroundSubagentResultConsumed: unread(z.boolean().optional()),
});
