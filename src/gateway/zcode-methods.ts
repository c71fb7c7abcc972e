import {
  cancelBackgroundTaskParams,
  sessionArchiveParams,
  compactParams,
  forkParams,
  goalParams,
  interactionsListParams,
  loadEarlierParams,
  partialAnswerParams,
} from '../zcode-ext/requests.js';
import { ATTACH_METHODS } from './attach-methods.js';
import { method, type MethodSpec } from './method-spec.js';
import { ZCODE_REQUEST } from '../zcode-ext/methods.js';

/** The default page of `_zcode/load_earlier` when the client names no limit. */
const EARLIER_DEFAULT_LIMIT = 50;

const loadEarlier = method(loadEarlierParams, 'view', async (ctx, conn, p, name) => {
  const cursor = p.cursor ?? p.before ?? '';
  const page = await ctx.hub.loadEarlier(p.sessionId, cursor, p.limit ?? EARLIER_DEFAULT_LIMIT);
  if (name === 'session/load_earlier' && conn.profile === 'legacy') {
    // zcode-acp-remote collects the page as `session/update` notifications sent before the
    // result, then reads `replayMeta` from the result (ARCHITECTURE.md §5.1).
    for (const update of page.updates)
      conn.notify('session/update', { sessionId: p.sessionId, update, _meta: { zcode: { earlier: true } } });
    return { replayMeta: { cursor: page.cursor, hasMore: page.hasMore }, cursor: page.cursor, hasMore: page.hasMore };
  }
  return { updates: page.updates, ...(page.cursor !== undefined ? { cursor: page.cursor } : {}), hasMore: page.hasMore };
});

/** The `_zcode/*` extension methods (docs/CLIENT-PROTOCOL.md), plus the legacy alias. */
export const ZCODE_METHODS: Record<string, MethodSpec> = {
  [ZCODE_REQUEST.loadEarlier]: loadEarlier,
  'session/load_earlier': loadEarlier,
  [ZCODE_REQUEST.interactionsList]: method(interactionsListParams, 'view', (ctx, conn, p) => ({
    interactions: ctx.hub.listInteractions(p.sessionId, { identity: conn.identity, local: conn.local === true }),
  })),
  [ZCODE_REQUEST.fork]: method(forkParams, 'operate', (ctx, conn, p) => ctx.hub.fork(conn, p.sessionId, p.target)),
  [ZCODE_REQUEST.compact]: method(compactParams, 'operate', (ctx, conn, p) => ctx.hub.compact(conn, p.sessionId, p.instructions)),
  [ZCODE_REQUEST.goal]: method(goalParams, 'operate', (ctx, conn, p) => ctx.hub.goal(conn, p.sessionId, p.action, p.objective)),
  [ZCODE_REQUEST.cancelBackgroundTask]: method(cancelBackgroundTaskParams, 'operate', (ctx, conn, p) =>
    ctx.hub.cancelBackgroundTask(conn, p.sessionId, p.taskId),
  ),
  [ZCODE_REQUEST.sessionArchive]: method(sessionArchiveParams, 'operate', async (ctx, conn, p) => ({
    session: await ctx.hub.archiveSession(p.sessionId, p.archived, conn.identity),
  })),
  [ZCODE_REQUEST.partialAnswer]: method(partialAnswerParams, 'operate', (ctx, conn, p) => ({
    interaction: ctx.hub.partialAnswer(
      p.interactionId,
      { questionIndex: p.questionIndex, answer: p.answer },
      { identity: conn.identity, clientId: conn.clientId, local: conn.local === true },
    ),
  })),
  ...ATTACH_METHODS,
};
