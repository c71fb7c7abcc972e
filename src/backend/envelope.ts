import { z } from 'zod';
import { depthMessage, textExceedsJsonDepth } from '../json-depth.js';

/**
 * The envelopes of APP-SERVER.md §1.3 as the hub reads them from the child. There is no
 * `jsonrpc` key; ids are strings or integers. Classification mirrors the server's: id+method →
 * request, method alone → notification, id+result → response, id+error → error response.
 * Unknown top-level keys are tolerated on input (a newer CLI may add one); the hub never sends
 * one, because the server's own parser is strict.
 */
export const RpcIdSchema = z.union([z.string(), z.number().int()]);
export type RpcId = z.infer<typeof RpcIdSchema>;

const nonBlank = z.string().refine((s) => s.trim().length > 0, { message: 'must not be blank' });

export const RpcErrorObjectSchema = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
export type RpcErrorObject = z.infer<typeof RpcErrorObjectSchema>;

const RequestSchema = z.object({ id: RpcIdSchema, method: nonBlank, params: z.unknown().optional() });
const NotificationSchema = z.object({ method: nonBlank, params: z.unknown().optional() });
const ResponseSchema = z.object({ id: RpcIdSchema, result: z.unknown() });
const ErrorResponseSchema = z.object({ id: RpcIdSchema, error: RpcErrorObjectSchema });

/** A message from the child, classified. */
export type IncomingMessage =
  | { kind: 'request'; id: RpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; id: RpcId; result: unknown }
  | { kind: 'error'; id: RpcId; error: RpcErrorObject };

/** A message to the child; exactly the keys of §1.3. */
export type OutgoingMessage =
  | { id: RpcId; method: string; params?: unknown; trace?: { traceId?: string; parentId?: string; spanId?: string; traceparent?: string } }
  | { id: RpcId; result: unknown }
  | { id: RpcId; error: RpcErrorObject };

export type ParseOutcome =
  | { ok: true; message: IncomingMessage /** Set when an answer too deep to read was turned into an error. */; tooDeep?: true }
  | { ok: false; reason: 'not-json' | 'not-envelope' | 'too-deep'; detail: string };

/** JSON-RPC "invalid request", what a too-deep answer of the child becomes for its waiting caller. */
const TOO_DEEP_CODE = -32600;

/**
 * Parses and classifies one trimmed line. Never throws. A line nested deeper than `maxDepth`
 * (limits.jsonMaxDepth) is not handed on: an answer becomes an error for its id, so the request
 * waiting on it fails at once instead of timing out; anything else is dropped as `too-deep`.
 */
export function parseEnvelope(line: string, maxDepth = Infinity): ParseOutcome {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, reason: 'not-json', detail: (err as Error).message };
  }
  if (maxDepth !== Infinity && textExceedsJsonDepth(line, value, maxDepth)) {
    const o = value as Record<string, unknown>;
    const id = RpcIdSchema.safeParse(o['id']);
    if (id.success && !Object.hasOwn(o, 'method') && (Object.hasOwn(o, 'result') || Object.hasOwn(o, 'error'))) {
      return {
        ok: true,
        message: {
          kind: 'error',
          id: id.data,
          error: { code: TOO_DEEP_CODE, message: `The agent's answer was ${depthMessage(maxDepth)}; the hub dropped it` },
        },
        tooDeep: true,
      };
    }
    return { ok: false, reason: 'too-deep', detail: depthMessage(maxDepth) };
  }
  if (Array.isArray(value)) return { ok: false, reason: 'not-envelope', detail: 'a JSON array (batches are not part of the protocol)' };
  if (typeof value !== 'object' || value === null)
    return { ok: false, reason: 'not-envelope', detail: `a JSON ${value === null ? 'null' : typeof value}` };
  // The per-class schemas below validate the keys; this is only the shape check of a JSON object.
  const o = value as Record<string, unknown>;
  if (has(o, 'method')) {
    // The well-formed case, checked plainly: one of these per line the child writes, so the
    // schemas below run only for a line this check refuses, to word its error.
    const method = o['method'];
    if (typeof method === 'string' && method.trim().length > 0) {
      if (!has(o, 'id')) return { ok: true, message: { kind: 'notification', method, params: o['params'] } };
      const id = o['id'];
      if (typeof id === 'string' || Number.isSafeInteger(id))
        return { ok: true, message: { kind: 'request', id: id as RpcId, method, params: o['params'] } };
    }
    if (has(o, 'id')) {
      const r = RequestSchema.safeParse(o);
      return r.success
        ? { ok: true, message: { kind: 'request', id: r.data.id, method: r.data.method, params: r.data.params } }
        : invalid(r.error);
    }
    const r = NotificationSchema.safeParse(o);
    return r.success ? { ok: true, message: { kind: 'notification', method: r.data.method, params: r.data.params } } : invalid(r.error);
  }
  if (has(o, 'id') && has(o, 'result') && has(o, 'error')) return { ok: false, reason: 'not-envelope', detail: 'both result and error' };
  if (has(o, 'id') && has(o, 'error')) {
    const r = ErrorResponseSchema.safeParse(o);
    return r.success ? { ok: true, message: { kind: 'error', id: r.data.id, error: r.data.error } } : invalid(r.error);
  }
  if (has(o, 'id') && has(o, 'result')) {
    const r = ResponseSchema.safeParse(o);
    return r.success ? { ok: true, message: { kind: 'response', id: r.data.id, result: o['result'] } } : invalid(r.error);
  }
  return { ok: false, reason: 'not-envelope', detail: 'neither a request, a notification nor a response' };
}

/** An own key of a parsed object (a module function: a closure per line was garbage per event). */
function has(o: object, k: string): boolean {
  return Object.hasOwn(o, k);
}

function invalid(error: z.ZodError): ParseOutcome {
  return { ok: false, reason: 'not-envelope', detail: error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
}

/** Key of an id in a map: `5` and `"5"` are different ids on this wire. */
export function idKey(id: RpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}
