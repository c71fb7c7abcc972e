/**
 * Who is attached changes in bursts: a team's reconnect storm is a thousand detaches and
 * attaches within seconds. Each one used to send `_zcode/presence` (the whole attendee list) to
 * everyone in the session and `_zcode/session_state` to every connected client — quadratic in the
 * team (B-SCALE: 1,000 clients over 10 sessions took 15 s to catch up after a storm). Attendance
 * changes are now published at most once per session per `presenceCoalesceMs` (0: at once), with
 * what holds when the window closes — the attaching client included.
 */
import type { SessionState } from '../sessions/session-state.js';

export class AttendanceNotices {
  private readonly due = new Map<string, SessionState>();
  private timer: NodeJS.Timeout | undefined;

  /** @param publish sends a session's presence and state (it may be gone from the hub by then: the caller checks). */
  constructor(
    private readonly windowMs: number,
    private readonly publish: (session: SessionState) => void,
  ) {}

  /** A client attached to or left `session`. */
  changed(session: SessionState): void {
    if (this.windowMs <= 0) {
      this.publish(session);
      return;
    }
    this.due.set(session.sessionId, session);
    if (this.timer) return;
    this.timer = setTimeout(this.flush, this.windowMs);
    this.timer.unref();
  }

  /** The window closed: publishes every session that changed in it. */
  private readonly flush = (): void => {
    this.timer = undefined;
    const due = [...this.due.values()];
    this.due.clear();
    for (const session of due) this.publish(session);
  };

  /** Drops what is due without sending it (the hub is closing). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.due.clear();
  }
}
