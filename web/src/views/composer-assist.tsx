import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { RefObject } from 'preact';
import { toast, updateChat } from '../hub/app-state.js';
import { addNotice } from '../hub/chat-reducer.js';
import type { ChatState } from '../hub/chat-types.js';
import type { HubClient } from '../hub/hub-client.js';
import { compactSession, goalSession } from '../hub/session-commands.js';
import { t, useLocale } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { insertMention, mentionAt, mentionChoices, mentionLinks, type ResourceLink } from '../composer/mentions.js';
import { commandsFor, resolveCommand, type SlashCommand, suggestCommands } from '../composer/slash-commands.js';
import { notSentWhy } from '../hub/not-sent.js';
import { type DirEntry, listDir, sessionRest } from '../net/workspace-fs.js';
import { arr, rec, str } from '../wire.js';
import { choicesOf } from '../hub/config-choices.js';

interface Suggestion {
  key: string;
  label: string;
  detail?: string;
  current?: boolean;
  pick(): void;
}

type Workflow = { scope: string; name: string; description?: string };

function parseWorkflows(body: unknown): Workflow[] {
  return arr(rec(body)?.['workflows']).flatMap((w) => {
    const r = rec(w);
    const name = str(r?.['name']);
    return r && name
      ? [{ name, scope: str(r['scope']) ?? 'project', ...(str(r['description']) ? { description: str(r['description']) } : {}) }]
      : [];
  });
}

/** The session's saved workflows, offered as `/` commands (none while they load or when the hub has none). */
function useSavedWorkflows(sessionId: string): Workflow[] {
  const [workflows, setWorkflows] = useState<Workflow[]>([]);
  useEffect(() => {
    let live = true;
    sessionRest(sessionId)('/settings/workflows')
      .then(({ body }) => live && setWorkflows(parseWorkflows(body)))
      .catch(() => live && setWorkflows([]));
    return () => {
      live = false;
    };
  }, [sessionId]);
  return workflows;
}

/** The listing of the folder an `@` mention is in, fetched when the mention moves to another folder. */
function useDirListing(sessionId: string, dir: string | undefined) {
  const [listing, setListing] = useState<{ dir: string; root: string; entries: DirEntry[] } | undefined>();
  useEffect(() => {
    if (dir === undefined || listing?.dir === dir) return;
    let live = true;
    listDir(sessionId, dir || undefined).then(
      (l) => live && setListing({ dir, root: l.root, entries: l.entries }),
      () => live && setListing({ dir, root: '', entries: [] }),
    );
    return () => {
      live = false;
    };
  }, [dir, sessionId]);
  return listing;
}

/** Runs a picked `/` command; on failure the command goes back into the box, with the error. */
function runCommand(client: HubClient, sessionId: string, c: SlashCommand, argument: string, setText: (text: string) => void): void {
  setText('');
  const a = c.action;
  const failed = (err: unknown) => {
    setText(`/${c.name}${argument ? ` ${argument}` : ''}`);
    // A setting picked while the link reconnects waits for it (HubClient.setConfig); not sent, it says so.
    const setting = a.kind === 'mode' || a.kind === 'config';
    toast((setting && notSentWhy('setting', err)) || t('error', (err as Error).message));
  };
  switch (a.kind) {
    case 'mode':
      client.setMode(sessionId, a.modeId).catch(failed);
      return;
    case 'config':
      client.setConfig(sessionId, a.configId, a.value).catch(failed);
      return;
    case 'compact':
      compactSession(client, sessionId, argument || undefined).then(() => toast(t('cmdCompactStarted')), failed);
      return;
    case 'goal': {
      // A bare `/goal` shows the goal; with text it sets it.
      const action = a.action === 'set' && !argument ? 'show' : a.action;
      goalSession(client, sessionId, action, argument || undefined).then(
        (reply) => updateChat(sessionId, (ch) => addNotice(ch, reply || t('cmdGoalDone'), 'info')),
        failed,
      );
      return;
    }
    case 'workflow':
      sessionRest(sessionId)(`/settings/workflows/${encodeURIComponent(a.scope)}/${encodeURIComponent(a.name)}/start`, {
        method: 'POST',
        body: { sessionId },
      }).then(() => toast(t('cmdWorkflowStarted', a.name)), failed);
      return;
    case 'agent':
      // Never run here: picking one puts `/name ` in the prompt, and sending it prompts the agent.
      setText(`/${c.name}${argument ? ` ${argument}` : ''}`);
      return;
  }
}

