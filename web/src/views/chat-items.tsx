import type { PlanEntry } from '@agentclientprotocol/sdk';
import { store } from '../hub/app-state.js';
import { selfText } from '../hub/author-text.js';
import type { ChatItem, RetryPrompt } from '../hub/chat-types.js';
import { useSelector } from '../store.js';
import { t } from '../i18n.js';
import { useRef } from 'preact/hooks';
import { Markdown } from './markdown-view.js';
import { ReadAloud } from './read-aloud.js';
import { ToolCard } from './tool-card.js';
import { Icon } from './icons.js';
import { CodeText } from './tool-title.js';

/** One item of the conversation. `streaming` marks the last agent text while a turn runs. */
export function ChatItemView({
  item,
  streaming,
  onRetry,
  waitingForLink,
}: {
  item: ChatItem;
  streaming: boolean;
  onRetry?: (r: RetryPrompt) => void;
  /** A prompt sent while its link reconnects (waiting-prompts.ts): shown, marked as not gone yet, with what takes it back. */
  waitingForLink?: () => void;
}) {
  const me = useSelector(store, (s) => s.me);
  switch (item.kind) {
    case 'user': {
      // Who asked, the hub's verified `promptedBy` (person · device); this device's own prompts say so.
      const self = selfText(me);
      const name = item.author ?? (item.own ? self : undefined);
      const mine =
        item.own === true ||
        (item.authorTokenId !== undefined
          ? item.authorTokenId === me?.tokenId
          : name !== undefined && (name === self || name === me?.device || name === me?.name));
      // Dashed while on its way: once the hub started its turn (promptId) it is sent, though the turn runs on.
      const pending = item.localId !== undefined && item.promptId === undefined;
      return (
        <div
          class={`msg msg-user ${pending ? 'msg-pending' : ''}`}
          data-testid="user-message"
          {...(waitingForLink ? { 'data-waiting': 'link' } : {})}
        >
          {name ? (
            <div class="msg-author" data-testid="msg-author">
              {mine ? t('youNamed', name) : name}
            </div>
          ) : null}
          {item.images.length ? (
            <div class="msg-images">
              {item.images.map((src, i) => (
                <img key={i} src={src} alt="" loading="lazy" />
              ))}
            </div>
          ) : null}
          {item.text ? (
            <div class="msg-text">
              <CodeText text={item.text} />
            </div>
          ) : null}
          {waitingForLink ? (
            <div class="msg-waiting muted small" data-testid="waiting-for-link">
              <span>{t('waitingForLink')}</span>
              <button type="button" class="link" data-testid="dont-send" onClick={waitingForLink}>
                {t('dontSend')}
              </button>
            </div>
          ) : null}
        </div>
      );
    }
    case 'agent':
      return <AgentMessage text={item.text} streaming={streaming} />;
    case 'thought':
      return (
        <details class="thought" data-testid="thought">
          <summary>{streaming ? t('thinking') : t('showReasoning')}</summary>
          <Markdown text={item.text} class="md thought-text" />
        </details>
      );
    case 'tool':
      return <ToolCard item={item} />;
    case 'notice':
      if (item.outcome) {
        // A turn that failed or was cut off: what happened, and the same prompt again.
        const retry = item.retry;
        return (
          <div class="turn-ended" role="alert" data-testid="turn-ended" data-outcome={item.outcome}>
            <strong>{item.outcome === 'interrupted' ? t('turnInterrupted') : t('turnFailedTitle')}</strong>
            {item.text ? <div class="turn-ended-text">{item.text}</div> : null}
            {retry && onRetry ? (
              <button type="button" onClick={() => onRetry(retry)} data-testid="retry-button">
                {t('retry')}
              </button>
            ) : null}
          </div>
        );
      }
      return <NoticeView text={item.text} level={item.level} />;
  }
}

/** `Label: value` — a line of a report such as the goal's ("Objective: …", "Usage: …"). */
const FIELD_LINE = /^([^:\n]{1,40}):\s*(.*)$/;

/**
 * A notice; one of several lines (the agent's goal report: "Goal active", then "Objective: …",
 * "Usage: …") is shown as a small card: its first line a heading, its `Label: value` lines a
 * list of terms, instead of running together as one sentence.
 */
function NoticeView({ text, level }: { text: string; level: 'info' | 'warning' | 'error' }) {
  const role = level === 'error' ? 'alert' : undefined;
  const [head, ...rest] = text.split('\n').filter((l) => l.trim() !== '');
  if (rest.length === 0)
    return (
      <div class={`notice notice-${level}`} role={role} data-testid="notice">
        {text}
      </div>
    );
  return (
    <div class={`notice notice-${level} notice-card`} role={role} data-testid="notice">
      <strong class="notice-head">{head}</strong>
      <dl class="notice-fields">
        {rest.map((line, i) => {
          const m = FIELD_LINE.exec(line);
          return m ? (
            <div key={i}>
              <dt>{m[1]}</dt>
              <dd>{m[2]}</dd>
            </div>
          ) : (
            <div key={i}>
              <dd>{line}</dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

/**
 * An answer; once it is complete it can be read aloud as shown. The button sits beside the
 * message, not in it, so the message's text stays the answer's text.
 */
function AgentMessage({ text, streaming }: { text: string; streaming: boolean }) {
  const body = useRef<HTMLDivElement>(null);
  // biome-ignore lint/performance/useDomNodeTextContent: the text as laid out, with a break between paragraphs and list items, so the voice pauses there
  const shown = () => body.current?.innerText ?? text;
  return (
    <>
      <div ref={body} class={`msg msg-agent ${streaming ? 'streaming' : ''}`} data-testid="agent-message">
        <Markdown text={text} />
      </div>
      {streaming || !text.trim() ? null : <ReadAloud text={shown} />}
    </>
  );
}

/** The agent's plan / todo list: pinned above the composer while a step is open, else in its turn. */
export function PlanView({ entries, pinned }: { entries: PlanEntry[]; pinned: boolean }) {
  if (!entries.length) return null;
  const done = entries.filter((e) => e.status === 'completed').length;
  return (
    <details
      class={pinned ? 'plan' : 'plan plan-in-turn'}
      data-testid="plan"
      data-place={pinned ? 'pinned' : 'turn'}
      // A finished plan sits at the foot of its turn, often the chat's last line: opened, its steps
      // would unfold below the fold. A pinned plan scrolls inside its own box instead.
      onToggle={(e) => {
        if (!pinned && e.currentTarget.open) e.currentTarget.scrollIntoView({ block: 'nearest' });
      }}
    >
      <summary>
        <Icon name="chevron" size={14} />
        {t('plan')} · {done}/{entries.length}
      </summary>
      <ol>
        {entries.map((e, i) => (
          <li key={i} class={`plan-${e.status}`}>
            <span class="plan-mark" aria-hidden="true">
              {e.status === 'completed' ? '✓' : e.status === 'in_progress' ? '◐' : '○'}
            </span>
            {e.content}
          </li>
        ))}
      </ol>
    </details>
  );
}
