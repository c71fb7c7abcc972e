import { newId, type SessionRuntime } from '../session-runtime.js';
import type { SimulatorCore } from '../simulator-core.js';
import { runBehaviour } from '../scenarios/index.js';
import { selectBehaviour } from '../scenarios/select.js';
import { TurnAborted, type TurnContext, TurnFailure } from './turn-context.js';
import { closeTurn, endSilently, finishLock, type TurnResult } from './turn-end.js';
import { openTurn, type TurnInput } from './turn-start.js';

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

/** One turn, phase by phase: start (turn-start.ts), the scenario's script, end (turn-end.ts). */
async function runTurn(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput): Promise<void> {
  if (rt.closed) return;
  if (input.rejectBeforeStart !== undefined) return rejectBeforeStart(sim, rt, input, input.rejectBeforeStart);
  const opening = openTurn(sim, rt, input);
  const { turn } = opening.ctx;
  const result = await runScript(sim, opening.ctx, input);
  if (rt.closed) return;
  if (turn.silent) return endSilently(sim, rt, input);
  closeTurn(sim, opening, input, result);
  // Steers that never reached a tool boundary run as the next turn (§7.4 fallback to the queue).
  for (const s of turn.steerInbox) {
    void startTurn(sim, rt, { text: s.text, origin: 'v4', drained: { pendingInputId: s.pendingInputId, targetTurnId: turn.turnId } });
  }
}

/** Model resolution failed after the ACK (§4.8 rule 3): no turn is opened, only the lock is released as failed. */
function rejectBeforeStart(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput, message: string): void {
  rt.lastError = { type: 'model_error', message };
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
    errorMessage: message,
    errorRetryable: false,
    turnPhase: 'model_creation',
  });
  finishLock(sim, rt, input, 'failed');
}

/** Runs the turn's scenario; a stop makes it cancelled, anything thrown other than a TurnFailure a runtime error. */
async function runScript(sim: SimulatorCore, ctx: TurnContext, input: TurnInput): Promise<TurnResult> {
  try {
    const behaviour = input.behaviour ?? selectBehaviour(input.text, sim.options.scenario, sim.options.eventRate !== undefined);
    await runBehaviour(behaviour, ctx);
    return { outcome: 'success' };
  } catch (err) {
    if (err instanceof TurnAborted || ctx.signal.aborted) return { outcome: 'cancelled' };
    const failure =
      err instanceof TurnFailure
        ? err
        : new TurnFailure({ type: 'runtime_error', message: err instanceof Error ? err.message : String(err) }, 'execution');
    return { outcome: 'failed', failure };
  }
}
