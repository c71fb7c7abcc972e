import type { SessionRuntime } from '../session-runtime.js';
import type { SimulatorCore } from '../simulator-core.js';
import { buildSettings } from '../snapshot.js';
import type { TurnContext, TurnFailure } from './turn-context.js';
import type { TurnInput, TurnOpening } from './turn-start.js';

/** How a turn's script ended: a failure carries what `turn.failed` reports. */
export type TurnResult = { outcome: 'success' } | { outcome: 'cancelled' } | { outcome: 'failed'; failure: TurnFailure };

type Outcome = TurnResult['outcome'];

/** The usage a turn reports in `turn.completed` (§5.5.3), estimated from the text it streamed. */
type TurnUsage = ReturnType<typeof estimateUsage>;

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The end phase (§5.5.3, §5.5.4): usage counted, the assistant message stored, the terminal
 * event written, the session idle and saved, and a legacy lock released.
 */
export function closeTurn(sim: SimulatorCore, opening: TurnOpening, input: TurnInput, result: TurnResult): void {
  const { ctx, started } = opening;
  const rt = ctx.rt;
  const duration = Date.now() - started;
  const usage = estimateUsage(ctx, input);
  addUsage(rt, usage);
  if (result.outcome !== 'failed') emitFinalUpdate(ctx, usage, result.outcome);
  recordAssistantMessage(opening, usage, result);
  ctx.emit('message.upserted', { content: ctx.text, ...(ctx.toolCalls.length > 0 ? { toolCalls: ctx.toolCalls } : {}) });
  if (result.outcome === 'failed') emitFailed(ctx, input, result.failure);
  else emitCompleted(ctx, input, usage, duration, result.outcome);
  rt.activeTurn = undefined;
  rt.activeToolCalls = [];
  rt.info.status = 'idle';
  rt.v4Revision++;
  rt.touch();
  rt.persist();
  finishLock(sim, rt, input, result.outcome);
}

function estimateUsage(ctx: TurnContext, input: TurnInput) {
  const outputTokens = estimateTokens(ctx.text) + estimateTokens(ctx.reasoningText);
  const inputTokens = 400 + estimateTokens(input.text);
  return {
    source: 'provider' as const,
    modelRequestCount: 1 + ctx.toolCallCount,
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: estimateTokens(ctx.reasoningText),
    webFetchRequests: 0,
    webSearchRequests: 0,
  };
}

/** The session's running totals, its context use (capped) and its turn count. */
function addUsage(rt: SessionRuntime, usage: TurnUsage): void {
  rt.usage.inputTokens += usage.inputTokens;
  rt.usage.outputTokens += usage.outputTokens;
  rt.usage.reasoningTokens += usage.reasoningTokens;
  rt.usage.totalTokens += usage.totalTokens;
  rt.usage.modelRequestCount += usage.modelRequestCount;
  rt.contextUsed = Math.min(rt.contextUsed + usage.totalTokens, 100_000);
  rt.turnCount++;
}

/** The `session.updated` with the turn's answer and stop reason; a failed turn has none. */
function emitFinalUpdate(ctx: TurnContext, usage: TurnUsage, outcome: 'success' | 'cancelled'): void {
  ctx.emit('session.updated', {
    content: ctx.text,
    stopReason: outcome === 'cancelled' ? 'aborted' : 'end_turn',
    usage: {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: usage.reasoningTokens,
    },
    contextWindow: 200_000,
    toolCallCount: ctx.toolCallCount,
  });
}

/** The assistant message joins the history with its parts, tokens and how it finished. */
function recordAssistantMessage({ ctx, userMessageId, started, selection: sel }: TurnOpening, usage: TurnUsage, result: TurnResult): void {
  const rt = ctx.rt;
  const failure = result.outcome === 'failed' ? result.failure : undefined;
  rt.messages.push({
    info: {
      messageId: ctx.assistantMessageId,
      sessionId: rt.sessionId,
      role: 'assistant',
      time: { created: started, completed: Date.now() },
      parentMessageId: userMessageId,
      agent: rt.info.mode,
      ...(sel ? { model: { providerId: sel.providerId, modelId: sel.modelId } } : {}),
      path: { cwd: rt.info.workspace.workspacePath, root: rt.info.workspace.workspacePath },
      cost: 0,
      tokens: {
        total: usage.totalTokens,
        input: usage.inputTokens,
        output: usage.outputTokens,
        reasoning: usage.reasoningTokens,
        cache: { read: 0, write: 0 },
      },
      finish: result.outcome === 'success' ? 'stop' : result.outcome === 'cancelled' ? 'aborted' : 'error',
      ...(failure ? { error: failure.detail } : {}),
    },
    parts: ctx.parts,
  });
}

function emitFailed(ctx: TurnContext, input: TurnInput, failure: TurnFailure): void {
  const rt = ctx.rt;
  rt.lastError = {
    type: failure.detail.type,
    message: failure.detail.message,
    ...(failure.detail.code ? { code: failure.detail.code } : {}),
  };
  rt.usage.modelErrorCount++;
  ctx.emit('turn.failed', { error: failure.detail, turnPhase: failure.turnPhase, ...(input.inputId ? { inputId: input.inputId } : {}) });
  rt.operationEvent('turn-failed', { turnId: ctx.turnId });
}

function emitCompleted(ctx: TurnContext, input: TurnInput, usage: TurnUsage, duration: number, outcome: 'success' | 'cancelled'): void {
  ctx.emit('turn.completed', {
    response: ctx.text,
    tokenCount: usage.totalTokens,
    toolCallCount: ctx.toolCallCount,
    duration,
    resultType: outcome === 'cancelled' ? 'cancelled' : 'success',
    usage,
    historyRoundCount: ctx.rt.turnCount,
    ...(input.inputId ? { inputId: input.inputId } : {}),
  });
  ctx.rt.operationEvent('turn-completed', { turnId: ctx.turnId });
}

/**
 * Fault `--silent-stop MS`: the engine stopped, but the legacy stream gets no terminal event
 * and no `state.updated` (APP-SERVER.md §14.1); the -32010 lock is freed silently MS ms later.
 */
export function endSilently(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput): void {
  rt.activeTurn = undefined;
  rt.activeToolCalls = [];
  rt.info.status = 'idle';
  rt.persist();
  if (!input.lock) return;
  rt.silentLock = true;
  setTimeout(() => {
    rt.promptLock = false;
    rt.silentLock = false;
  }, sim.options.silentStop ?? 0);
}

/** §4.8 rule 2: the lock is released *before* `state.updated prompt_completed|prompt_failed`. */
export function finishLock(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput, outcome: Outcome): void {
  if (!input.lock) return;
  rt.promptLock = false;
  if (outcome === 'failed') rt.info.status = 'idle';
  const reason = outcome === 'success' ? input.lock.success : outcome === 'cancelled' ? input.lock.cancelled : input.lock.failed;
  rt.stateUpdated(reason, buildSettings(rt, sim.registry, 'current'));
}
