import { newId, type ActiveTurn, type SessionRuntime, type TurnOrigin } from '../session-runtime.js';
import { publishTitleFrame, scheduleGeneratedTitle } from '../v4-conversation.js';
import type { SimulatorCore } from '../simulator-core.js';
import { buildSettings } from '../snapshot.js';
import { runBehaviour } from '../scenarios/index.js';
import { selectBehaviour, type Behaviour } from '../scenarios/select.js';
import { TurnAborted, TurnContext, TurnFailure } from './turn-context.js';

/** What starts a turn (§4.8, §4.13, §5.5.1, §7.3). */
export interface TurnInput {
  text: string;
  origin: TurnOrigin;
  kind?: 'regular' | 'compact';
  /** Legacy lock turn (send/compact/goal): releases the -32010 lock, then writes `state.updated` (§4.8). */
  lock?: { success: string; cancelled: string; failed: string };
  inputId?: string;
  queryId?: string;
  inputSource?: string;
  inputVisibility?: 'user-visible' | 'model-only';
  behaviour?: Behaviour;
  /** The input was queued behind a running turn: `turn.steerDrained` when it starts (§5.5.2). */
  drained?: { pendingInputId: string; targetTurnId: string };
  /** Model resolution failed after the ACK: no turn events, only `prompt_failed` (§4.8 rule 3). */
  rejectBeforeStart?: string;
  /** Called once the turn has an id (e.g. to answer v4 with it). */
  onStart?: (turn: ActiveTurn) => void;
}

