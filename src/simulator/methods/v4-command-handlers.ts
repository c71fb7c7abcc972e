import { randomUUID } from 'node:crypto';
import { publishTitleFrame } from '../v4-conversation.js';
import { cancelTask } from '../background-tasks.js';
import type { CommandEnvelope } from '../schemas/v4-params.js';
import type { V4CommandType } from '../../wire/v4.js';
import type { Sent } from '../../wire/message.js';
import type { startSavedWorkflowResult } from '../../wire/workflow-runs.js';
import { newId, type SessionRuntime, type V4Ack } from '../session-runtime.js';
import type { SimulatorCore } from '../simulator-core.js';
import { buildSettings } from '../snapshot.js';
import { startTurn } from '../turn/turn-runner.js';
import { driveRun, settle } from '../workflows/run-engine.js';
import { readWorkflow, NAME_PATTERN } from '../workflows/store.js';
import { deferStop, pauseGoal } from './session-control.js';

export type Decision = Pick<V4Ack, 'status' | 'reasonCode' | 'message' | 'result'>;
type P = Record<string, unknown>;

const accepted = (result?: Record<string, unknown>): Decision => ({ status: 'accepted', ...(result ? { result } : {}) });
const failed = (reasonCode: string, message: string): Decision => ({ status: 'failed', reasonCode, message });

function busy(rt: SessionRuntime): boolean {
  return rt.activeTurn !== undefined || rt.promptLock;
}

/** sendText (§7.3, §7.4): idle → startNow; busy → queue / guide (steer) / startNow preemption. */
function sendText(sim: SimulatorCore, rt: SessionRuntime, p: P, env: CommandEnvelope): Decision {
  const text = String(p['text'] ?? '');
  if (text.trim() === '') return failed('proto.invalidPayload', 'input must not be empty');
  const sel = p['modelSelection'] as { providerId: string; modelId: string; options?: { reasoningLevel?: string } } | undefined;
  if (sel) {
    try {
      sim.registry.resolve(sel, true);
    } catch (err) {
      return failed('fault.command.inputRejected', err instanceof Error ? err.message : String(err));
    }
  }
  const inputId = env.commandId;
  if (!busy(rt)) {
    void startTurn(sim, rt, { text, origin: 'v4', inputId });
    return accepted({ type: 'inputAccepted', delivery: 'startNow', inputId });
  }
  const delivery = (p['requestedDelivery'] as string | undefined) ?? rt.followupMode;
  if (delivery === 'startNow') {
    rt.activeTurn?.abort.abort();
    void startTurn(sim, rt, { text, origin: 'v4', inputId });
    return accepted({ type: 'inputAccepted', delivery: 'startNow', inputId });
  }
  const pendingInputId = `queue_${env.commandId}`;
  const targetTurnId = rt.activeTurn?.turnId ?? rt.currentTurnId ?? 'pending';
  const queued = (queueLength: number, d: 'queue' | 'guide'): void =>
    rt.emit(
      'turn.steerQueued',
      {
        pendingInputId,
        inputId,
        input: text,
        inputPreview: text.slice(0, 120),
        inputSize: text.length,
        commandKind: 'sendText',
        delivery: d,
        targetTurnId,
        queueLength,
      },
      rt.activeTurn?.turnId,
    );
  if (delivery === 'guide' && rt.activeTurn && !p['attachments']) {
    // Injected after the next tool batch; unconsumed steers run as the next turn (turn-runner).
    rt.activeTurn.steerInbox.push({ pendingInputId, text });
    queued(rt.activeTurn.steerInbox.length, 'guide');
  } else {
    queued(1, 'queue');
    void startTurn(sim, rt, { text, origin: 'v4', inputId, drained: { pendingInputId, targetTurnId } });
  }
  return accepted({ type: 'inputAccepted', delivery: 'queue', inputId });
}

/** stop (§7.4): any foreground execution; idle → accepted; wrong expected execution → noop. */
function stop(sim: SimulatorCore, rt: SessionRuntime, p: P): Decision {
  const expected = p['expectedForegroundExecutionId'];
  const turn = rt.activeTurn;
  if (typeof expected === 'string' && turn?.foregroundExecutionId !== expected)
    return { status: 'noop', reasonCode: 'guard.stopTargetChanged', message: 'The expected execution is not running' };
  if (sim.options.ignoreStop) {
    // Fault `--ignore-stop`: accepted, yet no terminal event follows (§11 item 7, §14.1).
    sim.log.warn({ sessionId: rt.sessionId }, 'fault --ignore-stop: v4 stop accepted, turn left running');
    return accepted();
  }
  if (sim.options.lateStop && turn) {
    deferStop(sim, rt, turn, 'v4 stop');
    return accepted();
  }
  if (sim.options.silentStop !== undefined && turn) {
    turn.silent = true;
    turn.abort.abort();
    return accepted();
  }
  pauseGoal(sim, rt, 'session_stop_goal_paused');
  turn?.abort.abort();
  return accepted();
}

