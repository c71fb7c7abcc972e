import { pendingList, store } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { TopBar } from './chrome.js';
import { interactionLine } from './interaction-sheet.js';
import { MachineChip } from './machines-view.js';

const KIND = { permission: 'permissionTitle', question: 'questionTitle', plan_approval: 'planTitle' } as const;

/** Everything pending across sessions (`_zcode/interactions/list`), answerable from here. */
export function InboxView() {
  const list = useSelector(store, (s) => s.interactions);
  const sessions = useSelector(store, (s) => s.sessions);
  const machines = useSelector(store, (s) => s.machines);
  const items = pendingList({ ...store.get(), interactions: list });
  return (
    <div class="page">
      <TopBar title={t('inbox')} here="inbox" back={() => (history.length > 1 ? history.back() : navigate({ name: 'sessions' }))} />
      <main class="scroll list-page">
        {items.length === 0 ? <p class="muted center">{t('inboxEmpty')}</p> : null}
        <ul class="rows">
          {items.map((i) => (
            <li key={i.interactionId} class="inbox-row" data-testid="inbox-row" data-hub-id={i.hubId ?? ''}>
              <div>
                <div class="small muted">
                  {t(KIND[i.kind])} · {sessions[i.sessionId]?.title ?? t('untitled')}{' '}
                  {i.hubId !== undefined ? <MachineChip m={machines[i.hubId]} /> : null}
                </div>
                <div class="inbox-title">{interactionLine(i)}</div>
              </div>
              <div class="actions">
                <button
                  type="button"
                  onClick={() => navigate({ name: 'chat', sessionId: i.sessionId, ...(i.hubId !== undefined ? { hubId: i.hubId } : {}) })}
                >
                  {t('openSession')}
                </button>
                <button
                  type="button"
                  class="primary"
                  onClick={() => store.update((s) => ({ ...s, activeInteraction: i.interactionId }))}
                  data-testid="inbox-answer"
                >
                  {t('answer')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      </main>
    </div>
  );
}
