/**
 * The context meter (how full the session's context window is), the same on every screen of a
 * session: the chat's config bar and the header of its Terminal, Changes and Files screens.
 */
import type { ComponentChildren } from 'preact';
import { store } from '../hub/app-state.js';
import type { UsageView } from '../hub/chat-types.js';
import { t } from '../i18n.js';
import { useSelector } from '../store.js';

/** The session's last reported usage, when the agent reported a real figure (none: no meter). */
export function useContextUsage(sessionId: string): UsageView | undefined {
  const usage = useSelector(store, (s) => s.chats[sessionId]?.usage);
  return usage && usage.size > 0 && usage.used > 0 ? usage : undefined;
}

/** The meter; under 1 % reads "<1", never a flat 0. */
export function ContextMeter({ usage }: { usage: UsageView }) {
  const exact = Math.min(100, (usage.used / usage.size) * 100);
  const pct = exact < 1 ? '<1' : Math.round(exact);
  return (
    <span class="meter" title={`${usage.used} / ${usage.size}`} data-testid="context-meter">
      <span class="meter-bar" style={{ width: `${exact}%` }} />
      <span class="meter-text">{t('context', pct)}</span>
    </span>
  );
}

/** A session screen's header subtitle: the meter when there is one. */
export function meterSubtitle(usage: UsageView | undefined): { subtitle?: ComponentChildren } {
  return usage === undefined ? {} : { subtitle: <ContextMeter usage={usage} /> };
}
