import { useEffect } from 'preact/hooks';
import { pendingList, store } from '../hub/app-state.js';
import { approvalOf } from '../hub/permission-facts.js';
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
 * In a chat: "1 waiting for you — Answer" for interactions of this session this device may
 * answer but put off with "Later", so they are not forgotten; "waiting for ann — View" for
 * those only someone else may answer (never counted as waiting for you); and
 * `?answer=<interactionId>` (a push notification's link) opens that sheet even if it was put off.
 */
export function WaitingBanner({ sessionId }: { sessionId: string }) {
  const mineKey = useSelector(store, (s) =>
    pendingList(s)
      .filter((i) => i.sessionId === sessionId && s.dismissed[i.interactionId] && approvalOf(i).eligible)
      .map((i) => i.interactionId)
      .join(' '),
  );
  const othersKey = useSelector(store, (s) =>
    pendingList(s)
      .filter((i) => i.sessionId === sessionId && !approvalOf(i).eligible)
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
  const mine = mineKey ? mineKey.split(' ') : [];
  const others = othersKey ? othersKey.split(' ') : [];
  if (mine.length === 0 && others.length === 0) return null;
  const firstOther = others[0] === undefined ? undefined : store.get().interactions[others[0]];
  const forWhom = firstOther?.approval?.waitingFor ?? t('badgeWaiting');
  return (
    <>
      {mine.length > 0 ? (
        <div class="waiting-banner" role="status" data-testid="waiting-banner">
          <span>{mine.length === 1 ? t('waitingOne') : t('waitingMany', mine.length)}</span>
          <button type="button" class="link" onClick={() => reopen(mine[0]!)} data-testid="waiting-answer">
            {t('waitingAnswer')}
          </button>
        </div>
      ) : null}
      {others.length > 0 ? (
        <div class="waiting-banner waiting-others" role="status" data-testid="waiting-others">
          <span>{others.length === 1 ? forWhom : `${t('waitingOthersMany', others.length)} · ${forWhom}`}</span>
          <button type="button" class="link" onClick={() => reopen(others[0]!)} data-testid="waiting-view">
            {t('waitingView')}
          </button>
        </div>
      ) : null}
    </>
  );
}
