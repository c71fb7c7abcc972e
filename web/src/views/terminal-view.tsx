/**
 * The terminal panel of a session: the output of its shell calls and background tasks with
 * their ANSI colours, following the end as it streams (scrolling up stops following), search,
 * copy, and Stop for a running background task (operate and admin devices only). Loaded lazily
 * (app.tsx) so the parser stays out of the first screen's script.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { scopeOn, store, toast } from '../hub/app-state.js';
import type { ToolItem } from '../hub/chat-types.js';
import { taskRunning, terminalCards } from '../hub/terminal-cards.js';
import type { HubClient } from '../hub/hub-client.js';
import { stopTask } from '../hub/task-commands.js';
import { relativeTitle } from '../hub/tool-title.js';
import { t, type MessageKey } from '../i18n.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { findAll, piecesOf, plainOf, runsOf } from '../terminal/ansi-text.js';
import { WEB_LIMITS } from '../limits.js';
import { TopBar } from './chrome.js';
import { meterSubtitle, useContextUsage } from './context-meter.js';
import { Icon } from './icons.js';
import { inputSummary } from './tool-card.js';
import { useAttachedSession, useWholeHistory } from './session-page.js';
import '../terminal.css';

function statusKey(c: ToolItem): MessageKey {
  if (c.task?.status === 'cancelled') return 'terminalStatusStopped';
  if (c.task?.status === 'interrupted') return 'terminalStatusInterrupted';
  if (c.unfinished) return 'terminalStatusUnfinished';
  if (c.status === 'failed') return 'terminalStatusFailed';
  if (c.status === 'completed') return 'terminalStatusDone';
  return 'terminalStatusRunning';
}

function fromLine(text: string): string {
  const i = text.indexOf('\n');
  return i >= 0 && i < text.length - 1 ? text.slice(i + 1) : text;
}

function cardLabel(c: ToolItem, cwd: string | undefined): string {
  return relativeTitle(inputSummary(c.input) || c.title || c.toolCallId, cwd);
}

export function TerminalView({ client, sessionId, card }: { client: HubClient; sessionId: string; card?: string }) {
  useAttachedSession(client, sessionId);
  const usage = useContextUsage(sessionId);
  const items = useSelector(store, (s) => s.chats[sessionId]?.items);
  const attached = useSelector(store, (s) => s.chats[sessionId] !== undefined);
  const cwd = useSelector(store, (s) => s.sessions[sessionId]?.cwd);
  const scope = useSelector(store, (s) => scopeOn(s, client.hubId));
  const cards = useMemo(() => terminalCards(items), [items]);
  // A task launched before the loaded page of history runs on (the hub counts it): earlier pages
  // are loaded until its card is in.
  const hubRunning = useSelector(store, (s) => s.sessions[sessionId]?.runningTasks ?? 0);
  const unseen = hubRunning > cards.filter(taskRunning).length;
  const looking = useWholeHistory(client, sessionId, attached && unseen);
  // The card asked for, else the newest running task, else the newest terminal.
  const fallback = cards.filter(taskRunning).at(-1) ?? cards.at(-1);
  const shown = cards.find((c) => c.toolCallId === card) ?? fallback;
  const pick = (id: string) => navigate({ name: 'terminal', sessionId, card: id }, true);
  return (
    <div class="page terminal-page" data-testid="terminal-view">
      <TopBar title={t('terminal')} back={() => navigate({ name: 'chat', sessionId })} {...meterSubtitle(usage)} />
      <main class="page-main term-main">
        {cards.length > 1 ? (
          <label class="term-pick">
            <span class="sr-only">{t('terminalPick')}</span>
            <select value={shown?.toolCallId} onChange={(e) => pick(e.currentTarget.value)} data-testid="terminal-pick">
              {cards.map((c) => (
                <option key={c.toolCallId} value={c.toolCallId}>
                  {`${cardLabel(c, cwd)} · ${t(statusKey(c))}`}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {shown ? (
          <TerminalPane key={shown.toolCallId} client={client} sessionId={sessionId} item={shown} cwd={cwd} canStop={scope !== 'view'} />
        ) : (
          <p class="empty muted" data-testid="terminal-empty">
            {!attached || looking ? t('terminalWaiting') : unseen ? t('terminalTaskUnseen') : t('terminalNone')}
          </p>
        )}
      </main>
    </div>
  );
}

/** Copies the output as plain text, and says whether it worked. */
async function copyOutput(plain: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(plain);
    toast(t('terminalCopied'), 'terminal-copy');
  } catch {
    toast(t('terminalCopyFailed'), 'terminal-copy');
  }
}

/**
 * Following: the end of the output stays in view as it streams in, until the reader scrolls up
 * (and again once they scroll back to the end); a search takes over the scroll.
 */
function useFollow(out: { current: HTMLPreElement | null }, content: unknown, query: string) {
  const [follow, setFollow] = useState(true);
  useEffect(() => {
    const el = out.current;
    if (follow && el && query === '') el.scrollTop = el.scrollHeight;
  }, [content, follow, query]);
  const onScroll = () => {
    const el = out.current;
    if (!el) return;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
    if (follow !== atEnd) setFollow(atEnd);
  };
  return { follow, setFollow, onScroll };
}

