import { useEffect, useMemo, useState } from 'preact/hooks';
import { changeTotals, collectChanges, relativePath, type FileChange, type FileEdit } from '../changes/changes.js';
import { hunkStart } from '../changes/numbered-diff.js';
import { mayBrowse, store } from '../hub/app-state.js';
import type { HubClient } from '../hub/hub-client.js';
import { t } from '../i18n.js';
import { readFile } from '../net/workspace-fs.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { TopBar } from './chrome.js';
import { meterSubtitle, useContextUsage } from './context-meter.js';
import { DiffBlock } from './diff-block.js';
import { Icon } from './icons.js';
import { LineCounts } from './line-counts.js';
import { useAttachedSession, useWholeHistory } from './session-page.js';

/** One edit of a file: where it came from and its diff, numbered by where it sits in the file now. */
function EditView({ edit, path, rel, current }: { edit: FileEdit; path: string; rel: string; current: string | undefined }) {
  const start = edit.oldText === null ? 1 : current !== undefined ? hunkStart(current, edit.newText) : undefined;
  return (
    <div class="change-edit" data-testid="change-edit" data-status={edit.status}>
      <div class="change-edit-head muted small">
        <span>{edit.title.split(path).join(rel)}</span>
        {edit.status === 'pending' ? <span class="pill pill-pending">{t('changesPending')}</span> : null}
        {edit.status === 'in_progress' ? <span class="pill pill-in_progress">{t('changesRunning')}</span> : null}
      </div>
      {edit.overwrites ? (
        // The diff of a Write that replaced a file has no old side: say so, as its card does.
        <div class="muted small change-note" data-testid="change-overwrites">
          {t('cardOverwrites')}
        </div>
      ) : null}
      <DiffBlock path={path} oldText={edit.oldText} newText={edit.newText} start={start ?? 1} />
      {start === undefined ? <div class="muted small change-note">{t('lineNumbersApprox')}</div> : null}
    </div>
  );
}

/** A changed file: a folding header (path, counts) over its edits, oldest first. */
function FileView({
  file,
  sessionId,
  cwd,
  open,
  canBrowse,
}: {
  file: FileChange;
  sessionId: string;
  cwd: string | undefined;
  open: boolean;
  /** The hub serves workspace files to operate devices only: a view device is not offered them. */
  canBrowse: boolean;
}) {
  const rel = relativePath(file.path, cwd);
  const [isOpen, setOpen] = useState(open);
  const [current, setCurrent] = useState<string | undefined>(undefined);
  // The file as it is now places each hunk at its real line numbers.
  useEffect(() => {
    if (!canBrowse || !isOpen || current !== undefined || file.edits.every((e) => e.oldText === null)) return;
    let live = true;
    readFile(sessionId, file.path)
      .then((b) => live && b.kind === 'text' && setCurrent(b.text))
      .catch(() => undefined);
    return () => void (live = false);
  }, [canBrowse, isOpen, file.path]);
  const slash = rel.lastIndexOf('/');
  return (
    <details
      class="change-file"
      open={isOpen}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
      data-testid="change-file"
      data-path={rel}
      id={`change-${rel}`}
    >
      <summary>
        <Icon name="chevron" size={14} />
        <span class="change-path">
          {slash >= 0 ? <span class="muted">{rel.slice(0, slash + 1)}</span> : null}
          <strong>{rel.slice(slash + 1)}</strong>
        </span>
        {file.created ? <span class="pill pill-new">{t('changesNew')}</span> : null}
        {file.replacedLines === undefined ? null : (
          // Replaced by a Write: its new lines are known, the ones it removed are not (no "−0").
          <span class="pill" data-testid="change-replaced">
            {t('changesReplacedLines', file.replacedLines)}
          </span>
        )}
        {file.counted ? <LineCounts added={file.added} removed={file.removed} /> : null}
      </summary>
      <div class="change-body">
        {file.edits.map((e) => (
          <EditView key={e.toolCallId + e.newText.length} edit={e} path={file.path} rel={rel} current={current} />
        ))}
        {canBrowse ? (
          <button
            type="button"
            class="link small"
            onClick={() => navigate({ name: 'files', sessionId, path: rel, isFile: true })}
            data-testid="open-in-files"
          >
            {t('filesOpenFile')}
          </button>
        ) : null}
      </div>
    </details>
  );
}

/** The session's Changes: every file its tool calls edited or wrote, each with a unified diff. */
export function ChangesView({ client, sessionId, file }: { client: HubClient; sessionId: string; file?: string }) {
  useAttachedSession(client, sessionId);
  const usage = useContextUsage(sessionId);
  const loadingHistory = useWholeHistory(client, sessionId);
  const items = useSelector(store, (s) => s.chats[sessionId]?.items);
  const attached = useSelector(store, (s) => s.chats[sessionId] !== undefined);
  const cwd = useSelector(store, (s) => s.sessions[sessionId]?.cwd);
  const canBrowse = useSelector(store, (s) => mayBrowse(s, client.hubId));
  const files = useMemo(() => collectChanges(items ?? []), [items]);
  // Open the file asked for (from a tool card), or every file when there are few.
  const wanted = file ? relativePath(file, cwd) : undefined;
  useEffect(() => {
    if (wanted) document.getElementById(`change-${wanted}`)?.scrollIntoView({ block: 'start' });
  }, [wanted, files.length > 0]);
  const totals = changeTotals(files);
  return (
    <div class="page changes" data-testid="changes-view">
      <TopBar title={t('changes')} back={() => navigate({ name: 'chat', sessionId })} {...meterSubtitle(usage)} />
      <main class="scroll">
        {files.length > 0 ? (
          <div class="changes-summary" data-testid="changes-summary">
            <span>{files.length === 1 ? t('changesSummaryOne') : t('changesSummary', files.length)}</span>
            <span class="changes-summary-counts">
              {totals.replaced > 0 ? (
                <span class="muted small" data-testid="changes-summary-replaced">
                  {t('changesSummaryReplaced', totals.replaced)}
                </span>
              ) : null}
              {totals.counted ? <LineCounts added={totals.added} removed={totals.removed} /> : null}
            </span>
          </div>
        ) : null}
        {loadingHistory || !attached ? <p class="muted small center">{t('changesLoadingHistory')}</p> : null}
        {attached && !loadingHistory && files.length === 0 ? (
          <p class="empty muted" data-testid="changes-empty">
            {t('changesNone')}
          </p>
        ) : null}
        {files.map((f) => (
          <FileView
            key={f.path}
            file={f}
            sessionId={sessionId}
            cwd={cwd}
            open={wanted ? relativePath(f.path, cwd) === wanted : files.length <= 3}
            canBrowse={canBrowse}
          />
        ))}
      </main>
    </div>
  );
}
