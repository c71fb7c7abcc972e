/**
 * The stop watchdog (APP-SERVER.md §11 item 7): integrators saw stops (§14.1) that produced no terminal
 * event, so after `session/cancel` the hub gives the child `stopSettleMs` to end the turn and
 * then ends it locally. This module only keeps the timers — one per session, guarded by the
 * prompt and turn that were running when the stop was asked — and the prompt flow decides what
 * a synthesised end does.
 */
import type { QueuedPrompt } from './prompt-queue.js';

/** What was running when the stop was asked; the synthesised end applies only to it. */
export interface StopTarget {
  prompt: QueuedPrompt | undefined;
  /** Undefined when the stop came before `turn.started` (the prompt's own turn is then the target). */
  turnId: string | undefined;
}

/** One timer per session, armed by a stop and cleared by any real end of that turn. */
export class StopWatchdog {
  private readonly armed = new Map<string, { timer: NodeJS.Timeout; target: StopTarget }>();

  constructor(
    private readonly settleMs: number,
    private readonly onExpired: (sessionId: string, target: StopTarget) => void,
  ) {}

  /** Arms the timer for this session; a second stop of the same turn keeps the first deadline. */
  arm(sessionId: string, target: StopTarget): void {
    const current = this.armed.get(sessionId);
    if (
      current &&
      current.target.prompt === target.prompt &&
      (current.target.turnId === undefined || current.target.turnId === target.turnId)
    )
      return;
    this.clear(sessionId);
    const timer = setTimeout(() => {
      this.armed.delete(sessionId);
      this.onExpired(sessionId, target);
    }, this.settleMs);
    this.armed.set(sessionId, { timer, target });
  }

  /** The turn ended for real (or the session's turn state was reset): no synthesised end. */
  clear(sessionId: string): void {
    const current = this.armed.get(sessionId);
    if (!current) return;
    clearTimeout(current.timer);
    this.armed.delete(sessionId);
  }

  /** Timers armed now (for tests and the hub's close). */
  get size(): number {
    return this.armed.size;
  }

  /** Clears every timer (the hub is closing). */
  close(): void {
    for (const { timer } of this.armed.values()) clearTimeout(timer);
    this.armed.clear();
  }
}
