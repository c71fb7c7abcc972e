import type { PushKind } from './push-notifier.js';

const BUSY = new Set(['running', 'awaiting_input', 'stopping']);

/**
 * Which notification a session state change deserves: "needs you" when it starts waiting for an
 * answer, "turn finished" when a busy session goes idle. Remembers each session's last state.
 */
export class SessionTransitions {
  private readonly last = new Map<string, string>();

  /** Returns the push kind for this change, or undefined. */
  next(sessionId: string, state: string): PushKind | undefined {
    const prev = this.last.get(sessionId);
    this.last.set(sessionId, state);
    if (state === 'awaiting_input' && prev !== 'awaiting_input') return 'needs_you';
    if (state === 'idle' && prev !== undefined && BUSY.has(prev)) return 'turn_finished';
    return undefined;
  }
}
