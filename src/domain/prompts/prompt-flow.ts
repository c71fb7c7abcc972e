/**
 * Prompts and cancel (ARCHITECTURE.md §4.4): FIFO per session, sent to the child only at its ready
 * boundary (`state.updated prompt_completed|prompt_failed`, APP-SERVER.md §11.6), each prompt
 * answered at the end of its own turn (§5.7), -32010 never shown to a user, the text echoed to
 * the other clients, and `session/cancel` stopping the turn with v4 and legacy stop together
 * (§7.4, §4.9, stop-turn.ts) — ended locally when the child never confirms the stop (§11 item 7,
 * stop-watchdog.ts). Each prompt's state is its own machine (prompt-life.ts); this file feeds it
 * the events and does what its steps say.
 */
import { connectionAuthor, type ConnectionAuthor } from '../people/author.js';
import { randomUUID } from 'node:crypto';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { TurnSignal } from '../../acp/translation-context.js';
import type { ErrorDetail } from '../../acp/zcode-event-schema.js';
import type { ClientPort } from '../delivery/client-port.js';
import { AppServerError } from '../../app-server/errors.js';
import { toHubError } from '../../backend-errors.js';
import type { HubCore } from '../hub-core.js';
import { draftPromptReceived, draftTurnComplete } from '../delivery/draft-updates.js';
import { PromptLife } from './prompt-life.js';
import { promptPreview, type PromptAnswer, type PromptResult, type QueuedPrompt } from './prompt-queue.js';
import { sendInput } from './send-input.js';
import type { SessionState } from '../sessions/session-state.js';
import { BusyRetry, isBusyError } from './busy-retry.js';
import { StopsInFlight } from './stop-turn.js';
import { StopWatchdog, type StopTarget } from './stop-watchdog.js';
import { traceField, withTrace } from '../../trace-context.js';
import { failureOf, lostError, lostPromptError, shuttingDown, turnFailedError, type BackendLoss } from './turn-endings.js';

export type { BackendLoss } from './turn-endings.js';
type TurnStarted = Extract<TurnSignal, { type: 'turn_started' }>;
type TurnEnded = Extract<TurnSignal, { type: 'turn_ended' }>;
type SteerQueued = Extract<TurnSignal, { type: 'steer_queued' }>;

/** Callbacks into the interaction flow (cancel settles a session's pending interactions). */
export interface PromptFlowHooks {
  cancelInteractions(session: SessionState, by: ConnectionAuthor): void;
}

/**
 * The prompt queue's I/O side: each prompt's state is its `PromptLife` (prompt-life.ts), fed
 * here with every event, and this class does what the machine's steps say.
 */
export class PromptFlow {
  private readonly watchdog: StopWatchdog;
  private readonly busyRetry: BusyRetry;
  private readonly stops: StopsInFlight;
  /** Set by {@link end}: the hub is closing. */
  private ended = false;

  constructor(
    private readonly core: HubCore,
    private readonly hooks: PromptFlowHooks,
  ) {
    this.watchdog = new StopWatchdog(core.config.limits.stopSettleMs, (sessionId, target) => this.onStopUnconfirmed(sessionId, target));
    this.busyRetry = new BusyRetry(core.config.limits.busyRetryMs, (sessionId) => this.retryRefused(sessionId));
    this.stops = new StopsInFlight(core.app, core.logger, (sessionId) => {
      const session = this.core.findSession(sessionId);
      if (session) this.pump(session);
    });
  }

  /** Clears the stop-watchdog timers (the hub is closing). */
  close(): void {
    this.watchdog.close();
    this.busyRetry.close();
  }

