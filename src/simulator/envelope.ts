import { z } from 'zod';

/**
 * The four strict envelopes of APP-SERVER.md §1.3. There is no `jsonrpc` key: any unknown
 * top-level key makes the line an invalid message (§1.4).
 */
const nonBlank = z.string().refine((s) => s.trim().length > 0, { message: 'Must not be empty' });
export const IdSchema = z.union([z.string(), z.number().int()]);
export type RpcId = z.infer<typeof IdSchema>;

const TraceSchema = z.strictObject({
  traceId: nonBlank.optional(),
  parentId: nonBlank.optional(),
  spanId: nonBlank.optional(),
  traceparent: nonBlank.optional(),
});

export const RequestSchema = z.strictObject({
  id: IdSchema,
  method: nonBlank,
  params: z.unknown().optional(),
  trace: TraceSchema.optional(),
});
export const NotificationSchema = z.strictObject({ method: nonBlank, params: z.unknown().optional(), trace: TraceSchema.optional() });
export const ResponseSchema = z.strictObject({ id: IdSchema, result: z.unknown() });
export const ErrorObjectSchema = z.strictObject({ code: z.number().int(), message: nonBlank, data: z.unknown().optional() });
export const ErrorResponseSchema = z.strictObject({ id: IdSchema, error: ErrorObjectSchema });

export type IncomingRequest = z.infer<typeof RequestSchema>;
export type IncomingResponse = { id: RpcId; result: unknown } | { id: RpcId; error: z.infer<typeof ErrorObjectSchema> };

export type Classified =
  | { kind: 'request'; message: IncomingRequest }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; message: IncomingResponse }
  | { kind: 'parse-error' }
  | { kind: 'invalid'; issues: unknown[] };

const JsonObject = z.record(z.string(), z.unknown());

/** Classifies one trimmed line the way the server does: id+method → request, … (§1.3). */
export function classifyLine(line: string): Classified {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'parse-error' };
  }
  const obj = JsonObject.safeParse(value);
  if (!obj.success || Array.isArray(value)) {
    return { kind: 'invalid', issues: [{ code: 'invalid_type', expected: 'object', path: [], message: 'Invalid input: expected object' }] };
  }
  const o = obj.data;
  const hasId = 'id' in o;
  const schema =
    'method' in o
      ? hasId
        ? RequestSchema
        : NotificationSchema
      : hasId && 'error' in o
        ? ErrorResponseSchema
        : hasId && 'result' in o
          ? ResponseSchema
          : undefined;
  if (!schema) {
    return { kind: 'invalid', issues: [{ code: 'custom', path: [], message: 'Not a request, notification or response' }] };
  }
  const r = schema.safeParse(o);
  if (!r.success) return { kind: 'invalid', issues: r.error.issues };
  if (schema === RequestSchema) return { kind: 'request', message: RequestSchema.parse(o) };
  if (schema === NotificationSchema) {
    const n = NotificationSchema.parse(o);
    return { kind: 'notification', method: n.method, params: n.params };
  }
  if (schema === ErrorResponseSchema) return { kind: 'response', message: ErrorResponseSchema.parse(o) };
  return { kind: 'response', message: { id: ResponseSchema.parse(o).id, result: o['result'] } };
}
