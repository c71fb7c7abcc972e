/**
 * Stopping the child's running turn (ZCODE-PROTOCOL §4.9, §7.4, §11 item 7). Both stops are
 * sent at once: `session/stop` jumps the child's serial queue (§1.6) and stops the turns the
 * hub started, while v4 `stop` also stops turns legacy stop cannot (v4- or background-started,
 * and legacy stop is broken on some CLIs, seed 001 §4.3) — but a v4 command waits behind any
 * slow request (`session/create`, `testModelConnectivity`, §11.3), so waiting for it before
 * the legacy fallback could leave the turn running for the whole forward timeout.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import { BackendRpcError, type BackendPort } from '../ports/backend-port.js';
import { commandAckSchema } from './snapshot-schema.js';

/** Resolves once either stop was taken; rejects with the legacy error when neither was. */
export async function stopTurn(backend: BackendPort, logger: Logger, sessionId: string): Promise<void> {
  const envelope = { commandId: randomUUID(), clientId: 'zcode-hub', sessionId, type: 'stop', payload: {}, issuedAt: Date.now() };
  const v4 = backend.request('v4/command', envelope).then(
    (raw) => {
      const ack = commandAckSchema.safeParse(raw);
      return ack.success && ['accepted', 'noop', 'duplicate'].includes(ack.data.status);
    },
    (err: unknown) => {
      if (!(err instanceof BackendRpcError && err.code === -32601)) logger.warn({ err, sessionId }, 'v4 stop failed');
      return false;
    },
  );
  const legacy = backend.request('session/stop', { sessionId }).then(
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