/** startSavedWorkflow (§7.3, §8): a run with nodes, events and one artifact, finishing in ~3 s. */
function startSavedWorkflow(sim: SimulatorCore, rt: SessionRuntime, p: P): Decision {
  const name = String(p['name']);
  const code = 'fault.command.savedWorkflowStartRejected.';
  if (!NAME_PATTERN.test(name)) return failed(`${code}invalid_name`, `Invalid workflow name: ${name}`);
  const scope = p['scope'] as 'project' | 'global' | undefined;
  const w = readWorkflow(rt.info.workspace.workspacePath, sim.options.home, name, scope);
  if ('ok' in w)
    return failed(w.reason === 'not_found' ? `${code}not_found` : `${code}compile_failed`, w.detail ?? `Saved workflow not found: ${name}`);
  const args = (p['args'] as Record<string, unknown> | undefined) ?? {};
  const missing = Object.entries(w.meta.args ?? {})
    .filter(([k, d]) => d.required && args[k] === undefined && d.default === undefined)
    .map(([k]) => k);
  if (missing.length > 0) return failed(`${code}invalid_args`, `Missing required args: ${missing.join(', ')}`);
  if (rt.promptLock) return failed(`${code}session_busy`, 'A prompt is already running for this session');
  const defaults = Object.fromEntries(
    Object.entries(w.meta.args ?? {})
      .filter(([, d]) => d.default !== undefined)
      .map(([k, d]) => [k, d.default]),
  );
  const now = Date.now();
  const runId = newId('wfrun');
  const toolCallId = `launch-${randomUUID()}`;
  const run = {
    runId,
    name,
    scope: w.scope,
    sessionId: rt.sessionId,
    cwd: rt.info.workspace.workspacePath,
    toolCallId,
    status: 'pending' as const,
    createdAt: now,
    updatedAt: now,
    spentTokens: 0,
    args: { ...defaults, ...args },
    script: w.script,
    events: [],
    artifacts: [],
    nodes: [],
    timers: [],
  };
  sim.runs.add(run);
  driveRun(sim, rt, run);
  void startTurn(sim, rt, {
    text: `Started saved workflow "${name}" (run ${runId}).`,
    origin: 'workflow',
    inputSource: 'workflow_launch',
    inputVisibility: 'model-only',
    behaviour: 'workflow-launch',
  });
  const result: Sent<typeof startSavedWorkflowResult> = { type: 'startSavedWorkflow', runId, toolCallId };
  return accepted(result);
}

function resumeWorkflowRun(sim: SimulatorCore, rt: SessionRuntime, p: P): Decision {
  const code = 'fault.command.workflowRunResumeRejected.';
  const run = sim.runs.get(String(p['workId']));
  if (!run || run.sessionId !== rt.sessionId) return failed(`${code}not_found`, `Workflow run not found: ${String(p['workId'])}`);
  if (run.status === 'running' || run.status === 'pending') return failed(`${code}already_running`, 'The run is already running');
  if (run.status === 'completed') return failed(`${code}not_resumable`, 'The run already completed');
  run.resumedFrom = run.runId;
  delete run.stopReason;
  driveRun(sim, rt, run);
  return accepted();
}

function cancelBackgroundWork(sim: SimulatorCore, rt: SessionRuntime, p: P): Decision {
  const code = 'fault.command.backgroundWorkCancelRejected.';
  const workId = String(p['workId']);
  const run = sim.runs.get(workId);
  if (run && run.sessionId === rt.sessionId) {
    if (run.status !== 'running' && run.status !== 'pending') return failed(`${code}not_running`, 'The run is not running');
    settle(sim, rt, run, 'stopped');
    return accepted();
  }
  const r = cancelTask(rt, workId);
  if (!r.ok) return failed(`${code}${r.reason}`, `Background work ${workId}: ${r.reason}`);
  return accepted();
}

function setMode(sim: SimulatorCore, rt: SessionRuntime, p: P): Decision {
  const mode = p['mode'] as typeof rt.info.mode;
  const previousMode = rt.info.mode;
  rt.info.mode = mode;
  rt.emit('session.updated', { mode, previousMode, source: 'command' });
  rt.stateUpdated('mode_changed', buildSettings(rt, sim.registry, 'current'));
  rt.persist();
  return accepted();
}

function switchModelConfig(sim: SimulatorCore, rt: SessionRuntime, p: P): Decision {
  const thought = typeof p['thought'] === 'string' ? p['thought'] : undefined;
  const entry = sim.registry.resolve(
    { providerId: String(p['provider']), modelId: String(p['model']), ...(thought ? { options: { reasoningLevel: thought } } : {}) },
    true,
  );
  rt.info.model = { providerId: entry.providerId, modelId: entry.modelId };
  rt.thoughtLevel = thought;
  rt.stateUpdated('model_changed', buildSettings(rt, sim.registry, 'current'));
  rt.persist();
  return accepted();
}