/** Stops a background task from its pane, and says how that went. */
function useStopTask(client: HubClient, sessionId: string, item: ToolItem) {
  const [stopping, setStopping] = useState(false);
  const stop = async () => {
    if (!item.task) return;
    setStopping(true);
    try {
      await stopTask(client, sessionId, item.task.taskId);
      toast(t('terminalStopped'), 'terminal-stop');
    } catch (err) {
      toast(t('terminalStopFailed', err instanceof Error ? err.message : String(err)), 'terminal-stop');
    } finally {
      setStopping(false);
    }
  };
  return { stopping, stop };
}

function TerminalPane({
  client,
  sessionId,
  item,
  cwd,
  canStop,
}: {
  client: HubClient;
  sessionId: string;
  item: ToolItem;
  cwd: string | undefined;
  canStop: boolean;
}) {
  // Output cut at the front starts at its first whole line (a cut escape sequence would show as text).
  const text = useMemo(() => (item.terminalTrimmed ? fromLine(item.terminal) : item.terminal), [item.terminal, item.terminalTrimmed]);
  const runs = useMemo(() => runsOf(text), [text]);
  const plain = useMemo(() => plainOf(runs), [runs]);
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState(0);
  const { stopping, stop } = useStopTask(client, sessionId, item);
  const starts = useMemo(() => findAll(plain, query, WEB_LIMITS.terminalSearchMatchesMax), [plain, query]);
  const pieces = useMemo(() => piecesOf(runs, starts, query.length), [runs, starts, query]);
  const out = useRef<HTMLPreElement>(null);
  const running = taskRunning(item);
  const selected = starts.length === 0 ? -1 : Math.min(current, starts.length - 1);

  const { follow, setFollow, onScroll } = useFollow(out, pieces, query);
  // Searching: the selected match is scrolled into view (and following pauses).
  useEffect(() => {
    if (selected < 0) return;
    out.current?.querySelector('mark.current')?.scrollIntoView({ block: 'center' });
  }, [selected, query]);

  const copy = () => copyOutput(plain);
  const step = (d: number) => setCurrent((c) => (starts.length === 0 ? 0 : (c + d + starts.length) % starts.length));

  return (
    <section class="term-pane" aria-label={cardLabel(item, cwd)} data-testid="terminal-pane" data-status={item.status}>
      <div class="term-head">
        <Icon name="terminal" size={16} />
        <code class="term-command">{cardLabel(item, cwd)}</code>
        <span class={`pill pill-${item.status}`} data-testid="terminal-status">
          {t(statusKey(item))}
        </span>
      </div>
      <div class="term-tools">
        <input
          type="search"
          class="term-search"
          placeholder={t('terminalSearch')}
          aria-label={t('terminalSearch')}
          value={query}
          onInput={(e) => {
            setQuery(e.currentTarget.value);
            setCurrent(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') step(e.shiftKey ? -1 : 1);
          }}
          data-testid="terminal-search"
        />
        {query ? (
          <span class="term-count muted small" aria-live="polite" data-testid="terminal-matches">
            {starts.length === 0 ? t('terminalNoMatch') : t('terminalMatches', selected + 1, starts.length)}
          </span>
        ) : null}
        {query && starts.length > 1 ? (
          <>
            <button type="button" class="icon-btn" onClick={() => step(-1)} aria-label={t('terminalPrev')} data-testid="terminal-prev">
              <Icon name="up" size={18} />
            </button>
            <button type="button" class="icon-btn" onClick={() => step(1)} aria-label={t('terminalNext')} data-testid="terminal-next">
              <Icon name="down" size={18} />
            </button>
          </>
        ) : null}
      </div>
      <div class="term-actions">
        <button type="button" aria-pressed={follow} onClick={() => setFollow(!follow)} data-testid="terminal-follow">
          <Icon name="follow" size={16} />
          {t('terminalFollow')}
        </button>
        <button type="button" onClick={() => void copy()} disabled={plain === ''} data-testid="terminal-copy">
          <Icon name="copy" size={16} />
          {t('terminalCopy')}
        </button>
        {running && canStop ? (
          <button type="button" class="term-stop" onClick={() => void stop()} disabled={stopping} data-testid="terminal-stop">
            <Icon name="stop" size={16} />
            {stopping ? t('terminalStopping') : t('terminalStop')}
          </button>
        ) : null}
      </div>
      {running && !canStop ? (
        <p class="muted small term-note" data-testid="terminal-view-only">
          {t('terminalViewOnly')}
        </p>
      ) : null}
      {item.terminalTrimmed ? (
        <p class="term-trimmed small" data-testid="terminal-trimmed">
          {t('terminalTrimmed')}
        </p>
      ) : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled (axe scrollable-region-focusable) */}
      <pre class="term-out" ref={out} onScroll={onScroll} tabIndex={0} data-testid="terminal-output">
        {plain === ''
          ? t('terminalWaiting')
          : pieces.map((p, i) =>
              p.match === undefined ? (
                <span key={i} class={p.cls || undefined}>
                  {p.text}
                </span>
              ) : (
                <mark key={i} class={`${p.cls}${p.match === selected ? ' current' : ''}`}>
                  {p.text}
                </mark>
              ),
            )}
      </pre>
    </section>
  );
}
