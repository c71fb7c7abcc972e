/**
 * The requests of a handshake, built in one place: the app's first script sends them on the socket
 * it opens while the app downloads (early.ts), and the app's own calls find them there only if
 * they ask exactly the same (RpcConnection matches an early request by method and params). Pure,
 * and small: it is part of that first script's chunk.
 */
import { WEB_LIMITS } from '../limits.js';
import { parseRoute } from '../router-paths.js';

/** `session/list` from `cursor` (the first page without one); archived sessions too: the list hides them until its Archived filter is on. */
export function listParams(cursor?: string): { cursor?: string; _meta: { zcode: { includeArchived: true } } } {
  return { ...(cursor ? { cursor } : {}), _meta: { zcode: { includeArchived: true } } };
}

/** Where a load picks up: after the seq of the epoch a chat holds, or (none) the last screenful. */
export interface LoadFrom {
  afterSeq: number;
  epoch: string | number | undefined;
}

/** `session/load` of `sessionId`: exactly what was missed after `from`, or the last screenful of history. */
export function loadParams(
  sessionId: string,
  cwd: string,
  from?: LoadFrom,
): { sessionId: string; cwd: string; mcpServers: []; _meta: { zcode: Record<string, unknown> } } {
  const limit = WEB_LIMITS.firstHistoryPage;
  const meta = from ? { afterSeq: from.afterSeq, epoch: from.epoch, limit } : { limit };
  return { sessionId, cwd, mcpServers: [], _meta: { zcode: meta } };
}

/** The home hub's session a page at `url` (path and query) shows, if any: a deep link's chat, its changes, files or terminal. */
export function shownSession(url: string): string | undefined {
  const route = parseRoute(url);
  return 'sessionId' in route && route.hubId === undefined ? route.sessionId : undefined;
}