  /** Queues a prompt; resolves when its own turn ends. `withdrawn` ({@link withdraw}): the client's `$/cancel_request`. */
  prompt(client: ClientPort, session: SessionState, content: ContentBlock[], withdrawn?: AbortSignal): Promise<PromptAnswer> {
    // Admitted while the hub began to close: no turn will answer it.
    if (this.ended) return Promise.reject(shuttingDown());
    if (withdrawn?.aborted) return Promise.resolve({ stopReason: 'cancelled', queuedBehind: 0 });
    return new Promise((resolve, reject) => {
      const promptId = randomUUID();
      const prompt: QueuedPrompt = {
        promptId,
        life: new PromptLife(promptId),
        clientId: client.clientId,
        by: connectionAuthor(client),
        preview: promptPreview(content),
        content,
        ...traceField(),
        resolve: (r) => resolve({ ...r, queuedBehind }),
        reject,
      };
      const queuedBehind = session.queue.enqueue(prompt);
      this.core.audit(client, 'prompt', session.sessionId, { promptId: prompt.promptId, queuedBehind });
      withdrawn?.addEventListener('abort', () => this.withdraw(client, session, prompt), { once: true });
      // A prompt sent at once is told by the turn's start (with the queue as it then is): a first
      // `_zcode/turn_state` listing it as queued would be stale before it left the hub.
      if (!this.pump(session)) session.turn.changed();
    });
  }

  /** Withdrawn by its client while it still waits: out of the queue, answered `cancelled` (once sent, only `session/cancel` stops it). */
  private withdraw(client: ClientPort, session: SessionState, prompt: QueuedPrompt): void {
    if (!session.queue.remove(prompt)) return;
    this.core.audit(client, 'cancel', session.sessionId, { promptId: prompt.promptId, withdrawn: true });
    prompt.life.apply({ type: 'withdraw' });
    prompt.resolve({ stopReason: 'cancelled' });
    session.turn.changed();
  }

  /** Sends the next queued prompt when the child is ready and nothing runs; true when one was sent (its turn's start published the state). */
  pump(session: SessionState): boolean {
    // A stop still on its way could stop the next prompt's turn instead (stop-turn.ts).
    if (this.stops.holds(session.sessionId)) return false;
    const taken = session.queue.takeNext();
    if (!taken) return false;
    const next = taken.prompt;
    const by = next.by;
    // Echoed once, at its first admission (not again after a -32010 refusal).
    if (taken.step.effect === 'echo') {
      session.turn.openTail(session.journal.lastSeq + 1);
      // Journaled, so late joiners see who asked what; live only to the other clients (§4.4).
      for (const block of next.content)
        this.core.emitUpdate(session, { sessionUpdate: 'user_message_chunk', content: block }, next.clientId, {
          promptId: next.promptId,
          promptedBy: by,
        });
      draftPromptReceived(this.core, session, { promptId: next.promptId, content: next.content, by });
    }
    session.turn.start(by);
    // Sent in the trace context of the request that asked, even when a turn end drains the queue.
    void withTrace(next.trace, () => this.write(session, next));
    return true;
  }

  private async write(session: SessionState, prompt: QueuedPrompt): Promise<void> {
    try {
      await sendInput(this.core.app, this.core.config.limits.sendAnswerTimeoutMs, session.sessionId, prompt);
    } catch (err) {
      if (isBusyError(err)) {
        // Never shown to a user: back to the head, wait for the boundary (§3 of ARCHITECTURE.md).
        // A prompt that ended meanwhile (the watchdog, the child's exit) is not put back.
        const step = prompt.life.apply({ type: 'busy', boundary: session.queue.boundaries.count });
        if (!step.applied) return;
        session.queue.requeueHead(prompt);
        if (step.effect === 'boundary_passed') session.queue.markReady();
        else this.busyRetry.refused(session.sessionId);
        session.turn.sendUndone();
        this.pump(session);
        return;
      }
      // Already answered (the child went away and onBackendLost said why), or about to be: a send
      // cut off by the child's exit is answered by onBackendLost, which knows whether a crash loop
      // ended it.
      const gone = err instanceof AppServerError && err.fault.kind === 'failure' && err.fault.failure === 'gone';
      if (!prompt.life.apply({ type: 'send_failed', gone }).applied) return;
      session.queue.dropRunning(prompt);
      prompt.reject(toHubError(err));
      session.turn.sendUndone();
      this.pump(session);
      return;
    }
    const step = prompt.life.apply({
      type: 'accepted',
      boundaries: session.queue.boundaries,
      backgroundRunning: session.queue.backgroundRunning,
    });
    if (step.effect === 'send_stop')
      void this.stops
        .send(session.sessionId)
        .catch((err: unknown) => this.core.logger.warn({ err, sessionId: session.sessionId }, 'stop after a late send failed'));
    this.busyRetry.settled(session.sessionId);
    // The turn may already be over (a boundary passed while the answer was in flight, §4.8 #3).
    if (step.applied && step.from !== 'ended' && step.to === 'ended') {
      const failed = prompt.life.reason === 'failed';
      this.finish(session, prompt, failed ? undefined : { stopReason: 'end_turn' }, failed);
    }
  }