/** The list above the prompt: one option per suggestion, the shown one marked. */
function SuggestList({ suggestions, shown }: { suggestions: Suggestion[]; shown: number }) {
  return (
    <div class="suggest" role="listbox" id="composer-suggest" aria-label={t('cmdSuggestions')} data-testid="suggestions">
      {suggestions.map((s, i) => (
        <div
          key={s.key}
          id={`composer-suggest-${i}`}
          role="option"
          aria-selected={i === shown}
          class={i === shown ? 'active' : ''}
          data-testid="suggestion"
          data-key={s.key}
          // Keep the focus (and the phone's keyboard) in the prompt.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => s.pick()}
          // The focus stays in the prompt (its keys move the list); this only serves a focused option.
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') s.pick();
          }}
          tabIndex={-1}
        >
          <span class="suggest-label">{s.label}</span>
          {s.current ? <span class="suggest-current small">{t('cmdCurrent')}</span> : null}
          {s.detail ? <span class="suggest-detail muted small">{s.detail}</span> : null}
        </div>
      ))}
    </div>
  );
}

/** The session's `/` commands: its modes, options, compaction, goal, saved workflows and the agent's own. */
function useSessionCommands(chat: ChatState): SlashCommand[] {
  const locale = useLocale();
  const workflows = useSavedWorkflows(chat.sessionId);
  return useMemo(
    () =>
      commandsFor({
        modes: chat.modes,
        ...(chat.modeId ? { modeId: chat.modeId } : {}),
        configOptions: chat.configOptions,
        choices: choicesOf,
        workflows,
        agentCommands: chat.agentCommands,
        text: (key, ...args) => t(key, ...args),
      }),
    [chat.modes, chat.modeId, chat.configOptions, chat.agentCommands, workflows, locale],
  );
}

/** A picked suggestion moves the caret to its end once the new text is in the box. */
function usePlaceCaret(
  input: RefObject<HTMLTextAreaElement | null>,
  caretAfter: { current: number | undefined },
  text: string,
  setCaret: (caret: number) => void,
): void {
  useLayoutEffect(() => {
    const el = input.current;
    if (el && caretAfter.current !== undefined) {
      el.focus();
      el.setSelectionRange(caretAfter.current, caretAfter.current);
      setCaret(caretAfter.current);
      caretAfter.current = undefined;
    }
  }, [text]);
}

/** The entries of the mention's folder that match what is typed; a file picked is remembered for its resource link. */
function mentionSuggestions(
  listing: { root: string; entries: DirEntry[] },
  mention: NonNullable<ReturnType<typeof mentionAt>>,
  text: string,
  at: number,
  onPick: (next: { text: string; caret: number }, file: string | undefined) => void,
): Suggestion[] {
  return mentionChoices(listing.entries, mention.partial, WEB_LIMITS.composerSuggestions).map((e) => ({
    key: `@${e.name}`,
    label: e.kind === 'dir' ? `${e.name}/` : e.name,
    ...(mention.dir ? { detail: `${mention.dir}/` } : {}),
    pick: () => {
      const isDir = e.kind === 'dir';
      const file = !isDir && listing.root ? (mention.dir ? `${mention.dir}/${e.name}` : e.name) : undefined;
      onPick(insertMention(text, at, mention, e.name, isDir), file);
    },
  }));
}

/** The commands that match what is typed: one without an argument runs when picked, one with an argument waits for it. */
function commandSuggestions(
  text: string,
  commands: SlashCommand[],
  run: (c: SlashCommand, argument: string) => void,
  onPick: (next: { text: string; caret: number }) => void,
): Suggestion[] {
  return suggestCommands(text, commands, WEB_LIMITS.composerSuggestions).map((c) => ({
    key: `/${c.name}`,
    label: `/${c.name}${c.argument ? ` ${c.argument}` : ''}`,
    detail: c.hint,
    ...(c.current ? { current: true } : {}),
    pick: () => {
      if (c.argument === undefined && c.action.kind !== 'agent') return run(c, '');
      onPick({ text: `/${c.name} `, caret: c.name.length + 2 });
    },
  }));
}