function renameSession(sim: SimulatorCore, rt: SessionRuntime, p: P): Decision {
  const previousTitle = rt.info.title;
  rt.info.title = String(p['title']);
  rt.info.titleSource = 'custom';
  rt.touch();
  if (!sim.options.v4Titles) rt.emit('session.titleUpdated', { previousTitle, source: 'custom', title: rt.info.title });
  publishTitleFrame(sim, rt);
  rt.persist();
  return accepted();
}

function deleteSession(sim: SimulatorCore, rt: SessionRuntime): Decision {
  rt.emit('session.closed', { reason: 'deleted' });
  sim.unload(rt);
  sim.store.delete(rt.sessionId);
  return accepted();
}

function pauseGoalCommand(sim: SimulatorCore, rt: SessionRuntime): Decision {
  if (rt.goal?.status !== 'active') return { status: 'noop', reasonCode: 'guard.noActiveGoal' };
  pauseGoal(sim, rt, 'goal_paused');
  rt.activeTurn?.abort.abort();
  return accepted();
}

function resumeGoal(sim: SimulatorCore, rt: SessionRuntime): Decision {
  if (rt.goal?.status !== 'paused') return { status: 'noop', reasonCode: 'guard.noPausedGoal' };
  rt.goal.status = 'active';
  rt.stateUpdated('goal_resumed', buildSettings(rt, sim.registry, 'current'));
  return accepted();
}

export type Handler = (sim: SimulatorCore, rt: SessionRuntime, p: P, env: CommandEnvelope) => Decision;

/**
 * Every command type of the wire (§7.3) with its handler, or `null`: known, not simulated
 * (refused `fault.command.notImplemented`). The type refuses a missing or an extra entry, so a
 * command added to src/wire/v4.ts without a decision here fails `npm run typecheck`.
 */
export const HANDLERS = {
  sendText,
  stop,
  // Always accepted, even late or unknown: first answer wins (§7.3, §12 #22).
  resolveInteraction: (sim, _rt, p) => {
    sim.interactions.resolveFromV4(String(p['interactionId']), p['answer'] as never);
    return accepted();
  },
  snoozeInteractionAutoResolution: () => accepted(),
  startSavedWorkflow,
  resumeWorkflowRun,
  cancelBackgroundWork,
  renameSession,
  deleteSession,
  compact: (sim, rt) => {
    void startTurn(sim, rt, { text: '/compact', origin: 'v4', kind: 'compact', behaviour: 'compact' });
    return accepted();
  },
  switchCollaborationMode: setMode,
  switchModelConfig,
  setFollowupMode: (_sim, rt, p) => {
    rt.followupMode = p['mode'] === 'guide' ? 'guide' : 'queue';
    return accepted();
  },
  pauseGoal: pauseGoalCommand,
  resumeGoal,
  forkAssistant: null,
  applyFileRewind: null,
  editUserQuery: null,
  retryTurn: null,
  setAssistantFeedback: null,
  sendQueuedNow: null,
  editQueueItem: null,
  reorderQueueItem: null,
  deleteQueueItem: null,
  setAutoDrain: null,
  sendGoalCommand: null,
  createSession: null,
  createSelectionSideSession: null,
  setHighspeedMetrics: null,
  amendWorkflowRunSettings: null,
  discardSharedContext: null,
  respondWorkspaceHookReview: null,
  toggleWorkspaceHookReviewItem: null,
  revokeWorkspaceHookTrust: null,
  requestWorkspaceHookReview: null,
} satisfies V4HandlerTable;

/** The handler table's type: one entry per wire command type, no other. */
export type V4HandlerTable = Record<V4CommandType, Handler | null>;

/**
 * `--fail-command TYPE=REASON_CODE`: the next command of TYPE is refused with that code, once
 * per flag — a refusal the simulator cannot reach on its own (a resume superseded by another
 * run, a runtime without workflow support).
 */
function injectedRefusal(sim: SimulatorCore, type: string): Decision | undefined {
  const refusal = sim.commandRefusals.findIndex((f) => f.startsWith(`${type}=`));
  if (refusal === -1) return undefined;
  const reasonCode = (sim.commandRefusals.splice(refusal, 1)[0] ?? '').slice(type.length + 1);
  return failed(reasonCode, `Simulated refusal (--fail-command): ${reasonCode}`);
}

/** Executes one validated command on an active session (§7.3). */
export async function executeCommand(sim: SimulatorCore, rt: SessionRuntime, env: CommandEnvelope, p: P): Promise<Decision> {
  // `--unsupported-command TYPE`: an app-server build without that command (§7.2 step 6).
  if (sim.options.unsupportedCommand.includes(env.type))
    return failed('fault.command.notImplemented', `Command ${env.type} is not implemented`);
  const refusal = injectedRefusal(sim, env.type);
  if (refusal) return refusal;
  const handler = Object.hasOwn(HANDLERS, env.type) ? (HANDLERS as V4HandlerTable)[env.type as V4CommandType] : null;
  if (!handler) return failed('fault.command.notImplemented', `The simulator does not implement ${env.type}`);
  return handler(sim, rt, p, env);
}
