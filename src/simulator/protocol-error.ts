import type { z } from 'zod';

/** A JSON-RPC error the simulator writes as `{error:{code,message,data?}}` (APP-SERVER.md §1.5, §10). */
export class ProtocolError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }
  toWire(): { code: number; message: string; data?: unknown } {
    return { code: this.code, message: this.message, ...(this.data === undefined ? {} : { data: this.data }) };
  }
}

/** The wire codes the app-server uses (§10). */
export const RPC = {
  parse: -32700,
  invalidMessage: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  notFound: -32004,
  revisionMismatch: -32009,
  busy: -32010,
  noClient: -32020,
  cancelled: -32021,
  timedOut: -32022,
  capability: -32031,
} as const;

/** `Session is not active: <id>` — every [active] method on a cold or unknown session (§4). */
export function notActive(sessionId: string): ProtocolError {
  return new ProtocolError(RPC.notFound, `Session is not active: ${sessionId}`);
}

/** `Session not found: <id>` — resume/subagents of a session that was never persisted (§4.2). */
export function notFound(sessionId: string): ProtocolError {
  return new ProtocolError(RPC.notFound, `Session not found: ${sessionId}`);
}

/** A thrown non-protocol error becomes -32603 with `{name, stack, code?}` (§1.5). */
export function internalError(err: unknown): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  return new ProtocolError(RPC.internal, e.message || 'Internal error', {
    name: e.name,
    stack: e.stack ?? '',
    ...(typeof code === 'string' ? { code } : {}),
  });
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map((p) => String(p)).join('.');
}

/** `Invalid params — <path>: <msg>; …` with at most 5 issues, then ` (+N more)` (§1.4). */
export function invalidParams(error: z.ZodError): ProtocolError {
  const issues = error.issues;
  if (issues.length === 0) return new ProtocolError(RPC.invalidParams, 'Invalid params', { issues });
  const shown = issues
    .slice(0, 5)
    .map((i) => `${formatPath(i.path)}: ${i.message}`)
    .join('; ');
  const more = issues.length > 5 ? ` (+${issues.length - 5} more)` : '';
  return new ProtocolError(RPC.invalidParams, `Invalid params — ${shown}${more}`, { issues });
}

/** A cross-field rule failure, still -32602 but with a fixed message (§4.1, §4.8). */
export function invalidParamsMessage(message: string): ProtocolError {
  return new ProtocolError(RPC.invalidParams, message);
}

/** Parses params with a strict schema; failure is -32602 in the exact wire format. */
export function parseParams<T extends z.ZodType>(schema: T, params: unknown): z.infer<T> {
  const r = schema.safeParse(params);
  if (!r.success) throw invalidParams(r.error);
  return r.data;
}
