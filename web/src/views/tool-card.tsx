import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { diffLines, trimContext } from '../diff-lines.js';
import type { ToolItem, ToolStatus } from '../hub/chat-types.js';
import { subagentGroup, type SubagentGroup } from '../hub/subagent-tree.js';
import { t, type MessageKey } from '../i18n.js';
import { rec, str } from '../wire.js';
import { Icon, type IconName } from './icons.js';
import { useContext } from 'preact/hooks';
import { store } from '../hub/app-state.js';
import { relativeTitle, titleParts } from '../hub/tool-title.js';
import { useSelector } from '../store.js';
import { SessionIdContext, ToolChangesLink, ToolTerminalLink } from './session-links.js';
import { stripAnsi, taskRunning } from '../hub/terminal-cards.js';
import { ToolTitle } from './tool-title.js';
import { specialToolCard } from './special-tool-card.js';

const STATUS_TEXT: Record<ToolStatus, MessageKey> = {
  pending: 'statusPending',
  in_progress: 'statusInProgress',
  completed: 'statusCompleted',
  failed: 'statusFailed',
};

function iconOf(kind: string | undefined): IconName {
  switch (kind) {
    case 'execute':
      return 'terminal';
    case 'read':
    case 'edit':
    case 'delete':
    case 'move':
      return 'file';
    case 'search':
    case 'fetch':
      return 'search';
    default:
      return 'tool';
  }
}

/** One line summarising a tool's input: the command, path, pattern or URL it acts on. */
export function inputSummary(input: unknown): string {
  if (typeof input === 'string') return input;
  const r = rec(input);
  if (!r) return '';
  for (const k of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description']) {
    const v = str(r[k]);
    if (v) return v;
  }
  const json = JSON.stringify(r);
  return json === '{}' ? '' : json;
}

function DiffView({ path, oldText, newText }: { path: string; oldText?: string | null; newText: string }) {
  const lines = trimContext(diffLines(oldText, newText));
  return (
    <div class="diff">
      <div class="diff-path">{path}</div>
      <pre>
        {lines.map((l, i) => (
          <div key={i} class={`dl dl-${l.op === '+' ? 'add' : l.op === '-' ? 'del' : l.op === '…' ? 'gap' : 'ctx'}`}>
            {l.op === '…' ? `⋯ ${l.text}` : `${l.op} ${l.text}`}
          </div>
        ))}
      </pre>
    </div>
  );
}

function ContentView({ c }: { c: ToolCallContent }) {
  switch (c.type) {
    case 'diff':
      return <DiffView path={c.path} oldText={c.oldText} newText={c.newText} />;
    case 'content': {
      const text = c.content.type === 'text' ? c.content.text : '';
      return text ? <pre class="tool-text">{text}</pre> : null;
    }
    case 'terminal':
      return null;
    default:
      return null;
  }
}

/** "Explore sub-agent", or "sub-agent" when the type is unknown. */
function subagentLabel(agentType: string | undefined): string {
  return agentType ? t('subagentNamed', agentType) : t('subagent');
}

/** The cards a sub-agent ran, as a compact list under the card that spawned it. */
function SubagentList({ item, group }: { item: ToolItem; group: SubagentGroup }) {
  const label = subagentLabel(group.agentType);
  // Open while the parent or a child still runs, then folded like a finished card.
  const open = group.running || item.status === 'pending' || item.status === 'in_progress';
  return (
    <details class="subagent" open={open} data-testid="subagent-group">
      <summary>
        <Icon name="chevron" size={14} />
        <span class="subagent-label">{label}</span>
        <span class="pill">{group.count === 1 ? t('subagentCountOne') : t('subagentCount', group.count)}</span>
      </summary>
      <ul class="subagent-list" aria-label={label}>
        {(item.children ?? []).map((c) => (
          <li key={c.id}>
            <ToolCard item={c} nested />
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * A tool call: status, input summary, terminal output and diffs (collapsed once done), and the
 * cards of a sub-agent it spawned. `nested` marks a card inside such a list (compact, folded
 * unless it failed).
 */
export function ToolCard({ item, nested = false }: { item: ToolItem; nested?: boolean }) {
  const sessionId = useContext(SessionIdContext);
  const cwd = useSelector(store, (s) => (sessionId === undefined ? undefined : s.sessions[sessionId]?.cwd));
  const special = nested ? undefined : specialToolCard(item);
  if (special) return special;
  const summary = relativeTitle(inputSummary(item.input), cwd);
  const hasBody = item.terminal !== '' || item.content.some((c) => c.type !== 'terminal');
  const open = nested ? item.status === 'failed' : item.status === 'in_progress' || item.status === 'pending' || item.status === 'failed';
  const group = subagentGroup(item);
  // A call its cut turn left open did not fail: it says so rather than "failed".
  const pill = item.unfinished ? 'unfinished' : item.status;
  return (
    <div
      class={`tool tool-${item.status}${nested ? ' tool-nested' : ''}`}
      data-testid="tool-card"
      data-status={item.status}
      data-unfinished={item.unfinished ? 'true' : undefined}
    >
      <details open={open}>
        <summary>
          <Icon name={iconOf(item.toolKind)} size={16} />
          <span class="tool-title">
            <ToolTitle title={item.title} cwd={cwd} />
          </span>
          {/* A sub-agent's card whose parent is not shown (e.g. a history page without it). */}
          {item.subagent && !nested ? <span class="pill pill-subagent">{subagentLabel(item.subagent.agentType)}</span> : null}
          {item.background ? <span class="pill">{t('background')}</span> : null}
          <span class={`pill pill-${pill}`}>{t(item.unfinished ? 'statusUnfinished' : STATUS_TEXT[item.status])}</span>
        </summary>
        {/* The input again only when the title does not already say it (a command's title is the command). */}
        {summary &&
        summary !==
          titleParts(item.title, cwd)
            .map((p) => p.text)
            .join('') ? (
          <code class="tool-input">{summary}</code>
        ) : null}
        {hasBody ? (
          <div class="tool-body">
            {item.content.map((c, i) => (
              <ContentView key={i} c={c} />
            ))}
            {item.terminal ? (
              <figure class="terminal-figure">
                <figcaption class="sr-only">{t('toolOutput')}</figcaption>
                <pre class="terminal">
                  {stripAnsi(item.terminal)}
                  {item.exitCode !== undefined && item.exitCode !== null && !taskRunning(item) ? (
                    <span class="exit">{`\n${t('exitCode', item.exitCode)}`}</span>
                  ) : null}
                </pre>
              </figure>
            ) : null}
            <ToolTerminalLink item={item} />
          </div>
        ) : null}
      </details>
      {/* Outside the details: a collapsed (finished) card still says it. */}
      {item.unfinished ? (
        <div class="tool-answered muted small" data-testid="card-unfinished">
          {t('cardUnfinished')}
        </div>
      ) : null}
      {item.overwrites ? (
        <div class="tool-answered muted small" data-testid="card-overwrites">
          {t('cardOverwrites')}
        </div>
      ) : null}
      {item.answeredBy ? (
        <div class="tool-answered muted small" data-testid="answered-by">
          {item.byRule ? item.answeredBy : t('answeredBy', item.answeredBy)}
        </div>
      ) : item.approval && item.approval.state === 'open' ? (
        <div class="tool-answered muted small" data-testid="card-waiting">
          {item.approval.progress ? `${item.approval.waitingFor} · ${item.approval.progress}` : item.approval.waitingFor}
        </div>
      ) : null}
      <ToolChangesLink item={item} />
      {group ? <SubagentList item={item} group={group} /> : null}
    </div>
  );
}
