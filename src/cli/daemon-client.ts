import { readAdminToken } from '../auth/admin-token.js';
import { readHubFile, type HubFile } from '../daemon/state-files.js';
import { processAlive } from '../fs/process-alive.js';

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

/** Calls the daemon's REST API with the admin token; throws with the server's error message. Callers parse the answer with zod. */
export async function callDaemon(handle: DaemonHandle, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(new URL(path, handle.hub.url), {
    method,
    headers: { authorization: `Bearer ${handle.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Plain-text answers (e.g. /api/health) stay strings.
  }
  if (!res.ok) {
    const message =
      typeof parsed === 'object' && parsed !== null && 'error' in parsed ? JSON.stringify((parsed as { error: unknown }).error) : text;
    throw new Error(`${method} ${path} → ${res.status}: ${message}`);
  }
  return parsed;
}