  /** A non-background turn started: attach it to the prompt that caused it. */
  onTurnStarted(session: SessionState, sig: TurnStarted): void {
    if (sig.background) {
      session.queue.noteBackgroundTurn(sig.turnId, false);
      return;
    }
    session.queue.running?.life.apply({ type: 'turn_started', turnId: sig.turnId, inputId: sig.inputId });
    // A turn nobody here prompted (its updates follow): its tail starts now.
    session.turn.openTail(session.journal.lastSeq + 1);
    session.turn.bind(sig.turnId);
  }

  /** A turn ended; background turns never end a user's prompt (§11.12). */
  onTurnEnded(session: SessionState, sig: TurnEnded): void {
    if (sig.background) {
      session.queue.noteBackgroundTurn(sig.turnId, true);
      return;
    }
    const running = session.queue.running;
    const outcome = sig.outcome === 'failed' ? 'failed' : 'completed';
    if (running?.life.apply({ type: 'turn_ended', turnId: sig.turnId, inputId: sig.inputId, outcome }).applied) {
      if (outcome === 'failed') {
        this.failRunning(session, running, sig.error, sig.turnId);
        return;
      }
      const usage = sig.stats?.usage;
      this.finish(session, running, { stopReason: sig.stopReason, turnId: sig.turnId, ...(usage === undefined ? {} : { usage }) }, false);
      // A turn the child had queued ends without a lock boundary after it (§4.8 rule 4): the
      // boundary came first, so the next prompt may go now (pump is a no-op until it has).
      this.pump(session);
      return;
    }
    if (!running && session.turn.turnId === sig.turnId) {
      this.watchdog.clear(session.sessionId);
      if (sig.outcome === 'failed') session.turn.fail({ error: failureOf(sig.error), turnId: sig.turnId });
      else session.turn.end();
    }
  }

  /**
   * `state.updated prompt_started`: the child took the prompt in flight (written before its ACK,
   * APP-SERVER.md §4.8). Boundaries seen before it belong to earlier turns — e.g. a stopped
   * turn the child finalised only as this send arrived, after the watchdog had ended it here —
   * so the turn-already-over check in write() counts from this point, not from the send.
   */
  onPromptStarted(session: SessionState): void {
    session.queue.running?.life.apply({ type: 'prompt_started', boundary: session.queue.boundaries.count });
  }

  /** Telemetry `turn.terminal` failed (§5.8): kept for the `prompt_failed` that may follow. */
  onTerminalFailure(session: SessionState, error: ErrorDetail): void {
    session.queue.noteTerminalFailure(error);
  }

  /** `turn.steerQueued` naming the running prompt's input: the child queued it (§4.8 rule 4, §5.5.2). */
  onSteerQueued(session: SessionState, sig: SteerQueued): void {
    session.queue.running?.life.apply({ type: 'steer_queued', inputId: sig.inputId });
  }

