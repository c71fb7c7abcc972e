import type { z } from 'zod';
import { cancelTask } from '../background-tasks.js';
import { invalidParamsMessage, parseParams, ProtocolError, RPC } from '../protocol-error.js';
import {
  CancelBackgroundTaskParams,
  CompactParams,
  SendParams,
  SessionIdParams,
  SetModeParams,
  SetModelParams,
  SetThoughtLevelParams,
} from '../schemas/session-params.js';
import { newId, type ActiveTurn, type SessionRuntime } from '../session-runtime.js';
import type { SimulatorCore } from '../simulator-core.js';
import { buildSettings, buildSnapshot } from '../snapshot.js';
import { startTurn } from '../turn/turn-runner.js';
import { settle } from '../workflows/run-engine.js';
import { checkRestoreWarning, checkRevision } from './guards.js';

const SEND_LOCK = { success: 'prompt_completed', cancelled: 'prompt_completed', failed: 'prompt_failed' };

/** `session/send` (§4.8): errors in the listed order; `prompt_started` is written before the ACK. */
export function send(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SendParams, params);
  if (p.automationId && p.offPeakTaskId) throw invalidParamsMessage('automationId and offPeakTaskId are mutually exclusive');
  if (p.offPeakRunType && !p.offPeakTaskId) throw invalidParamsMessage('offPeakRunType requires offPeakTaskId');
  if (p.modelExecution && !p.modelSelection) throw invalidParamsMessage('modelExecution requires modelSelection');
  const rt = sim.requireActive(p.sessionId);
  if (rt.lateStop) return endLateStop(sim, rt).then(() => acceptSend(sim, rt, p));
  return acceptSend(sim, rt, p);
}

function acceptSend(sim: SimulatorCore, rt: SessionRuntime, p: z.infer<typeof SendParams>): unknown {
  if (rt.info.sessionKind === 'subagent_child')
    throw new ProtocolError(RPC.busy, 'Subagent sessions are read-only', { reasonCode: 'guard.subagentReadOnly' });
  checkRevision(rt, p.expectedRevision);
  if (rt.promptLock) throw new ProtocolError(RPC.busy, 'A prompt is already running for this session');
  checkRestoreWarning(rt);
  // A bad per-input selection is refused after the ACK: only `prompt_failed` (§4.8 rule 3, §11.11).
  // Fault `--reject-sends MESSAGE`: every send is refused at model creation, after the ACK.
  let rejectBeforeStart: string | undefined = sim.options.rejectSends;
  const sel = p.modelSelection ?? rt.currentSelection();
  if (sel && rejectBeforeStart === undefined) {
    try {
      sim.registry.resolve(sel, true);
    } catch (err) {
      rejectBeforeStart = err instanceof Error ? err.message : String(err);
    }
  }
  if (rt.activeTurn && rt.activeTurn.origin !== 'legacy' && rejectBeforeStart === undefined)
    return queueBehindUnlockedTurn(sim, rt, rt.activeTurn, p);
  rt.promptLock = true;
  if (rt.persistence === 'deferred') rt.persistence = 'immediate';
  rt.info.status = 'running';
  rt.touch();
  rt.stateUpdated('prompt_started', { status: 'running' });
  void startTurn(sim, rt, {
    text: p.content,
    origin: 'legacy',
    lock: SEND_LOCK,
    ...(p.inputId ? { inputId: p.inputId } : {}),
    ...(p.queryId ? { queryId: p.queryId } : {}),
    ...(rejectBeforeStart !== undefined ? { rejectBeforeStart } : {}),
  });
  return { sessionId: rt.sessionId, accepted: true, stateRevision: rt.stateRevision };
}

/**
 * A send during a turn that does not hold the lock (a background-task or v4 turn, §4.8 rule 4):
 * the runtime queues the input (`turn.steerQueued`, delivery `queue`), and the legacy path
 * treats that as done — `prompt_completed` right after the ACK although the queued turn has not
 * run. The queued turn runs after the current one, with the send's `inputId`, and ends with
 * `turn.completed` only: it is not a lock turn, so no `state.updated` follows it.
 */
