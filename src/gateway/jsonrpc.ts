import { z } from 'zod';
import { HubError } from '../errors.js';
import { describeIssues, paramIssues } from './param-issues.js';

/**
 * JSON-RPC 2.0 envelopes as they arrive on a client socket (ARCHITECTURE.md §5): classification of
 * one parsed frame and the frames the gateway writes back. ACP uses named params only and no
 * batches: an array is classified `batch` and answered HUB_ERR_NOT_SUPPORTED (docs/CLIENT-PROTOCOL.md).
 */

export const rpcId = z.union([z.string().max(256), z.number().int().safe()]);
export type RpcId = z.infer<typeof rpcId>;

const requestEnvelope = z.object({
  jsonrpc: z.literal('2.0'),
  id: rpcId,
  method: z.string().min(1).max(256),
  params: z.record(z.string(), z.unknown()).optional(),
});
const notificationEnvelope = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1).max(256),
  params: z.record(z.string(), z.unknown()).optional(),
});
const errorObject = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
const resultEnvelope = z.object({ jsonrpc: z.literal('2.0'), id: rpcId, result: z.unknown() });
const errorEnvelope = z.object({ jsonrpc: z.literal('2.0'), id: rpcId.nullable(), error: errorObject });

export type RpcErrorObject = z.infer<typeof errorObject>;

/** One inbound frame after parsing, or the reason it is not a valid message. */
export type Inbound =
  | { kind: 'request'; id: RpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'result'; id: RpcId; result: unknown }
  | { kind: 'error'; id: RpcId | null; error: RpcErrorObject }
  | { kind: 'invalid'; id: RpcId | null; reason: string }
  /** A JSON array: a JSON-RPC batch, which ACP does not use. */
  | { kind: 'batch' };

/** The id of a malformed message, when one can be read safely, so the error can name it. */
function salvageId(value: Record<string, unknown>): RpcId | null {
  const parsed = rpcId.safeParse(value.id);
  return parsed.success ? parsed.data : null;
}

/** Classifies an already-JSON-parsed value; never throws. */
export function classify(value: unknown): Inbound {
  if (Array.isArray(value)) return { kind: 'batch' };
  if (typeof value !== 'object' || value === null) return { kind: 'invalid', id: null, reason: 'a message must be a JSON object' };
  const obj = value as Record<string, unknown>;
  const has = (key: string) => Object.hasOwn(obj, key);
  if (has('method')) {
    if (has('id')) {
      const r = requestEnvelope.safeParse(obj);
      if (!r.success) return { kind: 'invalid', id: salvageId(obj), reason: 'malformed request' };
      return { kind: 'request', id: r.data.id, method: r.data.method, params: r.data.params };
    }
    const n = notificationEnvelope.safeParse(obj);
    if (!n.success) return { kind: 'invalid', id: null, reason: 'malformed notification' };
    return { kind: 'notification', method: n.data.method, params: n.data.params };
  }
  if (has('result')) {
    const r = resultEnvelope.safeParse(obj);
    return r.success
      ? { kind: 'result', id: r.data.id, result: r.data.result }
      : { kind: 'invalid', id: salvageId(obj), reason: 'malformed response' };
  }
  if (has('error')) {
    const e = errorEnvelope.safeParse(obj);
    return e.success
      ? { kind: 'error', id: e.data.id, error: e.data.error }
      : { kind: 'invalid', id: salvageId(obj), reason: 'malformed error response' };
  }
  return { kind: 'invalid', id: salvageId(obj), reason: 'neither a request, a notification nor a response' };
}

/** A successful response frame. */
export function resultFrame(id: RpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result: result ?? null });
}

/** An error response frame (`id: null` when the request's id could not be read). */
export function errorFrame(id: RpcId | null, error: RpcErrorObject): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

/** A notification frame. */
export function notificationFrame(method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', method, params });
}

/** A request frame (hub → client). */
export function requestFrame(id: RpcId, method: string, params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

/** -32602 with `data.issues` (docs/CLIENT-PROTOCOL.md "Errors") from a zod error; the message names the first field at fault. */
export function invalidParams(error: z.ZodError): RpcErrorObject {
  const issues = paramIssues(error);
  const rpc = new HubError('HUB_ERR_BAD_REQUEST', describeIssues(issues), { issues }).toRpc();
  return { ...rpc, data: { ...rpc.data, issues } };
}

/** -32700, -32600, -32601 from the catalog. */
export function protocolError(
  code: 'HUB_ERR_PARSE' | 'HUB_ERR_INVALID_MESSAGE' | 'HUB_ERR_METHOD_NOT_FOUND',
  message?: string,
): RpcErrorObject {
  return new HubError(code, message).toRpc();
}