/** Queues a turn on the session; turns of one session run one after another. */
export function startTurn(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput): Promise<void> {
  // The turn starts after the ACK of the request that started it is written (§1.6): on the next
  // tick, or `--turn-start-ms` later (a runtime that takes a while to set the turn up).
  const delayMs = sim.options.turnStartMs;
  const afterAck = () => new Promise<void>((r) => (delayMs > 0 ? setTimeout(r, delayMs) : setImmediate(r)));
  const run = rt.turnChain.then(afterAck).then(() => runTurn(sim, rt, input));
  rt.turnChain = run.catch(() => undefined);
  return run;
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

async function runTurn(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput): Promise<void> {
  if (rt.closed) return;
  if (input.rejectBeforeStart !== undefined) {
    rt.lastError = { type: 'model_error', message: input.rejectBeforeStart };
    // The reason shows only in telemetry (APP-SERVER.md §14.3, APP-SERVER.md §5.8): no turn.* events.
    sim.notify('v4/telemetry/event', {
      version: 1,
      eventId: newId('tel'),
      eventSeq: rt.stateRevision,
      occurredAt: Date.now(),
      sessionId: rt.sessionId,
      kind: 'turn.terminal',
      status: 'failed',
      errorCode: 'MODEL_CREATION_FAILED',
      errorMessage: input.rejectBeforeStart,
      errorRetryable: false,
      turnPhase: 'model_creation',
    });
    finishLock(sim, rt, input, 'failed');
    return;
  }
  const turn: ActiveTurn = {
    turnId: newId('turn'),
    origin: input.origin,
    kind: input.kind ?? 'regular',
    abort: new AbortController(),
    foregroundExecutionId: newId('fx'),
    steerInbox: [],
  };
  rt.activeTurn = turn;
  if (rt.stopRequested && input.origin === 'legacy') turn.abort.abort();
  rt.stopRequested = false;
  rt.currentTurnId = turn.turnId;
  rt.info.status = 'running';
  input.onStart?.(turn);
  const ctx = new TurnContext(sim, rt, turn, input.text, input.inputId);
  const userMessageId = newId('msg');
  const started = Date.now();
  const sel = rt.currentSelection();

  if (input.drained) {
    ctx.emit('turn.steerDrained', {
      pendingInputIds: [input.drained.pendingInputId],
      targetTurnId: input.drained.targetTurnId,
      injectedMessageIds: [userMessageId],
    });
  }
  ctx.emit('turn.started', {
    turnNumber: rt.turnCount + 1,
    input: input.text,
    executionStartedAt: started,
    messageId: userMessageId,
    foregroundExecutionId: turn.foregroundExecutionId,
    ...(input.inputId ? { inputId: input.inputId } : {}),
    ...(input.queryId ? { queryId: input.queryId } : {}),
    ...(input.inputSource ? { inputSource: input.inputSource } : {}),
    ...(input.inputVisibility ? { inputVisibility: input.inputVisibility } : {}),
  });
  rt.operationEvent('turn-started', { turnId: turn.turnId });
  const synthetic = input.inputVisibility === 'model-only';
  rt.messages.push({
    info: {
      messageId: userMessageId,
      sessionId: rt.sessionId,
      role: 'user',
      time: { created: started },
      agent: rt.info.mode,
      ...(sel ? { model: sel } : {}),
      ...(synthetic ? { synthetic: true, visibility: 'model-only', source: input.inputSource } : {}),
    },
    parts: [
      {
        partId: newId('prt'),
        sessionId: rt.sessionId,
        messageId: userMessageId,
        type: 'text',
        text: input.text,
        ...(synthetic ? { synthetic: true } : {}),
      },
    ],
  });
  ctx.emit('message.upserted', { content: input.text });
  if (rt.info.title === '' && !synthetic && input.kind !== 'compact') {
    const title = input.text.trim().split('\n')[0]?.slice(0, 60) || 'New session';
    rt.info.title = title;
    rt.info.titleSource = 'first_input';
    // Newer CLIs announce titles only in v4 frames, and generate a better one later (APP-SERVER.md §14.4).
    if (sim.options.v4Titles) scheduleGeneratedTitle(sim, rt, input.text);
    else ctx.emit('session.titleUpdated', { messageID: userMessageId, previousTitle: '', source: 'first_input', title });
    publishTitleFrame(sim, rt);
  }
  ctx.emit('session.updated', { messageCount: rt.messages.length, providerId: sel?.providerId, modelId: sel?.modelId, iteration: 1 });
  rt.persist();

  let outcome: 'success' | 'cancelled' | 'failed' = 'success';
  let failure: TurnFailure | undefined;
  try {
    const behaviour = input.behaviour ?? selectBehaviour(input.text, sim.options.scenario, sim.options.eventRate !== undefined);
    await runBehaviour(behaviour, ctx);
  } catch (err) {
    if (err instanceof TurnAborted || turn.abort.signal.aborted) outcome = 'cancelled';
    else {
      outcome = 'failed';
      failure =
        err instanceof TurnFailure
          ? err
          : new TurnFailure({ type: 'runtime_error', message: err instanceof Error ? err.message : String(err) }, 'execution');
    }
  }
  if (rt.closed) return;
  if (turn.silent) return endSilently(sim, rt, input);

  const duration = Date.now() - started;
  const outputTokens = estimateTokens(ctx.text) + estimateTokens(ctx.reasoningText);
  const inputTokens = 400 + estimateTokens(input.text);
  const usage = {
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
  rt.usage.inputTokens += inputTokens;
  rt.usage.outputTokens += outputTokens;
  rt.usage.reasoningTokens += usage.reasoningTokens;
  rt.usage.totalTokens += usage.totalTokens;
  rt.usage.modelRequestCount += usage.modelRequestCount;
  rt.contextUsed = Math.min(rt.contextUsed + usage.totalTokens, 100_000);
  rt.turnCount++;

  if (outcome !== 'failed') {
    ctx.emit('session.updated', {
      content: ctx.text,
      stopReason: outcome === 'cancelled' ? 'aborted' : 'end_turn',
      usage: {
        inputTokens,
        outputTokens,
        totalTokens: usage.totalTokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: usage.reasoningTokens,
      },
      contextWindow: 200_000,
      toolCallCount: ctx.toolCallCount,
    });
  }
  const now = Date.now();
  rt.messages.push({
    info: {
      messageId: ctx.assistantMessageId,
      sessionId: rt.sessionId,
      role: 'assistant',
      time: { created: started, completed: now },
      parentMessageId: userMessageId,
      agent: rt.info.mode,
      ...(sel ? { model: { providerId: sel.providerId, modelId: sel.modelId } } : {}),
      path: { cwd: rt.info.workspace.workspacePath, root: rt.info.workspace.workspacePath },
      cost: 0,
      tokens: {
        total: usage.totalTokens,
        input: inputTokens,
        output: outputTokens,
        reasoning: usage.reasoningTokens,
        cache: { read: 0, write: 0 },
      },
      finish: outcome === 'success' ? 'stop' : outcome === 'cancelled' ? 'aborted' : 'error',
      ...(failure ? { error: failure.detail } : {}),
    },
    parts: ctx.parts,
  });
  ctx.emit('message.upserted', { content: ctx.text, ...(ctx.toolCalls.length > 0 ? { toolCalls: ctx.toolCalls } : {}) });
  if (failure) {
    rt.lastError = {
      type: failure.detail.type,
      message: failure.detail.message,
      ...(failure.detail.code ? { code: failure.detail.code } : {}),
    };
    rt.usage.modelErrorCount++;
    ctx.emit('turn.failed', { error: failure.detail, turnPhase: failure.turnPhase, ...(input.inputId ? { inputId: input.inputId } : {}) });
    rt.operationEvent('turn-failed', { turnId: turn.turnId });
  } else {
    ctx.emit('turn.completed', {
      response: ctx.text,
      tokenCount: usage.totalTokens,
      toolCallCount: ctx.toolCallCount,
      duration,
      resultType: outcome === 'cancelled' ? 'cancelled' : 'success',
      usage,
      historyRoundCount: rt.turnCount,
      ...(input.inputId ? { inputId: input.inputId } : {}),
    });
    rt.operationEvent('turn-completed', { turnId: turn.turnId });
  }
  rt.activeTurn = undefined;
  rt.activeToolCalls = [];
  rt.info.status = 'idle';
  rt.v4Revision++;
  rt.touch();
  rt.persist();
  finishLock(sim, rt, input, outcome);
  // Steers that never reached a tool boundary run as the next turn (§7.4 fallback to the queue).
  for (const s of turn.steerInbox) {
    void startTurn(sim, rt, { text: s.text, origin: 'v4', drained: { pendingInputId: s.pendingInputId, targetTurnId: turn.turnId } });
  }
}

/**
 * Fault `--silent-stop MS`: the engine stopped, but the legacy stream gets no terminal event
 * and no `state.updated` (APP-SERVER.md §14.1); the -32010 lock is freed silently MS ms later.
 */
function endSilently(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput): void {
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
function finishLock(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput, outcome: 'success' | 'cancelled' | 'failed'): void {
  if (!input.lock) return;
  rt.promptLock = false;
  if (outcome === 'failed') rt.info.status = 'idle';
  const reason = outcome === 'success' ? input.lock.success : outcome === 'cancelled' ? input.lock.cancelled : input.lock.failed;
  rt.stateUpdated(reason, buildSettings(rt, sim.registry, 'current'));
}