function queueBehindUnlockedTurn(sim: SimulatorCore, rt: SessionRuntime, running: ActiveTurn, p: z.infer<typeof SendParams>): unknown {
  if (rt.persistence === 'deferred') rt.persistence = 'immediate';
  rt.touch();
  rt.stateUpdated('prompt_started', { status: 'running' });
  const pendingInputId = newId('input');
  rt.emit(
    'turn.steerQueued',
    {
      pendingInputId,
      ...(p.inputId ? { inputId: p.inputId } : {}),
      input: p.content,
      inputPreview: p.content.slice(0, 120),
      inputSize: p.content.length,
      commandKind: 'sendText',
      delivery: 'queue',
      targetTurnId: running.turnId,
      queueLength: 1,
    },
    running.turnId,
  );
  void startTurn(sim, rt, {
    text: p.content,
    origin: 'v4',
    drained: { pendingInputId, targetTurnId: running.turnId },
    ...(p.inputId ? { inputId: p.inputId } : {}),
    ...(p.queryId ? { queryId: p.queryId } : {}),
  });
  setImmediate(() => rt.stateUpdated('prompt_completed', buildSettings(rt, sim.registry, 'current')));
  return { sessionId: rt.sessionId, accepted: true, stateRevision: rt.stateRevision };
}

/**
 * Fault `--late-stop`: the stop is answered but the turn runs on until the next `session/send`
 * of the session arrives; that send first ends the stopped turn (`turn.completed` cancelled,
 * lock released, `prompt_completed`) and is then accepted — the runtime finalising a stop just
 * as the next input comes in, so the old turn's boundary reaches the host after it sent.
 */
export function deferStop(sim: SimulatorCore, rt: SessionRuntime, turn: ActiveTurn, via: string): void {
  sim.log.warn({ sessionId: rt.sessionId, via }, 'fault --late-stop: stop answered, turn left running until the next send');
  rt.lateStop = turn;
}

async function endLateStop(sim: SimulatorCore, rt: SessionRuntime): Promise<void> {
  const turn = rt.lateStop;
  rt.lateStop = undefined;
  if (!turn || rt.activeTurn !== turn) return;
  pauseGoal(sim, rt, 'session_stop_goal_paused');
  turn.abort.abort();
  await rt.turnChain;
}

/** Pauses an active goal (stop and v4 stop pause it first, §4.9). */
export function pauseGoal(sim: SimulatorCore, rt: SessionRuntime, reason: string): void {
  if (rt.goal?.status !== 'active') return;
  rt.goal.status = 'paused';
  rt.goal.updatedAt = Date.now();
  rt.stateUpdated(reason, buildSettings(rt, sim.registry, 'current'));
}

/** `session/stop` (§4.9): aborts only turns started by send/compact/goal; idle → no-op. */
export function stop(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SessionIdParams, params);
  const rt = sim.requireActive(p.sessionId);
  const turn = rt.activeTurn;
  if (sim.options.ignoreStop) {
    // Fault `--ignore-stop`: a stop that produces no terminal event (§11 item 7, §14.1).
    sim.log.warn({ sessionId: rt.sessionId }, 'fault --ignore-stop: session/stop answered, turn left running');
    return {};
  }
  if (sim.options.lateStop && turn) {
    deferStop(sim, rt, turn, 'session/stop');
    return {};
  }
  if (sim.options.silentStop !== undefined && turn) {
    turn.silent = true;
    turn.abort.abort();
    return {};
  }
  if (turn && turn.origin === 'legacy') {
    pauseGoal(sim, rt, 'session_stop_goal_paused');
    turn.abort.abort();
  } else if (!turn && rt.promptLock && !rt.silentLock) {
    // The send was ACKed but its turn has not started yet: cancel it as soon as it does.
    rt.stopRequested = true;
  }
  return {};
}

/** `session/cancelBackgroundTask` (§4.10). */
export function cancelBackgroundTask(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(CancelBackgroundTaskParams, params);
  const rt = sim.requireActive(p.sessionId);
  const run = sim.runs.get(p.taskId);
  if (run && run.sessionId === rt.sessionId && run.status === 'running') {
    settle(sim, rt, run, 'stopped');
    rt.stateUpdated('background_task_cancelled', buildSettings(rt, sim.registry, 'current'));
    return { cancelled: true, status: 'cancelled', taskId: p.taskId, snapshot: rt.backgroundJobs.get(p.taskId) };
  }
  const r = cancelTask(rt, p.taskId);
  if (!r.ok)
    return {
      cancelled: false,
      reason: r.reason,
      status: r.task?.status ?? 'lost',
      taskId: p.taskId,
      ...(r.task ? { snapshot: r.task } : {}),
    };
  rt.stateUpdated('background_task_cancelled', buildSettings(rt, sim.registry, 'current'));
  return { cancelled: true, status: r.task.status, taskId: p.taskId, snapshot: r.task };
}

