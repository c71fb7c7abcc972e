import { useState } from 'preact/hooks';
import { store } from '../hub/app-state.js';
import { t } from '../i18n.js';
import type { HubClient } from '../hub/hub-client.js';
import { deleteSession } from '../hub/session-gone.js';
import { navigate } from '../router.js';
import { Sheet, SheetFormEnd } from './chrome.js';
import { useSelector } from '../store.js';

/** Renames a session (`PATCH /api/sessions/:id`, the agent's renameSession); every device sees it. */
export function RenameSheet({
  client,
  sessionId,
  current,
  onClose,
}: {
  client: HubClient;
  sessionId: string;
  current: string;
  onClose: () => void;
}) {
  const [title, setTitle] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const archived = useSelector(store, (s) => s.sessions[sessionId]?.archived === true);
  return (
    <Sheet title={t('renameTitle')} onClose={onClose} testId="rename-sheet">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const next = title.trim();
          if (!next) return;
          setBusy(true);
          setError('');
          try {
            await client.api(`/sessions/${encodeURIComponent(sessionId)}`, { method: 'PATCH', body: { title: next } });
            // Shown at once here; other devices hear it from the hub.
            store.update((s) => ({
              ...s,
              sessions: s.sessions[sessionId] ? { ...s.sessions, [sessionId]: { ...s.sessions[sessionId], title: next } } : s.sessions,
              chats: s.chats[sessionId] ? { ...s.chats, [sessionId]: { ...s.chats[sessionId], title: next } } : s.chats,
            }));
            onClose();
          } catch (err) {
            setError((err as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label class="field">
          <span>{t('sessionTitle')}</span>
          <input name="title" value={title} maxLength={200} onInput={(e) => setTitle(e.currentTarget.value)} data-testid="rename-input" />
        </label>
        <SheetFormEnd error={error} onClose={onClose} submitLabel={t('save')} disabled={busy || !title.trim()} submitTestId="rename-save" />
        <button
          type="button"
          class="wide archive-session"
          disabled={busy}
          data-testid="archive-session"
          onClick={async () => {
            setBusy(true);
            try {
              await client.archive(sessionId, !archived);
              onClose();
              // Archived: back to the list it just left; unarchived: stay in the chat.
              if (!archived) navigate({ name: 'sessions' }, true);
            } catch (err) {
              setError((err as Error).message);
              setBusy(false);
            }
          }}
        >
          {archived ? t('unarchive') : t('archive')}
        </button>
        <button
          type="button"
          class="danger wide delete-session"
          disabled={busy}
          data-testid="delete-session"
          onClick={async () => {
            if (!window.confirm(t('deleteSessionConfirm'))) return;
            setBusy(true);
            try {
              await deleteSession(client, sessionId);
            } catch (err) {
              setError((err as Error).message);
              setBusy(false);
            }
          }}
        >
          {t('deleteSession')}
        </button>
      </form>
    </Sheet>
  );
}
