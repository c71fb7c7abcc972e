import { ProtocolError, RPC } from '../protocol-error.js';
import type { SessionRuntime } from '../session-runtime.js';

/** `expectedRevision` CAS against `runtime.stateRevision` → -32009 (§4). */
export function checkRevision(rt: SessionRuntime, expected: number | undefined): void {
  if (expected !== undefined && expected !== rt.stateRevision) {
    throw new ProtocolError(RPC.revisionMismatch, 'Session state revision mismatch', {
      actualRevision: rt.stateRevision,
      expectedRevision: expected,
    });
  }
}

/** -32031 restore warning: the persisted model no longer resolves (§4.2). */
export function checkRestoreWarning(rt: SessionRuntime): void {
  if (rt.restoreWarning)
    throw new ProtocolError(RPC.capability, rt.restoreWarning, {
      code: 'model_restore_failed',
      sessionId: rt.sessionId,
      workspace: rt.info.workspace,
    });
}