/** `session/compact` (§4.13): a stoppable background turn with the compact `state.updated` reasons. */
export function compact(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(CompactParams, params);
  const rt = sim.requireActive(p.sessionId);
  checkRevision(rt, p.expectedRevision);
  if (rt.activeTurn?.kind === 'compact')
    return { response: '', snapshot: buildSnapshot(rt, sim.registry, 'current'), compact: { state: 'already_running' } };
  if (rt.promptLock || rt.activeTurn) throw new ProtocolError(RPC.busy, 'Cannot compact while a prompt is running');
  checkRestoreWarning(rt);
  const operationId = newId('compact');
  const inputId = p.inputId ?? newId('input');
  rt.promptLock = true;
  rt.info.status = 'running';
  rt.stateUpdated('compact_started', { status: 'running' });
  rt.emit('session.updated', { operationId, status: 'started' });
  void startTurn(sim, rt, {
    text: `/compact${p.instructions ? ` ${p.instructions}` : ''}`,
    origin: 'legacy',
    kind: 'compact',
    behaviour: 'compact',
    inputId,
    lock: { success: 'session_compacted', cancelled: 'session_compact_cancelled', failed: 'session_compact_failed' },
  }).then(() => rt.emit('session.updated', { operationId, status: 'completed' }));
  return { response: '', snapshot: buildSnapshot(rt, sim.registry, 'current'), compact: { state: 'accepted', inputId, operationId } };
}

/** `session/setMode` (§4.14). */
export function setMode(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SetModeParams, params);
  const rt = sim.requireActive(p.sessionId);
  checkRevision(rt, p.expectedRevision);
  const previousMode = rt.info.mode;
  rt.info.mode = p.mode;
  rt.touch();
  rt.emit('session.updated', { mode: p.mode, previousMode, source: 'command' });
  rt.stateUpdated('mode_changed', buildSettings(rt, sim.registry, 'current'));
  rt.persist();
  return buildSnapshot(rt, sim.registry, 'current');
}

/** `session/setThoughtLevel` (§4.14): missing level → -32602; unsupported → -32603. */
export function setThoughtLevel(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SetThoughtLevelParams, params);
  if (p.thoughtLevel === undefined) throw invalidParamsMessage('thoughtLevel is required');
  const rt = sim.requireActive(p.sessionId);
  checkRevision(rt, p.expectedRevision);
  const m = rt.info.model;
  if (m) sim.registry.resolve({ ...m, options: { reasoningLevel: p.thoughtLevel } }, true);
  rt.thoughtLevel = p.thoughtLevel;
  rt.stateUpdated('thought_level_changed', buildSettings(rt, sim.registry, 'current'));
  rt.persist();
  return buildSnapshot(rt, sim.registry, 'current');
}

/** `session/setModel` (§4.14): validated by the registry; switching mid-turn ends the turn. */
export function setModel(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(SetModelParams, params);
  const rt = sim.requireActive(p.sessionId);
  checkRevision(rt, p.expectedRevision);
  const entry = sim.registry.resolve(p.model, true);
  const previousModelSelection = rt.currentSelection();
  rt.info.model = { providerId: entry.providerId, modelId: entry.modelId };
  rt.thoughtLevel = p.model.options?.reasoningLevel;
  rt.restoreWarning = undefined;
  rt.touch();
  rt.emit('session.updated', {
    modelSelection: p.model,
    ...(previousModelSelection ? { previousModelSelection } : {}),
    origin: 'command',
    contextWindow: entry.contextWindow,
    ...(entry.levels ? { supportedThoughtLevels: entry.levels } : {}),
  });
  rt.stateUpdated('model_changed', buildSettings(rt, sim.registry, 'current'));
  rt.activeTurn?.abort.abort();
  rt.persist();
  return buildSnapshot(rt, sim.registry, 'current');
}