  /** `state.updated prompt_completed|prompt_failed`: the child's ready boundary (§11.6). */
  onReady(session: SessionState, failed: boolean): void {
    this.busyRetry.settled(session.sessionId);
    session.queue.noteBoundary(failed);
    const running = session.queue.running;
    const step = running?.life.apply({ type: 'ready', failed, backgroundRunning: session.queue.backgroundRunning });
    // A prompt the child only queued behind an unlocked turn ends with that own turn, not here.
    if (step?.effect === 'waits_own_turn') {
      // The lock is free again, but the queued turn is still to run: ready for after it.
      session.queue.markReady();
      return;
    }
    // Finishes a prompt that never produced turn events (§4.8 #3) or whose turn.* was missed.
    if (running && step?.applied && step.to === 'ended') {
      const turnId = running.life.turnId;
      this.finish(session, running, failed ? undefined : { stopReason: 'end_turn', ...(turnId ? { turnId } : {}) }, failed);
    }
    session.queue.markReady();
    if (!session.queue.running && session.turn.active) {
      this.watchdog.clear(session.sessionId);
      session.turn.end();
    }
    this.pump(session);
  }

  /**
   * `session/cancel` (§4.4): stops the running turn, cancels the session's pending
   * interactions, returns the caller's queued prompts as `cancelled`; others' stay queued.
   */
  async cancel(client: ClientPort, session: SessionState): Promise<void> {
    this.core.audit(client, 'cancel', session.sessionId);
    for (const p of session.queue.removeClient(client.clientId)) {
      p.life.apply({ type: 'withdraw' });
      p.resolve({ stopReason: 'cancelled' });
    }
    this.hooks.cancelInteractions(session, connectionAuthor(client));
    const busy = session.turn.requestStop(session.queue.running !== undefined);
    if (!busy) return;
    // A send still waiting in the child's queue (§1.6): the stops below may run before its turn
    // exists, so the machine remembers to stop it again when the send is answered.
    const running = session.queue.running;
    running?.life.apply({ type: 'stop' });
    // Armed before the stop is written: a stop that is never answered must not hang the turn either.
    this.watchdog.arm(session.sessionId, { prompt: running, turnId: running?.life.turnId ?? session.turn.turnId });
    await this.stops.send(session.sessionId);
  }

  /**
   * The child did not end the stopped turn within `stopSettleMs` (§11 item 7): end it here — the
   * running prompt answers `cancelled`, the session goes idle. Guarded by the prompt and turn
   * that were stopped, so a turn that started since is never touched; the real end, if it comes
   * later, finds nothing left to resolve (finish() and onTurnEnded() match the running prompt).
   */
  private onStopUnconfirmed(sessionId: string, target: StopTarget): void {
    const session = this.core.findSession(sessionId);
    if (!session) return;
    const running = session.queue.running;
    // Only the prompt that was stopped, while its machine says it still runs.
    if (target.prompt ? !target.prompt.life.live : running !== undefined) return;
    const turnId = target.turnId ?? running?.life.turnId ?? session.turn.turnId;
    if (target.turnId !== undefined && session.turn.turnId !== undefined && session.turn.turnId !== target.turnId) return;
    if (!running && session.turn.state !== 'stopping') return;
    this.core.logger.warn(
      { sessionId, turnId, stopSettleMs: this.core.config.limits.stopSettleMs },
      'the agent did not confirm the stop; ending the turn locally',
    );
    if (running) {
      running.life.apply({ type: 'stop_unconfirmed' });
      running.resolve({ stopReason: 'cancelled', ...(turnId === undefined ? {} : { turnId }) });
      draftTurnComplete(this.core, session, 'cancelled', turnId);
    }
    // The synthesised end counts as the ready boundary: a child that never sends
    // `prompt_completed` would otherwise stall the queue for good, which is the failure this
    // watchdog exists for. Sending early is safe — a child still busy answers -32010, and
    // write() puts the prompt back at the head to wait for the real boundary (§11.6); a child
    // that ends the stopped turn just as this send arrives accepts it, and onPromptStarted()
    // keeps that old turn's late boundary from ending the new prompt.
    this.busyRetry.markSynthetic(sessionId);
    session.queue.markReady();
    session.turn.end();
    this.stops.release(sessionId);
    this.pump(session);
  }

