/**
 * The typed errors of the app-server client. Every call rejects with an `AppServerError`: a
 * HubError already mapped to the catalog by the one mapping (backend-errors.ts), so it can be
 * thrown to a client as it is, that also says what went wrong on the wire (`fault`) for the
 * few callers that decide on it (-32010 busy, -32601 unsupported, a refused ACK's reason).
 */
import { ackError, toHubError } from '../backend-errors.js';
import { HubError } from '../errors.js';
import { BackendFailure, BackendRpcError, type BackendFailureKind } from '../ports/backend-port.js';
import type { CommandAck } from './session-schemas.js';

/** What went wrong, by family (STYLE.md habit 5: local failures apart from the child's answers). */
export type AppServerFault =
  /** The link failed locally: the child is gone, timed out, overloaded… */
  | { kind: 'failure'; failure: BackendFailureKind }
  /** The child answered with a JSON-RPC error (APP-SERVER.md §10); `message` is its own, unredacted. */
  | { kind: 'rpc'; code: number; message: string }
  /** A v4 command was answered with an ACK that is not a success (§7.2). */
  | { kind: 'ack'; ack: CommandAck }
  /** The result did not match its schema; `issues` say where (the doctor probe reports them, src/doctor/probe-check.ts). */
  | { kind: 'result'; issues: readonly ResultIssue[] };

/** One reason a result did not match its schema: the path inside the result and zod's message. */
export interface ResultIssue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/** A failed app-server call, mapped to the catalog. */
export class AppServerError extends HubError {
  readonly method: string;
  readonly fault: AppServerFault;
  constructor(mapped: HubError, method: string, fault: AppServerFault) {
    super(mapped.code, mapped.message, mapped.details);
    this.name = 'AppServerError';
    this.method = method;
    this.fault = fault;
  }

  /** True when the child answered this JSON-RPC error code. */
  isRpc(code: number): boolean {
    return this.fault.kind === 'rpc' && this.fault.code === code;
  }

  /** The refused ACK's `reasonCode`, if this is a refused v4 command. */
  get ackReason(): string | undefined {
    return this.fault.kind === 'ack' ? this.fault.ack.reasonCode : undefined;
  }
}

/** What the link threw, as the error a caller gets (non-link errors keep the mapping's answer). */
export function linkError(method: string, err: unknown): HubError {
  if (err instanceof BackendFailure) return new AppServerError(toHubError(err), method, { kind: 'failure', failure: err.kind });
  if (err instanceof BackendRpcError)
    return new AppServerError(toHubError(err), method, { kind: 'rpc', code: err.code, message: err.message });
  return toHubError(err);
}

/** A result that does not match its schema: the child's fault, 502 (§5.6). */
export function resultError(method: string, issues: readonly ResultIssue[]): AppServerError {
  return new AppServerError(
    new HubError('HUB_ERR_BACKEND', `${method} returned an unexpected result`, {
      reason: 'bad_result',
      method,
      issues: issues.slice(0, 5),
    }),
    method,
    { kind: 'result', issues: issues.map((i) => ({ path: i.path, message: i.message })) },
  );
}

/** A v4 command ACK that is not a success. */
export function refusedAck(type: string, ack: CommandAck): AppServerError {
  return new AppServerError(ackError(type, ack), 'v4/command', { kind: 'ack', ack });
}
