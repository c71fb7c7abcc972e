/**
 * The one error catalog. Two families (STYLE.md habit 5):
 * - `HubError`: errors sent to clients. Each code maps to an HTTP status, a JSON-RPC code and,
 *   where it ends a socket, a close code.
 * - Local failures of the app-server link (src/ports/backend-port.ts): `BackendFailure` (the
 *   child is gone, a request timed out, its stdin queue is full) and `BackendRpcError` (the
 *   child answered with a JSON-RPC error) — things that happen to us. src/backend-errors.ts is
 *   the one place that turns them into a HubError when a client must hear of it.
 */
export const HUB_ERRORS = {
  HUB_ERR_BAD_REQUEST: { http: 400, rpc: -32602, message: 'Invalid request' },
  HUB_ERR_PARSE: { http: 400, rpc: -32700, message: 'Parse error' },
  HUB_ERR_INVALID_MESSAGE: { http: 400, rpc: -32600, message: 'Invalid request' },
  HUB_ERR_METHOD_NOT_FOUND: { http: 404, rpc: -32601, message: 'Method not found' },
  HUB_ERR_UNAUTHENTICATED: { http: 401, rpc: -32000, message: 'Authentication required', close: 4401 },
  HUB_ERR_FORBIDDEN: { http: 403, rpc: -32001, message: 'Not allowed for this token', close: 4403 },
  // 4003, not 4403: the app must tell "this app's origin is no longer a peer" from a revoked token.
  HUB_ERR_ORIGIN: { http: 403, rpc: -32001, message: 'Origin not allowed', close: 4003 },
  HUB_ERR_HOST: { http: 403, rpc: -32001, message: 'Host not allowed' },
  HUB_ERR_NOT_FOUND: { http: 404, rpc: -32002, message: 'Not found' },
  HUB_ERR_SESSION_NOT_FOUND: { http: 404, rpc: -32002, message: 'Session not found' },
  HUB_ERR_CONFLICT: { http: 409, rpc: -32003, message: 'Conflict' },
  HUB_ERR_ALREADY_RESOLVED: { http: 409, rpc: -32004, message: 'Interaction already resolved' },
  HUB_ERR_SESSION_BUSY: { http: 409, rpc: -32005, message: 'A turn is running on this session' },
  HUB_ERR_PRECONDITION: { http: 412, rpc: -32006, message: 'The resource changed since it was read' },
  HUB_ERR_NOT_ACCEPTABLE: { http: 406, rpc: -32600, message: 'The event stream needs Accept: text/event-stream' },
  HUB_ERR_MEDIA_TYPE: { http: 415, rpc: -32600, message: 'Content-Type must be application/json' },
  HUB_ERR_PAYLOAD_TOO_LARGE: { http: 413, rpc: -32007, message: 'Payload too large', close: 1009 },
  HUB_ERR_UNPROCESSABLE: { http: 422, rpc: -32008, message: 'Unprocessable' },
  HUB_ERR_RATE_LIMITED: { http: 429, rpc: -32009, message: 'Too many requests' },
  HUB_ERR_INTERNAL: { http: 500, rpc: -32603, message: 'Internal error' },
  HUB_ERR_NOT_SUPPORTED: { http: 501, rpc: -32015, message: 'The agent cannot do this' },
  HUB_ERR_BACKEND: { http: 502, rpc: -32010, message: 'The agent backend reported an error' },
  HUB_ERR_BACKEND_UNAVAILABLE: { http: 503, rpc: -32011, message: 'The agent backend is not running' },
  HUB_ERR_BACKEND_TIMEOUT: { http: 504, rpc: -32012, message: 'The agent backend did not answer in time' },
  HUB_ERR_LIMIT: { http: 429, rpc: -32013, message: 'A limit was reached' },
  HUB_ERR_PROTOCOL_VIOLATION: { http: 400, rpc: -32600, message: 'Too many protocol violations', close: 4400 },
  HUB_ERR_SLOW_CONSUMER: { http: 503, rpc: -32014, message: 'Client too slow', close: 4008 },
  HUB_ERR_TURN_FAILED: { http: 502, rpc: -32016, message: 'The agent could not finish this turn' },
  HUB_ERR_TOO_MANY_CONNECTIONS: { http: 429, rpc: -32017, message: 'This token holds too many connections' },
  HUB_ERR_CONNECTIONS_FULL: { http: 503, rpc: -32018, message: 'The hub holds as many connections as it can' },
} as const satisfies Record<string, { http: number; rpc: number; message: string; close?: number }>;

export type HubErrorCode = keyof typeof HUB_ERRORS;

/** An error a client is told about: stable code, HTTP status, JSON-RPC code. */
export class HubError extends Error {
  readonly code: HubErrorCode;
  readonly details: unknown;
  constructor(code: HubErrorCode, message?: string, details?: unknown) {
    super(message ?? HUB_ERRORS[code].message);
    this.name = 'HubError';
    this.code = code;
    this.details = details;
  }
  get httpStatus(): number {
    return HUB_ERRORS[this.code].http;
  }
  get rpcCode(): number {
    return HUB_ERRORS[this.code].rpc;
  }
  /** REST body: `{error: {code, message, details?}}`. */
  toBody(): { error: { code: HubErrorCode; message: string; details?: unknown } } {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }
  /** JSON-RPC error object; `data.code` carries the stable hub code. */
  toRpc(): { code: number; message: string; data: { code: HubErrorCode; details?: unknown } } {
    return {
      code: this.rpcCode,
      message: this.message,
      data: { code: this.code, ...(this.details === undefined ? {} : { details: this.details }) },
    };
  }
}

/** Keeps `switch` statements exhaustive. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
