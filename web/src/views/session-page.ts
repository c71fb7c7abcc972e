/** What every page of one session needs: attached once online, the whole history on request. */
import { useEffect, useState } from 'preact/hooks';
import { store } from '../hub/app-state.js';
import type { HubClient } from '../hub/hub-client.js';
import { WEB_LIMITS } from '../limits.js';
import { useSelector } from '../store.js';

/**
 * Attaches the session when it opens while online (a page opened within the app). Reaching it
 * through a connect, its load goes out at the handshake (HubClient.setShownSessions) and is
 * attached by the time the link says online.
 */
export function useAttachedSession(client: HubClient, sessionId: string): void {
  const online = useSelector(store, (s) => client.online(s));
  useEffect(() => {
    if (online && !client.isAttached(sessionId)) void client.attach(sessionId).catch(() => undefined);
  }, [online, sessionId]);
}

/**
 * Loads earlier history pages until none are left (at most `changesHistoryPagesMax`), so a
 * review sees every change of the session, not just the last page. `want` false stops (the
 * terminal panel loads only until it has found the running tasks). Returns true while loading.
 */
export function useWholeHistory(client: HubClient, sessionId: string, want = true): boolean {
  const hasMore = useSelector(store, (s) => s.chats[sessionId]?.history.hasMore);
  const loading = useSelector(store, (s) => s.loadingEarlier[sessionId] ?? false);
  const [pages, setPages] = useState(0);
  useEffect(() => {
    if (!want || !hasMore || loading || pages >= WEB_LIMITS.changesHistoryPagesMax) return;
    setPages((n) => n + 1);
    void client.loadEarlier(sessionId).catch(() => undefined);
  }, [want, hasMore, loading, sessionId]);
  return want && hasMore === true && pages < WEB_LIMITS.changesHistoryPagesMax;
}
