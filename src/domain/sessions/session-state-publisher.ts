/**
 * `_zcode/session_state`: a live session's summary for every connected client's session list, and
 * for the hub's own listeners (push notifications watch its transitions). It is sent only when
 * something in it changed since that session's last one: the notice goes to every connection, and
 * a plain turn used to publish the same summary up to three times (when its prompt was queued, and
 * again when the agent named the turn), each a frame for every device (BENCHMARKS.md, twentieth session).
 *
 * The clients' copies wait up to `sessionStateBatchMs` and go out together, every one in the order
 * it was published: sessions that change at once (a team's turns ending together) cost each device
 * one write and one read instead of one per session. In B-SCALE (10 sessions ending together, 1,010
 * clients) the load process's longest stall was 53–111 ms in every run before, 11–37 ms in fourteen
 * of fifteen after (BENCHMARKS.md, thirty-third section). Nothing is merged away: a list still sees a
 * short turn run and finish.
 * The listeners hear each change at once.
 */
import type { Logger } from '../../logger.js';
import type { SessionState } from './session-state.js';

/** Where a changed summary goes: every connected client (the core's `notifyAll`). */
export type SummarySink<S> = (summary: S) => void;

export class SessionStatePublisher<S> {
  private readonly listeners: Array<(summary: S) => void> = [];
  /** The last summary each live session published, as JSON (held by the session object, so it goes with it). */
  private readonly published = new WeakMap<SessionState, string>();
  /** The clients' copies waiting for the batch to close, in the order they were published. */
  private due: Array<{ session: SessionState; summary: S }> = [];
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param batchMs how long the clients' copies wait to go out together (LIMITS.sessionStateBatchMs); 0: each at once.
   * @param sessions the hub's sessions: a copy goes only if its session is still the one there when the batch
   *   closes (a deleted session's deletion notice went first).
   */
  constructor(
    private readonly toClients: SummarySink<S>,
    private readonly logger: Logger,
    private readonly batchMs: number,
    private readonly sessions: ReadonlyMap<string, SessionState>,
  ) {}

  /** Listens to every published summary. */
  onState(listener: (summary: S) => void): void {
    this.listeners.push(listener);
  }

  /** Sends `summary` to every client (batched) and listener (now), unless it is the one this session published last. */
  publish(session: SessionState, summary: S): void {
    const text = JSON.stringify(summary);
    if (this.published.get(session) === text) return;
    this.published.set(session, text);
    this.toClientsSoon(session, summary);
    for (const listener of this.listeners) {
      try {
        listener(summary);
      } catch (err) {
        this.logger.warn({ err }, 'session state listener failed');
      }
    }
  }

  /** Drops the copies still waiting (the hub is closing). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.due = [];
  }

  private toClientsSoon(session: SessionState, summary: S): void {
    if (this.batchMs <= 0) {
      this.toClients(summary);
      return;
    }
    this.due.push({ session, summary });
    if (this.timer) return;
    this.timer = setTimeout(this.flush, this.batchMs);
    this.timer.unref();
  }

  /** The batch closed: every waiting copy of a session the hub still has, in order. */
  private readonly flush = (): void => {
    this.timer = undefined;
    const due = this.due;
    this.due = [];
    for (const { session, summary } of due) if (this.sessions.get(session.sessionId) === session) this.toClients(summary);
  };
}
