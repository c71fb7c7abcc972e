/**
 * Stopping the child's running turn (ZCODE-PROTOCOL §4.9, §7.4, §11 item 7). Both stops are
 * sent at once: `session/stop` jumps the child's serial queue (§1.6) and stops the turns the
 * hub started, while v4 `stop` also stops turns legacy stop cannot (v4- or background-started,
 * and legacy stop is broken on some CLIs, seed 001 §4.3) — but a v4 command waits behind any
 * slow request (`session/create`, `testModelConnectivity`, §11.3), so waiting for it before
 * the legacy fallback could leave the turn running for the whole forward timeout.
 */
import type { AppServer } from '../app-server/client.js';
import { AppServerError } from '../app-server/errors.js';
import type { Logger } from '../logger.js';

/** Resolves once either stop was taken; rejects with the legacy error when neither was. */
export async function stopTurn(app: Pick<AppServer, 'v4Command' | 'stop'>, logger: Logger, sessionId: string): Promise<void> {
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
  // The first stop taken is enough; the other settles on its own (both are idempotent).
  const first = await Promise.race([legacy.then((r) => (r.ok ? true : undefined)), v4.then((ok) => (ok ? true : undefined))]);
  if (first) return;
  const [legacyResult, v4Ok] = await Promise.all([legacy, v4]);
  if (legacyResult.ok || v4Ok) return;
  throw legacyResult.err;
}
