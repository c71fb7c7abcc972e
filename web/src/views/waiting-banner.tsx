import { useEffect } from 'preact/hooks';
import { store } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { useSelector } from '../store.js';

/** Opens one interaction's sheet again (after "Later", or from a notification's deep link). */
function reopen(interactionId: string): void {
  store.update((s) => {
    const { [interactionId]: _gone, ...dismissed } = s.dismissed;
    return { ...s, dismissed, activeInteraction: interactionId };
  });
}

/**
 * In a chat: "1 waiting — answer" for interactions of this session put off with "Later", so
 * they are not forgotten; and `?answer=<interactionId>` (a push notification's link) opens
 * that sheet even if it was put off.
 */
export function WaitingBanner({ sessionId }: { sessionId: string }) {
  const waiting = useSelector(store, (s) =>
    Object.values(s.interactions)
      .filter((i) => i.sessionId === sessionId && s.dismissed[i.interactionId])
      .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0))
      .map((i) => i.interactionId)
      .join(' '),
  );
  const known = useSelector(store, (s) => Object.keys(s.interactions).length);
  useEffect(() => {
    const wanted = new URLSearchParams(location.search).get('answer');
    if (!wanted || !store.get().interactions[wanted]) return;
    reopen(wanted);
    // Once opened, the link has done its job (a reload must not reopen an answered sheet).
    history.replaceState(history.state, '', location.pathname);
  }, [known]);
  const ids = waiting ? waiting.split(' ') : [];
  if (ids.length === 0) return null;
  return (
    <div class="waiting-banner" role="status" data-testid="waiting-banner">
      <span>{ids.length === 1 ? t('waitingOne') : t('waitingMany', ids.length)}</span>
      <button type="button" class="link" onClick={() => reopen(ids[0]!)} data-testid="waiting-answer">
        {t('waitingAnswer')}
      </button>
    </div>
  );
}
