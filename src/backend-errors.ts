/**
 * The one mapping from what the app-server link throws or answers to the error catalog
 * (src/errors.ts), used by the domain, the gateway, the settings and the routes alike, so a
 * failure of the child reads the same over ACP and over REST (STYLE.md habit 5).
 *
 *   local failure (BackendFailure): timeout → HUB_ERR_BACKEND_TIMEOUT (504); gone, closed,
 *     not running, overloaded (stdin queue full, CHD-04) → HUB_ERR_BACKEND_UNAVAILABLE (503)
 *   JSON-RPC error of the child (BackendRpcError, APP-SERVER.md §10):
 *     -32602 invalid params → BAD_REQUEST 400 · -32601 → NOT_SUPPORTED 501
 *     -32004 session not found / not active → SESSION_NOT_FOUND 404, other -32004 → NOT_FOUND
 *     -32010 a prompt is running (or fork/compact/goal busy) → SESSION_BUSY 409
 *     -32009 state revision mismatch → CONFLICT 409
 *     "…notFound…" → NOT_FOUND 404 · "capability not supported…" → UNPROCESSABLE 422
 *     anything else → HUB_ERR_BACKEND 502, with the child's message (what the user must fix)
 *   v4 ACK failures and `workflows/*` `{ok:false}` results: by their short reason (below)
 *   anything else → HUB_ERR_INTERNAL, with no internal message
 *
 * `details` always carries a stable `reason` (the failure kind, `rpc_error`, or the ZCode
 * short reason) so clients can tell cases apart without parsing messages.
 */
import { HubError, type HubErrorCode } from './errors.js';
import { BackendFailure, BackendRpcError } from './ports/backend-port.js';

/** Scrubs secrets (an API key a provider echoed) from a message shown to a client. */
export type Redact = (text: string) => string;
const keep: Redact = (t) => t;

/** A thrown backend error — or any error — as the HubError a client is told. */
export function toHubError(err: unknown, redact: Redact = keep): HubError {
  if (err instanceof HubError) return err;
  if (err instanceof BackendFailure) {
    // The link's own message says what happened (timed out after N ms, over the line cap, child gone).
    const details = { reason: err.kind, method: err.method };
    return new HubError(
      err.kind === 'timeout' ? 'HUB_ERR_BACKEND_TIMEOUT' : 'HUB_ERR_BACKEND_UNAVAILABLE',
      err.message || undefined,
      details,
    );
  }
  if (err instanceof BackendRpcError) {
    const message = redact(err.message);
    const details = { reason: 'rpc_error', rpcCode: err.code, method: err.method };
    return new HubError(
      rpcErrorCode(err.code, message),
      message,
      message.startsWith('capability not supported') ? { ...details, reason: 'capabilityUnsupported' } : details,
    );
  }
  return new HubError('HUB_ERR_INTERNAL');
}

/** Whether `err` is one the mapping knows; anything else is a bug worth logging. */
export function isExpectedError(err: unknown): boolean {
  return err instanceof HubError || err instanceof BackendFailure || err instanceof BackendRpcError;
}

function rpcErrorCode(code: number, message: string): HubErrorCode {
  switch (code) {
    case -32602:
      return 'HUB_ERR_BAD_REQUEST';
    case -32601:
      return 'HUB_ERR_NOT_SUPPORTED';
    case -32004:
      return /session/i.test(message) ? 'HUB_ERR_SESSION_NOT_FOUND' : 'HUB_ERR_NOT_FOUND';
    case -32010:
      return 'HUB_ERR_SESSION_BUSY';
    case -32009:
      return 'HUB_ERR_CONFLICT';
  }
  if (/notFound/i.test(message)) return 'HUB_ERR_NOT_FOUND';
  if (message.startsWith('capability not supported')) return 'HUB_ERR_UNPROCESSABLE';
  return 'HUB_ERR_BACKEND';
}

/** ZCode short reason (v4 ACK `reasonCode` tail, `workflows/*` `reason`) → catalog code. */
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

function reasonErrorCode(reason: string): HubErrorCode {
  return REASON_CODES[reason] ?? 'HUB_ERR_BACKEND';
}

/** The fields of a v4 command ACK the mapping reads (APP-SERVER.md §7.2). */
export interface AckOutcome {
  status: string;
  reasonCode?: string | undefined;
  message?: string | undefined;
}

/** Whether an ACK counts as success (§7.2: accepted, noop, duplicate). */
export function ackSucceeded(ack: AckOutcome): boolean {
  return ack.status === 'accepted' || ack.status === 'noop' || ack.status === 'duplicate';
}

/** A v4 command ACK that is not a success, as the error a client is told. */
export function ackError(type: string, ack: AckOutcome): HubError {
  const reasonCode = ack.reasonCode ?? `status.${ack.status}`;
  const reason = shortReason(reasonCode);
  const message = ack.message ? `${type} ${ack.status}: ${ack.message}` : `${type} ${ack.status} (${reasonCode})`;
  return new HubError(reasonErrorCode(reason), message, { reason, reasonCode, status: ack.status });
}

/** What each `workflows/*` call was doing, as the start of the sentence a client reads. */
const WORKFLOW_ACTIONS: Record<string, (name: string) => string> = {
  'workflows/get': (n) => `Workflow ${n} could not be read`,
  'workflows/updateMeta': (n) => `The description of workflow ${n} could not be changed`,
  'workflows/delete': (n) => `Workflow ${n} could not be deleted`,
  'workflows/move': (n) => `Workflow ${n} could not be copied into the project`,
  'workflows/save': (n) => `The run could not be saved as workflow ${n}`,
};

/** Why, for each ZCode reason a `workflows/*` call gives. */
const WORKFLOW_REASONS: Record<string, string> = {
  invalid_name: 'the agent does not accept that name for a workflow file (use letters, digits, "-" and "_")',
  not_found: 'there is no workflow of that name in this scope',
  parse_error: 'its file does not parse as a saved workflow',
  read_error: 'its file could not be read',
  write_error: 'the file could not be written',
  target_exists: 'a workflow of that name is already there and is never overwritten',
  run_not_found: 'the agent knows no run with that id',
  script_missing: 'the run has no script to save',
  compile_failed: 'its script does not compile',
};

/**
 * A `workflows/*` `{ok:false, reason, detail?}` result (§8) as the error a client is told: a
 * sentence saying what was refused and why (the web app shows it as is), the ZCode reason kept
 * apart in `details.reason`.
 */
export function workflowFailureError(
  method: string,
  failure: { reason: string; detail?: string | undefined; path?: string | undefined },
  name?: string,
): HubError {
  const action = WORKFLOW_ACTIONS[method];
  const what = action ? action(name === undefined ? 'of that name' : JSON.stringify(name)) : `${method} failed`;
  const why = WORKFLOW_REASONS[failure.reason] ?? `the agent refused it (${failure.reason})`;
  const message = `${what}: ${why}${failure.detail ? ` (${failure.detail})` : ''}.`;
  return new HubError(reasonErrorCode(failure.reason), message, {
    reason: failure.reason,
    ...(failure.path ? { path: failure.path } : {}),
  });
}