/** Props for the prompt's textarea: caret tracking, and the ARIA a textbox may carry for its list (aria-expanded is a combobox's, not a textbox's). */
function textboxProps(listShown: boolean, shown: number, setCaret: (caret: number) => void) {
  return {
    'aria-autocomplete': 'list' as const,
    // Only while the list exists: an id that names nothing is an invalid reference.
    ...(listShown ? { 'aria-controls': 'composer-suggest', 'aria-activedescendant': `composer-suggest-${shown}` } : {}),
    onSelect: (e: Event) => setCaret((e.currentTarget as HTMLTextAreaElement).selectionStart),
    onKeyUp: (e: KeyboardEvent) => setCaret((e.currentTarget as HTMLTextAreaElement).selectionStart),
    onClick: (e: MouseEvent) => setCaret((e.currentTarget as HTMLTextAreaElement).selectionStart),
  };
}

/**
 * What the composer offers while typing: `/` opens the session's commands (its modes, options,
 * compaction, goal, saved workflows), `@` completes workspace paths through the Files routes
 * (confined on the hub) and the chosen files go with the prompt as ACP resource links. Arrow keys
 * move, Enter or Tab picks, Escape closes.
 */
export function useComposerAssist(opts: {
  chat: ChatState;
  client: HubClient;
  text: string;
  setText: (text: string) => void;
  input: RefObject<HTMLTextAreaElement | null>;
}) {
  const { chat, client, text, setText, input } = opts;
  const sessionId = chat.sessionId;
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<string | undefined>();
  const chosen = useRef(new Map<string, string>());
  const caretAfter = useRef<number | undefined>(undefined);

  const commands = useSessionCommands(chat);
  const at = Math.min(caret, text.length);
  const mention = mentionAt(text, at);
  const listing = useDirListing(sessionId, mention?.dir);

  usePlaceCaret(input, caretAfter, text, setCaret);

  const run = (c: SlashCommand, argument: string) => runCommand(client, sessionId, c, argument, setText);

  const picked = (next: { text: string; caret: number }) => {
    caretAfter.current = next.caret;
    setText(next.text);
  };
  // Escape closes the list until the text changes.
  const open = dismissedAt !== text;
  let suggestions: Suggestion[] = [];
  if (open && mention && listing?.dir === mention.dir)
    suggestions = mentionSuggestions(listing, mention, text, at, (next, file) => {
      if (file) chosen.current.set(file, listing.root);
      picked(next);
    });
  else if (open && !mention) suggestions = commandSuggestions(text, commands, run, picked);
  const shown = Math.min(active, Math.max(0, suggestions.length - 1));

  return {
    /** The list above the prompt, or nothing. */
    list: suggestions.length ? <SuggestList suggestions={suggestions} shown={shown} /> : null,
    /** Props for the prompt's textarea (caret tracking, the list's ARIA). */
    inputProps: textboxProps(suggestions.length > 0, shown, setCaret),
    /** Typing moved the caret: keep it, and let a closed list open again. */
    onInput(el: HTMLTextAreaElement): void {
      setCaret(el.selectionStart);
      setActive(0);
    },
    /** Arrow keys, Enter/Tab and Escape while the list shows; true when the key was used. */
    onKeyDown(e: KeyboardEvent): boolean {
      if (!suggestions.length) return false;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        const n = suggestions.length;
        setActive((shown + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
      } else if ((e.key === 'Enter' && !e.shiftKey && !e.isComposing) || e.key === 'Tab') suggestions[shown]?.pick();
      else if (e.key === 'Escape') setDismissedAt(text);
      else return false;
      e.preventDefault();
      return true;
    },
    /** A sent text that names a command runs it instead of prompting; true when it did. */
    runIfCommand(sent: string): boolean {
      const found = resolveCommand(sent, commands);
      if (!found) return false;
      run(found.command, found.argument);
      return true;
    },
    /** The resource links of the files mentioned in a text being sent; forgets the picks. */
    takeLinks(sent: string): ResourceLink[] {
      const links = mentionLinks(sent, chosen.current);
      chosen.current = new Map();
      return links;
    },
  };
}
