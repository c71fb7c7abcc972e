/**
 * `_zcode/session_state`: a live session's summary for every connected client's session list, and
 * for the hub's own listeners (push notifications watch its transitions). It is sent only when
 * something in it changed since that session's last one: the notice goes to every connection, and
 * a plain turn used to publish the same summary up to three times (when its prompt was queued, and
 * again when the agent named the turn), each a frame for every device (BENCHMARKS.md, twentieth session).
 */
import type { Logger } from '../../logger.js';
import type { SessionState } from './session-state.js';

/** Where a changed summary goes: every connected client (the core's `notifyAll`). */
export type SummarySink<S> = (summary: S) => void;

export class SessionStatePublisher<S> {
  private readonly listeners: Array<(summary: S) => void> = [];
  /** The last summary each live session published, as JSON (held by the session object, so it goes with it). */
  private readonly published = new WeakMap<SessionState, string>();

  constructor(
    private readonly toClients: SummarySink<S>,
    private readonly logger: Logger,
  ) {}

  /** Listens to every published summary. */
  onState(listener: (summary: S) => void): void {
    this.listeners.push(listener);
  }

  /** Sends `summary` to every client and listener, unless it is the one this session published last. */
  publish(session: SessionState, summary: S): void {
    const text = JSON.stringify(summary);
    if (this.published.get(session) === text) return;
    this.published.set(session, text);
    this.toClients(summary);
    for (const listener of this.listeners) {
      try {
        listener(summary);
      } catch (err) {
        this.logger.warn({ err }, 'session state listener failed');
      }
    }
  }
}
