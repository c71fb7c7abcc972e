import { useState } from 'preact/hooks';
import { store } from '../hub/app-state.js';
import type { HubClient } from '../hub/hub-client.js';
import { badgeOf, groupByWorkspace, workspaceName, type Badge, type SessionSummary } from '../hub/session-list.js';
import { t, type MessageKey } from '../i18n.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { Sheet, TopBar } from './chrome.js';
import { Icon } from './icons.js';
import { Age } from './age.js';
import { matchesQuery } from '../hub/session-find.js';
import { MachineChip } from './machines-view.js';
import { MachineFilter, MachinesDown, useMachineFilter } from './machine-filter.js';
import { clientFor } from '../machines/registry.js';

const BADGE_TEXT: Record<Badge, MessageKey> = { needs_you: 'badgeNeedsYou', running: 'badgeRunning', finished: 'badgeFinished', idle: 'badgeIdle' };

/** A state badge (running, needs you, just finished, idle). */
export function StateBadge({ badge }: { badge: Badge }) {
  return (
    <span class={`badge badge-${badge}`} data-badge={badge}>
      {t(BADGE_TEXT[badge])}
    </span>
  );
}

function Row({ s, seenAt }: { s: SessionSummary; seenAt: number }) {
  const badge = badgeOf(s, Date.now(), seenAt);
  const machine = useSelector(store, (st) => (s.hubId !== undefined ? st.machines[s.hubId] : undefined));
  return (
    <li>
      <a
        class={`session-row ${machine && machine.status !== 'online' ? 'is-down' : ''}`}
        href={s.hubId !== undefined ? `/m/${encodeURIComponent(s.hubId)}/s/${encodeURIComponent(s.sessionId)}` : `/s/${encodeURIComponent(s.sessionId)}`}
        data-hub-id={s.hubId ?? ''}
        data-testid="session-row"
        data-session-id={s.sessionId}
        onClick={(e) => {
          e.preventDefault();
          navigate({ name: 'chat', sessionId: s.sessionId });
        }}
      >
        <span class="session-title">{s.title || t('untitled')}</span>
        <span class="session-meta">
          <StateBadge badge={badge} />
          <MachineChip m={machine} />
          {s.model ? <span class="muted small">{s.model}</span> : null}
          {s.clients > 1 ? <span class="muted small">{t('clients', s.clients)}</span> : null}
          <Age s={s} />
        </span>
      </a>
    </li>
  );
}

/** Sessions across workspaces, live (session/list + `_zcode/session_state`). */
export function SessionListView({ client }: { client: HubClient }) {
  const sessions = useSelector(store, (s) => s.sessions);
  const loaded = useSelector(store, (s) => s.sessionsLoaded);
  const seen = useSelector(store, (s) => s.seenAt);
  const filterNow = useMachineFilter();
  const defaultWorkspace = useSelector(store, (s) => (filterNow ? s.machines[filterNow]?.defaultWorkspace : s.defaultWorkspace));
  const [creating, setCreating] = useState(false);
  const [query, setQuery] = useState('');
  const machineFilter = filterNow;
  const target = machineFilter === undefined || machineFilter === '' ? client : clientFor(machineFilter);
  const all = Object.values(sessions).filter((s) => machineFilter === undefined || (s.hubId ?? '') === machineFilter);
  const groups = groupByWorkspace(all.filter((s) => matchesQuery(s, query)));
  return (
    <div class="page">
      <TopBar title={t('sessions')} />
      <main class="scroll list-page">
        <MachineFilter />
        <MachinesDown />
        {all.length > 0 ? (
          <input class="session-search" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} placeholder={t('searchSessions')} aria-label={t('searchSessions')} data-testid="session-search" />
        ) : null}
        {!loaded ? <p class="muted center">{t('loading')}</p> : all.length === 0 ? <p class="muted center">{t('noSessions')}</p> : groups.length === 0 ? <p class="muted center">{t('searchNone', query)}</p> : null}
        {groups.map((g) => (
          <section key={g.cwd} class="group">
            <h2 class="group-title" title={g.cwd}>
              {workspaceName(g.cwd)}
            </h2>
            <ul class="rows">
              {g.sessions.map((s) => (
                <Row key={s.sessionId} s={s} seenAt={seen[s.sessionId] ?? 0} />
              ))}
            </ul>
          </section>
        ))}
      </main>
      <button class="fab" onClick={() => setCreating(true)} aria-label={t('newSession')} data-testid="new-session">
        <Icon name="plus" size={24} />
      </button>
      {creating ? <NewSessionSheet client={target} workspaces={[...new Set([...groupByWorkspace(all).map((g) => g.cwd), ...(defaultWorkspace ? [defaultWorkspace] : [])])]} onClose={() => setCreating(false)} /> : null}
    </div>
  );
}

function NewSessionSheet({ client, workspaces, onClose }: { client: HubClient; workspaces: string[]; onClose: () => void }) {
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
