/** Same-origin REST calls (`/api/*`); the HttpOnly cookie carries the device token. */
import { rec, str } from '../wire.js';

/** A failed REST call: status and the hub's stable error code (`{error: {code, message}}`). */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

/** Calls `/api<path>` with JSON in and out; throws RestError on a non-2xx answer. */
export async function api(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ body: unknown; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/api${path}`, {
    method: init.method ?? 'GET',
    headers,
    credentials: 'same-origin',
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return readResponse(res);
}

/** The JSON (or text) body of a response; throws RestError on a non-2xx answer. */
export async function readResponse(res: Response): Promise<{ body: unknown; headers: Headers }> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    // Plain-text answers (e.g. /api/health) stay strings.
  }
  if (!res.ok) {
    const err = rec(rec(body)?.['error']);
    throw new RestError(res.status, str(err?.['code']) ?? `HTTP_${res.status}`, str(err?.['message']) ?? res.statusText, body);
  }
  return { body, headers: res.headers };
}

/** The shape of `api` (the home hub) and of a machine's DPoP-signed calls (machines/machine-api.ts). */
export type ApiFn = typeof api;
