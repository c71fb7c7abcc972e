/**
 * The payloads of a turn's `session/event`s (docs/APP-SERVER.md §5.5.1–§5.5.4), defined once:
 * the simulator emits them to the strict readings; the hub reads them leniently (through
 * src/acp/zcode-event-schema.ts), where older CLIs leave out most fields and drift their types.
 */
import { z } from 'zod';
import { errorDetailField } from './error-detail.js';
import { drift, message, unread } from './message.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();
const optNum = z.number().optional();
const int0 = z.number().int().nonnegative();
/** A field the contract types narrowly and the hub reads as any optional string. */
const asStr = <S extends z.ZodType>(strict: S) => drift(strict, optStr);
/** A field the contract types narrowly and the hub reads as any optional number. */
const asNum = <S extends z.ZodType>(strict: S) => drift(strict, optNum);

export const INPUT_VISIBILITIES = ['user-visible', 'model-only'] as const;

const turnAttachment = message({ fileName: z.string(), mime: z.string(), bytes: int0, ref: z.unknown().optional() });

/** `turn.started` (§5.5.1). */
export const turnStarted = message({
  turnNumber: asNum(int0),
  input: asStr(z.string()),
  executionStartedAt: unread(z.number().nonnegative().optional()),
  inputId: asStr(strPlus.optional()),
  queryId: asStr(strPlus.optional()),
  messageId: asStr(strPlus.optional()),
  targetId: unread(strPlus.optional()),
  foregroundExecutionId: asStr(strPlus.optional()),
  inputSource: optStr,
  inputVisibility: asStr(z.enum(INPUT_VISIBILITIES).optional()),
  executionKind: asStr(z.enum(['agent', 'controlOnly']).optional()),
  backgroundSource: asStr(z.enum(['bash', 'subagent', 'workflow']).optional()),
  intent: unread(z.record(z.string(), z.unknown()).optional()),
  originMeta: unread(z.record(z.string(), z.unknown()).optional()),
  attachments: unread(z.array(turnAttachment.strict).optional()),
});

const STEER_DELIVERIES = ['queue', 'guide'] as const;

/** `turn.steerQueued` (§5.5.2): an input accepted while a turn runs. */
export const turnSteerQueued = message({
  pendingInputId: asStr(strPlus),
  inputId: asStr(strPlus.optional()),
  queryId: unread(strPlus.optional()),
  input: asStr(z.string()),
  inputPreview: asStr(z.string()),
  inputSize: unread(int0),
  commandKind: unread(z.enum(['sendText', 'sendGoalCommand', 'compact']).optional()),
  source: asStr(z.enum(['plan_approval_feedback', 'workflow_refine_feedback']).optional()),
  toolDisallowlist: unread(z.array(z.string()).optional()),
  delivery: asStr(z.enum(STEER_DELIVERIES).optional()),
  targetTurnId: asStr(strPlus),
  queueLength: asNum(int0),
  intent: unread(z.record(z.string(), z.unknown()).optional()),
});

const drainedInput = message({
  pendingInputId: asStr(strPlus),
  messageId: asStr(strPlus),
  text: asStr(z.string()),
  delivery: asStr(z.enum(STEER_DELIVERIES).optional()),
  intent: unread(z.record(z.string(), z.unknown()).optional()),
  toolDisallowlist: unread(z.array(z.string()).optional()),
});

/** `turn.steerDrained` (§5.5.2): queued inputs injected into the running turn. */
export const turnSteerDrained = message({
  pendingInputIds: drift(z.array(z.string()), z.array(z.string()).optional()),
  queryIds: unread(z.array(z.string()).optional()),
  targetTurnId: asStr(strPlus),
  injectedMessageIds: drift(z.array(z.string()), z.array(z.string()).optional()),
  drainedInputs: drift(drainedInput.list().strict.optional(), drainedInput.list().lenient.optional()),
});

/** A turn's usage totals (§5.5.3) — also model_complete's usage, which the hub reads the same way. */
export const usage = message({
  source: asStr(z.literal('provider')),
  modelRequestCount: asNum(int0),
  inputTokens: asNum(int0),
  outputTokens: asNum(int0),
  totalTokens: asNum(int0),
  cacheReadTokens: asNum(int0),
  cacheWriteTokens: asNum(int0),
  reasoningTokens: asNum(int0),
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
  response: asStr(z.string()),
  tokenCount: asNum(int0),
  toolCallCount: asNum(int0),
  duration: asNum(z.number().nonnegative()),
  /** An older CLI without it ended its turns successfully. */
  resultType: drift(z.enum(RESULT_TYPES), z.string().default('success')),
  usage: usage.optional(),
  historyRoundCount: asNum(int0.optional()),
  cacheStats: cacheStats.optional(),
  inputId: asStr(strPlus.optional()),
  backgroundSubagentResultConsumed: unread(z.boolean().optional()),
});

/** `turn.failed` (§5.5.4): a runtime error. */
export const turnFailed = message({
  error: drift(errorDetailField.strict, errorDetailField.lenient.default({ message: '' })),
  turnPhase: asStr(z.string()),
  inputId: asStr(strPlus.optional()),
  backgroundSubagentResultConsumed: unread(z.boolean().optional()),
});
