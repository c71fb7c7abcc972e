import { z } from 'zod';
import { readAdminToken } from '../auth/admin-token.js';
import { readHubFile, type HubFile } from '../daemon/state-files.js';
import { processAlive } from '../fs/process-alive.js';
import { LIMITS } from '../limits.js';

/** The running daemon of a state dir, found through hub.json, with the admin credential. */
export interface DaemonHandle {
  hub: HubFile;
  adminToken: string;
}

/** Finds a live daemon for `stateDir`, or undefined when none runs (stale hub.json ignored). */
export function findDaemon(stateDir: string): DaemonHandle | undefined {
  const hub = readHubFile(stateDir);
  if (!hub || !processAlive(hub.pid)) return undefined;
  const adminToken = readAdminToken(stateDir);
  if (!adminToken) return undefined;
  return { hub, adminToken };
}

/** The body of every error the hub's REST API answers with (src/http/error-handler.ts). */
const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    // A request that does not match the route's schema: which field and why.
    details: z.looseObject({ issues: z.array(z.object({ path: z.string(), message: z.string() })).optional() }).optional(),
  }),
});

/**
 * The daemon refused a request: its message is one plain sentence for a person (the hub's own
 * reason and error code), and `status` lets a command tell one refusal from another.
 */
export class DaemonRefused extends Error {
  constructor(
    readonly status: number,
    /** The hub's error code (`HUB_ERR_NOT_FOUND`); undefined when the answer carried none. */
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`the hub refused it: ${reason}${code ? ` (${code})` : ` (HTTP ${status})`}`);
    this.name = 'DaemonRefused';
  }
}

/** The daemon hub.json names did not answer at all (refused, reset, timed out); `reason` says how. */
export class DaemonUnreachable extends Error {
  constructor(
    handle: DaemonHandle,
    readonly reason: string,
    cause: unknown,
  ) {
    super(`the hub at ${handle.hub.url} (pid ${handle.hub.pid}) did not answer: ${reason}`, { cause });
    this.name = 'DaemonUnreachable';
  }
}

/** Why a call failed, without where the hub is: for a sentence that already names it. */
export function failureReason(err: unknown): string {
  return err instanceof DaemonUnreachable ? err.reason : (err as Error).message;
}

/** A reason out of an answer's text: the error body's message, else the text itself (a proxy's page), kept short. */
function refusal(status: number, text: string): DaemonRefused {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: something in front of the hub answered, or the hub's plain-text page.
  }
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    const fields = (details?.issues ?? []).map((i) => `${i.path}: ${i.message}`);
    return new DaemonRefused(status, code, [message.replace(/\.$/, ''), ...fields].join('; '));
  }
  const plain = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return new DaemonRefused(status, undefined, plain || 'no reason given');
}

/**
 * Calls the daemon's REST API with the admin token. The one place the CLI turns an HTTP failure
 * into words: a refusal throws DaemonRefused, a daemon that does not answer (within `timeoutMs`,
 * head and body) DaemonUnreachable. Callers parse the answer with zod.
 */
export async function callDaemon(
  handle: DaemonHandle,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs: number = LIMITS.cliDaemonCallTimeoutMs,
): Promise<unknown> {
  let res: Response;
  let text: string;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    res = await fetch(new URL(path, handle.hub.url), {
      method,
      headers: { authorization: `Bearer ${handle.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
    text = await res.text();
  } catch (err) {
    const reason = signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : ((err as Error & { cause?: Error }).cause?.message ?? (err as Error).message);
    throw new DaemonUnreachable(handle, reason, err);
  }
  if (!res.ok) throw refusal(res.status, text);
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    // Plain-text answers (e.g. /api/health) stay strings.
    return text;
  }
}
