import { useEffect, useState } from 'preact/hooks';
import { store } from '../hub/app-state.js';
import { useSelector } from '../store.js';
import { parseUnifiedDiff } from '../changes/unified-diff.js';
import { t } from '../i18n.js';
import { gitDiff, gitState, type GitFile, type GitState } from '../net/workspace-fs.js';
import { Sheet } from './chrome.js';
import { DiffRows } from './diff-block.js';
import { Icon } from './icons.js';

/**
 * The chat header's git state: the branch and how many files changed, read from the hub
 * (`GET /api/sessions/:id/git`) when the chat opens and after every turn. Tapping it opens the
 * read-only Git sheet. Hidden when the workspace is no repository or the token cannot read it.
 */
export function GitBadge({ sessionId, running }: { sessionId: string; running: boolean }) {
  const [state, setState] = useState<GitState | undefined>(undefined);
  const [open, setOpen] = useState(false);
  // Asked once the session is attached: before, a hub that just started may not know the session
  // yet and refuses (403) — a chat opened right after a daemon restart showed no branch.
  const attached = useSelector(store, (s) => s.chats[sessionId] !== undefined);
  // While a turn runs it is asked again only when the turn ends (its edits are done then), but a
  // page opened mid-turn — a reload while a question waits, which can be hours — asks at once.
  useEffect(() => {
    if (!attached || (running && state !== undefined)) return;
    let live = true;
    gitState(sessionId)
      .then((s) => live && setState(s))
      .catch(() => live && setState(undefined));
    return () => void (live = false);
  }, [sessionId, running, attached]);
  if (!state?.isRepo) return null;
  const branch = state.branch ?? t('gitDetached');
  return (
    <>
      <button
        type="button"
        class="git-badge"
        onClick={() => setOpen(true)}
        aria-label={t('gitButton', branch, state.files.length)}
        data-testid="git-badge"
      >
        <Icon name="branch" size={14} />
        <span class="git-branch" data-testid="git-branch">
          {branch}
        </span>
        {state.files.length > 0 ? (
          <span class="count count-info" data-testid="git-dirty">
            {/* A word break from the branch for the accessible-name check (the label reads "branch, n"); never drawn at a line's start. */}
            {` ${state.files.length}`}
          </span>
        ) : null}
      </button>
      {open ? <GitSheet sessionId={sessionId} state={state} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** The changed files, each folding open onto its diff against HEAD. */
function GitSheet({ sessionId, state, onClose }: { sessionId: string; state: GitState; onClose: () => void }) {
  return (
    <Sheet title={t('gitTitle')} onClose={onClose} testId="git-sheet">
      <div class="muted small git-head">
        <strong>{state.branch ?? t('gitDetached')}</strong>
        {state.upstream ? ` · ${t('gitAheadBehind', state.ahead ?? 0, state.behind ?? 0, state.upstream)}` : null}
      </div>
      {state.files.length === 0 ? <p class="muted">{t('gitClean')}</p> : null}
      {state.files.map((f) => (
        <GitFileRow key={f.path} sessionId={sessionId} file={f} />
      ))}
      {state.truncated ? <p class="muted small">{t('gitTruncated')}</p> : null}
    </Sheet>
  );
}

function GitFileRow({ sessionId, file }: { sessionId: string; file: GitFile }) {
  const [open, setOpen] = useState(false);
  const [diff, setDiff] = useState<{ diff: string; truncated: boolean } | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    if (!open || diff) return;
    let live = true;
    gitDiff(sessionId, file.path)
      .then((d) => live && setDiff(d))
      .catch((err: unknown) => live && setError((err as Error).message));
    return () => void (live = false);
  }, [open]);
  const rows = diff ? parseUnifiedDiff(diff.diff) : [];
  return (
    <details
      class="change-file"
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
      data-testid="git-file"
      data-path={file.path}
    >
      <summary>
        <Icon name="chevron" size={14} />
        <span class="change-path">
          <strong>{file.path}</strong>
        </span>
        <span class={`pill git-status git-${file.status}`}>{file.status}</span>
        {file.staged ? <span class="pill">{t('gitStaged')}</span> : null}
      </summary>
      {error ? <p class="muted small">{t('gitError', error)}</p> : null}
      {diff && rows.length > 0 ? <DiffRows path={file.path} rows={rows} /> : null}
      {diff && rows.length === 0 ? <p class="muted small">{t('gitNoTextDiff')}</p> : null}
      {diff?.truncated ? <p class="muted small">{t('gitDiffTruncated')}</p> : null}
    </details>
  );
}
