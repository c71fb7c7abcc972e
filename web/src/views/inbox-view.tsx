import { pendingList, store } from '../hub/app-state.js';
import type { PendingInteraction } from '../hub/interactions.js';
import { splitInbox } from '../hub/permission-facts.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { TopBar } from './chrome.js';
import { interactionLine } from './interaction-sheet.js';
import { MachineChip } from './machines-view.js';
import { CodeText, ToolTitle } from './tool-title.js';

const KIND = { permission: 'permissionTitle', question: 'questionTitle', plan_approval: 'planTitle' } as const;

/** One pending interaction: where it is from, what it is, and the way to it. */
function InboxRow({ i, mine }: { i: PendingInteraction; mine: boolean }) {
  const sessions = useSelector(store, (s) => s.sessions);
  const machines = useSelector(store, (s) => s.machines);
  return (
    <li class="inbox-row" data-testid="inbox-row" data-hub-id={i.hubId ?? ''} data-mine={mine ? 'true' : 'false'}>
      <div>
        <div class="small muted">
          {t(KIND[i.kind])} · <CodeText text={sessions[i.sessionId]?.title || t('untitled')} />{' '}
          {i.hubId !== undefined ? <MachineChip m={machines[i.hubId]} /> : null}
        </div>
        <div class="inbox-title">
          <ToolTitle title={interactionLine(i)} cwd={sessions[i.sessionId]?.cwd} />
        </div>
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
          class={mine ? 'primary' : ''}
          onClick={() => store.update((s) => ({ ...s, activeInteraction: i.interactionId }))}
          data-testid="inbox-answer"
        >
          {mine ? t('answer') : t('inboxView')}
        </button>
      </div>
    </li>
  );
}

/**
 * Everything pending across sessions (`_zcode/interactions/list`): what waits for this device
 * first, then what waits for someone else (the hub's `eligible: false`), shown read-only.
 */
export function InboxView() {
  const list = useSelector(store, (s) => s.interactions);
  const items = pendingList({ ...store.get(), interactions: list });
  const { mine, others } = splitInbox(items);
  return (
    <div class="page">
      <TopBar title={t('inbox')} here="inbox" back={() => (history.length > 1 ? history.back() : navigate({ name: 'sessions' }))} />
      <main class="scroll list-page">
        {items.length === 0 ? <p class="muted center">{t('inboxEmpty')}</p> : null}
        {mine.length > 0 ? (
          <section aria-labelledby="inbox-mine" data-testid="inbox-mine">
            <h2 class="inbox-section" id="inbox-mine">
              {t('inboxForMe')}
            </h2>
            <ul class="rows">
              {mine.map((i) => (
                <InboxRow key={i.interactionId} i={i} mine />
              ))}
            </ul>
          </section>
        ) : null}
        {others.length > 0 ? (
          <section aria-labelledby="inbox-others" data-testid="inbox-others">
            <h2 class="inbox-section" id="inbox-others">
              {t('inboxForOthers')}
            </h2>
            <ul class="rows">
              {others.map((i) => (
                <InboxRow key={i.interactionId} i={i} mine={false} />
              ))}
            </ul>
          </section>
        ) : null}
      </main>
    </div>
  );
}
