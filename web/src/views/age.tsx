import { ageOf, lastActivity } from '../hub/session-find.js';
import type { SessionSummary } from '../hub/session-list.js';
import { t } from '../i18n.js';

/** "5 min ago" for a session's last activity (refreshed whenever the list re-renders). */
export function Age({ s }: { s: SessionSummary }) {
  const at = lastActivity(s);
  if (at === undefined) return null;
  const a = ageOf(at, Date.now());
  const text = a.unit === 'now' ? t('ageNow') : a.unit === 'min' ? t('ageMin', a.n) : a.unit === 'h' ? t('ageH', a.n) : t('ageD', a.n);
  return (
    <time class="muted small session-age" dateTime={new Date(at).toISOString()} data-testid="session-age">
      {text}
    </time>
  );
}
