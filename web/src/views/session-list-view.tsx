import { useState } from 'preact/hooks';
import { store, toast } from '../hub/app-state.js';
import type { HubClient } from '../hub/hub-client.js';
import { badgeOf, groupByWorkspace, workspaceName, type Badge, type SessionSummary } from '../hub/session-list.js';
import { sessionWaits } from '../hub/session-waits.js';
import { t, type MessageKey } from '../i18n.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { TopBar } from './chrome.js';
import { Icon } from './icons.js';
import { Age } from './age.js';
import { matchesQuery } from '../hub/session-find.js';
import { plainTitle } from '../hub/tool-title.js';
import { CodeText } from './tool-title.js';
import { MachineChip } from './machines-view.js';
import { MachineFilter, MachinesDown, useMachineFilter } from './machine-filter.js';
import { clientFor } from '../machines/registry.js';
import { NewSessionSheet } from './new-session-sheet.js';
import { TaskRunningPill } from './session-links.js';

const BADGE_TEXT: Record<Badge, MessageKey> = {
  needs_you: 'badgeNeedsYou',
  waiting: 'badgeWaiting',
  running: 'badgeRunning',
  finished: 'badgeFinished',
  idle: 'badgeIdle',
};

/** A state badge (running, needs you, waiting for someone else, just finished, idle). */
export function StateBadge({ badge, waitingFor }: { badge: Badge; waitingFor?: string | undefined }) {
  return (
    <span class={`badge badge-${badge}`} data-badge={badge} data-testid="state-badge">
      {badge === 'waiting' && waitingFor !== undefined ? waitingFor : t(BADGE_TEXT[badge])}
    </span>
  );
}

function Row({ s, seenAt, onUnarchive }: { s: SessionSummary; seenAt: number; onUnarchive?: () => void }) {
  const interactions = useSelector(store, (st) => st.interactions);
  const waits = sessionWaits(interactions, s.sessionId, s.hubId);
  const badge = badgeOf(s, Date.now(), seenAt, waits);
  const machine = useSelector(store, (st) => (s.hubId !== undefined ? st.machines[s.hubId] : undefined));
  // With other machines around, the home hub's sessions carry its name too.
  const homeName = useSelector(store, (st) =>
    s.hubId === undefined && Object.keys(st.machines).length > 0 ? st.homeHub?.name : undefined,
  );
  return (
    <li class="session-item">
      <a
        class={`session-row ${machine && machine.status !== 'online' ? 'is-down' : ''}`}
        href={
          s.hubId !== undefined
            ? `/m/${encodeURIComponent(s.hubId)}/s/${encodeURIComponent(s.sessionId)}`
            : `/s/${encodeURIComponent(s.sessionId)}`
        }
        data-hub-id={s.hubId ?? ''}
        data-testid="session-row"
        data-session-id={s.sessionId}
        onClick={(e) => {
          e.preventDefault();
          navigate({ name: 'chat', sessionId: s.sessionId });
        }}
      >
        <span class="session-title">
          <CodeText text={s.title || t('untitled')} />
        </span>
        {s.preview ? (
          <span class="session-preview" data-testid="session-preview">
            {s.preview.role === 'user' ? t('previewYou', s.preview.text) : s.preview.text}
          </span>
        ) : null}
        <span class="session-meta">
          {/* A background task outliving its turn: not idle (as the chat header says). */}
          {(s.runningTasks ?? 0) > 0 && (badge === 'idle' || badge === 'finished') ? (
            <TaskRunningPill count={s.runningTasks ?? 0} />
          ) : (
            <StateBadge badge={badge} waitingFor={waits.waitingFor} />
          )}
          <MachineChip m={machine} />
          {homeName ? (
            <span class="machine-chip" data-testid="machine-chip" data-hub-id="">
              {homeName}
            </span>
          ) : null}
          {s.model ? <span class="muted small">{s.model}</span> : null}
          {s.clients > 1 ? <span class="muted small">{t('clients', s.clients)}</span> : null}
          <Age s={s} />
        </span>
      </a>
      {onUnarchive ? (
        <button
          type="button"
          class="unarchive"
          onClick={onUnarchive}
          data-testid="unarchive"
          aria-label={`${t('unarchive')}: ${plainTitle(s.title || t('untitled'))}`}
        >
          {t('unarchive')}
        </button>
      ) : null}
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
  const [showArchived, setShowArchived] = useState(false);
  const machineFilter = filterNow;
  const target = machineFilter === undefined || machineFilter === '' ? client : clientFor(machineFilter);
  const all = Object.values(sessions).filter((s) => machineFilter === undefined || (s.hubId ?? '') === machineFilter);
  const archivedCount = all.filter((s) => s.archived).length;
  const archivedView = showArchived && archivedCount > 0;
  const shown = all.filter((s) => Boolean(s.archived) === archivedView);
  const groups = groupByWorkspace(shown.filter((s) => matchesQuery(s, query)));
  const unarchive = (s: SessionSummary) => () => {
    const c = s.hubId === undefined ? client : clientFor(s.hubId);
    c.archive(s.sessionId, false).catch((err: unknown) => toast(t('error', (err as Error).message)));
  };
  return (
    <div class="page">
      <TopBar title={t('sessions')} />
      <main class="scroll list-page">
        <MachineFilter />
        <MachinesDown />
        {all.length > 0 ? (
          <input
            class="session-search"
            type="search"
            value={query}
            onInput={(e) => setQuery(e.currentTarget.value)}
            placeholder={t('searchSessions')}
            aria-label={t('searchSessions')}
            data-testid="session-search"
          />
        ) : null}
        {archivedCount > 0 ? (
          <div class="list-filter">
            <button
              type="button"
              class={`chip ${archivedView ? 'chip-on' : ''}`}
              aria-pressed={archivedView}
              onClick={() => setShowArchived(!archivedView)}
              data-testid="archived-filter"
            >
              {t('archivedCount', archivedCount)}
            </button>
            {archivedView ? <span class="muted small">{t('archivedHint')}</span> : null}
          </div>
        ) : null}
        {!loaded ? (
          <p class="muted center">{t('loading')}</p>
        ) : shown.length === 0 ? (
          <p class="muted center">{archivedCount > 0 ? t('allArchived') : t('noSessions')}</p>
        ) : groups.length === 0 ? (
          <p class="muted center">{t('searchNone', query)}</p>
        ) : null}
        {groups.map((g) => (
          <section key={g.cwd} class="group">
            <h2 class="group-title" title={g.cwd}>
              {workspaceName(g.cwd)}
            </h2>
            <ul class="rows">
              {g.sessions.map((s) => (
                <Row key={s.sessionId} s={s} seenAt={seen[s.sessionId] ?? 0} {...(archivedView ? { onUnarchive: unarchive(s) } : {})} />
              ))}
            </ul>
          </section>
        ))}
      </main>
      <button type="button" class="fab" onClick={() => setCreating(true)} aria-label={t('newSession')} data-testid="new-session">
        <Icon name="plus" size={24} />
      </button>
      {creating ? (
        <NewSessionSheet
          client={target}
          workspaces={[...new Set([...groupByWorkspace(all).map((g) => g.cwd), ...(defaultWorkspace ? [defaultWorkspace] : [])])]}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </div>
  );
}
