/**
 * Stopping the child's running turn (APP-SERVER.md §4.9, §7.4, §11 item 7). Both stops are
 * sent at once: `session/stop` jumps the child's serial queue (§1.6) and stops the turns the
 * hub started, while v4 `stop` also stops turns legacy stop cannot (v4- or background-started,
 * and legacy stop is broken on some CLIs, APP-SERVER.md §14.1) — but a v4 command waits behind any
 * slow request (`session/create`, `testModelConnectivity`, §11.3), so waiting for it before
 * the legacy fallback could leave the turn running for the whole forward timeout.
 *
 * The stop taken first ends the wait; the other is still on its way. Until it has answered,
 * the next prompt must not be sent: a legacy stop the child runs after that send's ACK and
 * before its turn starts stops the new turn instead (§4.9) — `settled` says when both answered.
 */
import type { AppServer } from '../../app-server/client.js';
import { AppServerError } from '../../app-server/errors.js';
import type { Logger } from '../../logger.js';

export interface StopRequest {
  /** Resolves once either stop was taken; rejects with the legacy error when neither was. */
  taken: Promise<void>;
  /** Resolves (never rejects) once both stops have answered. */
  settled: Promise<void>;
}

/** Sends v4 `stop` and legacy `session/stop` together. */
export function stopTurn(app: Pick<AppServer, 'v4Command' | 'stop'>, logger: Logger, sessionId: string): StopRequest {
  const v4 = app.v4Command(sessionId, 'stop', {}).then(
    () => true,
    (err: unknown) => {
      // A refused or unreadable ACK, or no v4 at all (-32601), is an answer; anything else is worth a line.
      const answered = err instanceof AppServerError && (err.fault.kind === 'ack' || err.fault.kind === 'result' || err.isRpc(-32601));
      if (!answered) logger.warn({ err, sessionId }, 'v4 stop failed');
      return false;
    },
  );
  const legacy = app.stop(sessionId).then(
    () => ({ ok: true as const }),
    (err: unknown) => ({ ok: false as const, err }),
  );
  const taken = (async () => {
    // The first stop taken is enough; the other settles on its own (both are idempotent).
    const first = await Promise.race([legacy.then((r) => (r.ok ? true : undefined)), v4.then((ok) => (ok ? true : undefined))]);
    if (first) return;
    const [legacyResult, v4Ok] = await Promise.all([legacy, v4]);
    if (legacyResult.ok || v4Ok) return;
    throw legacyResult.err;
  })();
  return { taken, settled: Promise.all([legacy, v4]).then(() => undefined) };
}

/** The stops still on their way, per session: the session's next prompt waits for them. */
export class StopsInFlight {
  private readonly pending = new Map<string, Set<StopRequest>>();

  /** @param released a session's last stop answered (or was given up on): its queue may move. */
  constructor(
    private readonly app: Pick<AppServer, 'v4Command' | 'stop'>,
    private readonly logger: Logger,
    private readonly released: (sessionId: string) => void,
  ) {}

  /** Sends both stops (stopTurn) and holds the session's queue until both answered. */
  send(sessionId: string): Promise<void> {
    const req = stopTurn(this.app, this.logger, sessionId);
    const set = this.pending.get(sessionId) ?? new Set<StopRequest>();
    set.add(req);
    this.pending.set(sessionId, set);
    void req.settled.then(() => {
      if (this.pending.get(sessionId)?.delete(req) && set.size === 0) this.release(sessionId);
    });
    return req.taken;
  }

  /** True while a stop of the session has not answered. */
  holds(sessionId: string): boolean {
    return this.pending.has(sessionId);
  }

  /** Stop waiting for the session's stops (the agent never confirmed them, §11 item 7). */
  release(sessionId: string): void {
    if (!this.pending.delete(sessionId)) return;
    this.released(sessionId);
  }
}
