import { createContext } from 'preact';
import { useContext, useMemo } from 'preact/hooks';
import { appliedCount, cardCounts, collectChanges, hasDiff } from '../changes/changes.js';
import { store } from '../hub/app-state.js';
import type { ToolItem } from '../hub/chat-types.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { Icon } from './icons.js';
import { taskRunning, terminalCards } from '../hub/terminal-cards.js';
import { LineCounts } from './line-counts.js';

/** The session a chat view shows, for cards deep inside it that link to its other screens. */
export const SessionIdContext = createContext<string | undefined>(undefined);

/** An icon button of the chat header with a count badge when the count is above zero. */
function CountLink(p: {
  onClick: () => void;
  label: string;
  icon: 'terminal' | 'diff';
  count: number;
  testId: string;
  countTestId: string;
}) {
  return (
    <button type="button" class="icon-btn badge-host" onClick={p.onClick} aria-label={p.label} data-testid={`${p.testId}-button`}>
      <Icon name={p.icon} />
      {p.count > 0 ? (
        <span class="count count-info" data-testid={p.countTestId}>
          {p.count}
        </span>
      ) : null}
    </button>
  );
}

/**
 * How many of the session's background tasks run now. The hub's count (`runningTasks` of the
 * session list and `_zcode/session_state`) covers every task of the session; the cards cover only
 * the loaded page of history, so a task launched many turns ago would be missed. The cards count
 * only until the list has told the hub's.
 */
export function useRunningTasks(sessionId: string): number {
  const items = useSelector(store, (s) => s.chats[sessionId]?.items);
  const hub = useSelector(store, (s) => s.sessions[sessionId]?.runningTasks);
  const loaded = useMemo(() => terminalCards(items).filter(taskRunning).length, [items]);
  return hub ?? loaded;
}

/**
 * The header's state while a background task outlives its turn: the session is not idle, it
 * runs a task — a pill that opens the terminal panel.
 */
export function TaskRunningBadge({ sessionId, count }: { sessionId: string; count: number }) {
  const text = taskRunningText(count);
  return (
    <button
      type="button"
      class="badge badge-running badge-task"
      data-badge="task"
      data-testid="state-badge"
      aria-label={t('taskRunningOpen', text)}
      onClick={() => navigate({ name: 'terminal', sessionId })}
    >
      <Icon name="terminal" size={12} />
      {text}
    </button>
  );
}

function taskRunningText(count: number): string {
  return count === 1 ? t('taskRunningBadge') : t('tasksRunningBadge', count);
}

/** The same state in a session-list row (inside the row's link, so not a button of its own). */
export function TaskRunningPill({ count }: { count: number }) {
  return (
    <span class="badge badge-running badge-task" data-badge="task" data-testid="state-badge">
      <Icon name="terminal" size={12} />
      {taskRunningText(count)}
    </span>
  );
}

/** The chat header's shortcuts to the session's Terminal (when it has output), Changes (with the changed-file count) and Files (operate devices, once the hub has said so). */
export function SessionLinks({ sessionId, canBrowse }: { sessionId: string; canBrowse: boolean }) {
  const items = useSelector(store, (s) => s.chats[sessionId]?.items);
  const count = useMemo(() => appliedCount(collectChanges(items ?? [])), [items]);
  const terminals = useMemo(() => terminalCards(items).length, [items]);
  const running = useRunningTasks(sessionId);
  return (
    <span class="session-links">
      {terminals > 0 || running > 0 ? (
        <CountLink
          onClick={() => navigate({ name: 'terminal', sessionId })}
          label={running ? t('terminalRunningCount', running) : t('terminal')}
          icon="terminal"
          count={running}
          testId="terminal"
          countTestId="terminal-running"
        />
      ) : null}
      <CountLink
        onClick={() => navigate({ name: 'changes', sessionId })}
        label={count ? t('changesCount', count) : t('changes')}
        icon="diff"
        count={count}
        testId="changes"
        countTestId="changes-count"
      />
      {/* Files are served to operate devices only, like the git badge (app-state.ts mayBrowse). */}
      {canBrowse ? (
        <button
          type="button"
          class="icon-btn"
          onClick={() => navigate({ name: 'files', sessionId })}
          aria-label={t('files')}
          data-testid="files-button"
        >
          <Icon name="folder" />
        </button>
      ) : null}
    </span>
  );
}

/** "View changes" under a card that edited a file: opens the Changes view at that file. */
export function ToolChangesLink({ item }: { item: ToolItem }) {
  const sessionId = useContext(SessionIdContext);
  if (!sessionId || !hasDiff(item) || item.status === 'failed') return null;
  const first = item.content.find((c) => c.type === 'diff');
  const file = first && first.type === 'diff' ? first.path : undefined;
  const n = cardCounts(item);
  return (
    <button
      type="button"
      class="link tool-changes-link"
      onClick={() => navigate({ name: 'changes', sessionId, ...(file ? { file } : {}) })}
      data-testid="view-changes"
    >
      <Icon name="diff" size={16} />
      {t('viewChanges')}
      {n.replacedLines === undefined ? null : (
        <span class="muted small" data-testid="view-changes-replaced">
          {t('changesReplacedLines', n.replacedLines)}
        </span>
      )}
      {n.counted ? <LineCounts added={n.added} removed={n.removed} /> : null}
    </button>
  );
}

/** "Open in terminal" under a card whose output is a terminal: the panel at that card (colours, search, copy, Stop). */
export function ToolTerminalLink({ item }: { item: ToolItem }) {
  const sessionId = useContext(SessionIdContext);
  if (!sessionId || (item.terminal === '' && item.task === undefined)) return null;
  return (
    <button
      type="button"
      class="link tool-terminal-link"
      onClick={() => navigate({ name: 'terminal', sessionId, card: item.toolCallId })}
      data-testid="open-terminal"
    >
      <Icon name="terminal" size={16} />
      {t('terminalOpen')}
    </button>
  );
}