  /** No boundary came after a synthesised end: try the refused prompt again (busy-retry.ts). */
  private retryRefused(sessionId: string): void {
    const session = this.core.findSession(sessionId);
    if (!session || session.queue.running) return;
    session.queue.markReady();
    this.pump(session);
  }

  /**
   * The agent's process is gone (crashed, crash loop, stopped): the running turn is cut off. Its
   * prompter is answered, everyone gets the journaled `interrupted` marker (what was said so far
   * stays in the journal above it) and the session is idle. Queued prompts wait for the new
   * child — unless the backend is `failed`, which needs an admin: they are answered too.
   */
  onBackendLost(session: SessionState, lost: BackendLoss): void {
    this.watchdog.clear(session.sessionId);
    const running = session.queue.running;
    const wasActive = running !== undefined || session.turn.active;
    const error = lostError(lost);
    const promptId = running?.promptId;
    if (running) {
      running.life.apply({ type: 'lost' });
      running.reject(lostPromptError(lost, promptId));
    }
    // A queued prompt never ran and nothing is journaled for it: its answer names no promptId
    // (as at shutdown), so its prompter knows only the answer tells it — keep the text, send again.
    if (lost.state === 'failed')
      for (const p of session.queue.drain()) {
        p.life.apply({ type: 'lost' });
        p.reject(lostPromptError(lost));
      }
    session.queue.markReady();
    if (wasActive)
      session.turn.interrupt({
        error,
        ...(promptId === undefined ? {} : { promptId }),
        ...(running?.life.turnId === undefined ? {} : { turnId: running.life.turnId }),
      });
    else session.turn.changed();
  }

  /** The hub is closing: every session's running and queued prompts fail, and so does every later one. */
  end(sessions: Iterable<SessionState>): void {
    this.ended = true;
    for (const session of sessions) {
      const running = session.queue.running;
      for (const p of session.queue.drain()) {
        p.life.apply({ type: 'close' });
        // Only the running turn's ending is journaled (the restarted hub's `hub_restarted` marker): a queued prompt never ran.
        p.reject(shuttingDown(p === running ? p.promptId : undefined));
      }
    }
  }

  /** A prompt while the backend is `failed` fails at once, naming what an admin can do. */
  refuseWhileFailed(): never {
    throw lostPromptError({ state: 'failed' });
  }

  /** Answers a prompt its machine has just ended (a step to `ended`, so once only): the queue's slot is free already. */
  private finish(session: SessionState, prompt: QueuedPrompt, result: PromptResult | undefined, failed: boolean): void {
    if (failed || !result) {
      this.failRunning(session, prompt, session.queue.takeTerminalFailure(), prompt.life.turnId);
      return;
    }
    this.watchdog.clear(session.sessionId);
    prompt.resolve(result);
    session.turn.end();
    draftTurnComplete(this.core, session, result.stopReason, result.turnId);
  }

  /**
   * The agent reported this prompt's turn failed (`turn.failed`, or `prompt_failed` without turn
   * events): the prompter's `session/prompt` is answered HUB_ERR_TURN_FAILED with the agent's
   * error, and every client gets the journaled failure marker (never end_turn).
   */
  private failRunning(session: SessionState, prompt: QueuedPrompt, error: ErrorDetail | undefined, turnId: string | undefined): void {
    this.watchdog.clear(session.sessionId);
    const failure = failureOf(error);
    prompt.reject(turnFailedError(failure, prompt.promptId, turnId));
    session.turn.fail({ error: failure, promptId: prompt.promptId, ...(turnId === undefined ? {} : { turnId }) });
  }
}
