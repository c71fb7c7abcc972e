/**
 * Backend refusals → HTTP errors of the one catalog (src/errors.ts). The catalog's codes are
 * generic (`HUB_ERR_NOT_FOUND` …); the stable, specific reason rides in `details.reason`
 * (the short ZCode reason, e.g. `compile_failed`) beside the full `details.reasonCode`.
 *   400 invalid · 404 not found · 409 busy / not resumable / exists · 422 compile failed or
 *   unsupported · 502 backend error · 503/504 backend gone / timed out.
 */
import { HubError, type HubErrorCode } from '../errors.js';
import { BackendFailure, BackendRpcError } from '../ports/backend-port.js';
import type { CommandAck } from './workflow-wire.js';

/** Short reason (last dotted segment for rejection families) → catalog code. */
const REASON_CODES: Record<string, HubErrorCode> = {
  invalid_name: 'HUB_ERR_BAD_REQUEST',
  invalid_args: 'HUB_ERR_BAD_REQUEST',
  invalidPayload: 'HUB_ERR_BAD_REQUEST',
  not_found: 'HUB_ERR_NOT_FOUND',
  run_not_found: 'HUB_ERR_NOT_FOUND',
  sessionNotFound: 'HUB_ERR_SESSION_NOT_FOUND',
  session_busy: 'HUB_ERR_SESSION_BUSY',
  not_resumable: 'HUB_ERR_CONFLICT',
  superseded: 'HUB_ERR_CONFLICT',
  already_running: 'HUB_ERR_CONFLICT',
  not_running: 'HUB_ERR_CONFLICT',
  target_exists: 'HUB_ERR_CONFLICT',
  script_mismatch: 'HUB_ERR_CONFLICT',
  staleRevision: 'HUB_ERR_CONFLICT',
  compile_failed: 'HUB_ERR_UNPROCESSABLE',
  parse_error: 'HUB_ERR_UNPROCESSABLE',
  script_missing: 'HUB_ERR_UNPROCESSABLE',
  capabilityUnsupported: 'HUB_ERR_UNPROCESSABLE',
  cancel_not_supported: 'HUB_ERR_UNPROCESSABLE',
  read_error: 'HUB_ERR_BACKEND',
  write_error: 'HUB_ERR_BACKEND',
  start_failed: 'HUB_ERR_BACKEND',
};

/** `fault.command.savedWorkflowStartRejected.compile_failed` → `compile_failed`; `proto.sessionNotFound` → `sessionNotFound`. */
export function shortReason(reasonCode: string): string {
  const parts = reasonCode.split('.');
  return parts[parts.length - 1] ?? reasonCode;
}

function codeFor(reason: string): HubErrorCode {
  return REASON_CODES[reason] ?? 'HUB_ERR_BACKEND';
}

/** A `workflows/*` `{ok:false, reason, detail?}` result as an HTTP error. */
export function workflowFailureError(method: string, failure: { reason: string; detail?: string | undefined; path?: string | undefined }): HubError {
  const message = failure.detail ? `${method}: ${failure.reason}: ${failure.detail}` : `${method}: ${failure.reason}`;
  return new HubError(codeFor(failure.reason), message, { reason: failure.reason, ...(failure.path ? { path: failure.path } : {}) });
}

/** A v4 command ACK that is not a success (§7.2: success = accepted, noop, duplicate). */
export function ackError(type: string, ack: CommandAck): HubError {
  const reasonCode = ack.reasonCode ?? `status.${ack.status}`;
  const reason = shortReason(reasonCode);
  const message = ack.message ? `${type} ${ack.status}: ${ack.message}` : `${type} ${ack.status} (${reasonCode})`;
  return new HubError(codeFor(reason), message, { reason, reasonCode, status: ack.status });
}

/** Whether an ACK counts as success (§7.2). */
export function ackSucceeded(ack: CommandAck): boolean {
  return ack.status === 'accepted' || ack.status === 'noop' || ack.status === 'duplicate';
}

/**
 * A thrown forward-request error as an HTTP error. JSON-RPC errors keep the backend message
 * (it is what the user must fix, §10); local failures say whether the child is gone or slow.
 * `redact` scrubs secrets (an API key echoed by a provider) from any message.
 */
export function backendError(error: unknown, redact: (text: string) => string = (t) => t): HubError {
  if (error instanceof HubError) return error;
  if (error instanceof BackendFailure) {
    return new HubError(error.kind === 'timeout' ? 'HUB_ERR_BACKEND_TIMEOUT' : 'HUB_ERR_BACKEND_UNAVAILABLE', undefined, { reason: error.kind });
  }
  if (error instanceof BackendRpcError) {
    const message = redact(error.message);
    const details = { reason: 'rpc_error', rpcCode: error.code, method: error.method };
    if (error.code === -32602) return new HubError('HUB_ERR_BAD_REQUEST', message, details);
    if (error.code === -32004) return new HubError('HUB_ERR_SESSION_NOT_FOUND', message, details);
    if (error.code === -32010) return new HubError('HUB_ERR_SESSION_BUSY', message, details);
    if (/notFound/i.test(message)) return new HubError('HUB_ERR_NOT_FOUND', message, details);
    if (message.startsWith('capability not supported')) return new HubError('HUB_ERR_UNPROCESSABLE', message, { ...details, reason: 'capabilityUnsupported' });
    return new HubError('HUB_ERR_BACKEND', message, details);
  }
  return new HubError('HUB_ERR_BACKEND', 'The agent backend failed', { reason: 'unknown' });
}
