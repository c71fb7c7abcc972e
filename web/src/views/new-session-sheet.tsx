import { useState } from 'preact/hooks';
import type { HubClient } from '../hub/hub-client.js';
import { workspaceName } from '../hub/session-list.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { Sheet } from './chrome.js';

/** The new-session sheet: where the agent should work, then Create. */
export function NewSessionSheet({ client, workspaces, onClose }: { client: HubClient; workspaces: string[]; onClose: () => void }) {
  const [cwd, setCwd] = useState(workspaces[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  return (
    <Sheet title={t('newSession')} onClose={onClose} testId="new-session-sheet">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError('');
          try {
            const sid = await client.newSession(cwd.trim());
            onClose();
            navigate({ name: 'chat', sessionId: sid });
          } catch (err) {
            setError((err as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        {workspaces.length > 1 ? (
          <div class="ws-recent" role="group" aria-label={t('recentWorkspaces')} data-testid="recent-workspaces">
            {workspaces.slice(0, 6).map((w) => (
              <button type="button" key={w} class={`chip ws-chip ${w === cwd ? 'chip-on' : ''}`} aria-pressed={w === cwd} title={w} onClick={() => setCwd(w)}>
                {workspaceName(w)}
              </button>
            ))}
          </div>
        ) : null}
        <label class="field">
          <span>{t('workspace')}</span>
          <input name="cwd" list="workspaces" value={cwd} onInput={(e) => setCwd(e.currentTarget.value)} placeholder="/home/me/project" spellcheck={false} autocapitalize="off" />
          <datalist id="workspaces">
            {workspaces.map((w) => (
              <option key={w} value={w} />
            ))}
          </datalist>
        </label>
        {error ? (
          <p class="error" role="alert">
            {t('error', error)}
          </p>
        ) : null}
        <div class="actions">
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button class="primary" type="submit" disabled={busy}>
            {t('create')}
          </button>
        </div>
      </form>
    </Sheet>
  );
}
