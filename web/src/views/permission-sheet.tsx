/**
 * A permission in the bottom sheet: what would happen (an edit's diff, a written file's first
 * lines, a command and where it runs, a URL), who it is for, and the answers — "Allow once"
 * leads, a lasting allow is quieter, a denial is styled as danger.
 */
import { useEffect, useState } from 'preact/hooks';
import { hunkStart } from '../changes/numbered-diff.js';
import { firstLines } from '../diff-lines.js';
import { store } from '../hub/app-state.js';
import type { Answer, PendingInteraction } from '../hub/interactions.js';
import {
  approvalOf,
  hasFacts,
  orderedOptions,
  permissionFacts,
  type Approval,
  type EditFact,
  type WriteFact,
} from '../hub/permission-facts.js';
import { t } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { readFile } from '../net/workspace-fs.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { cardAt, findCard } from '../hub/subagent-tree.js';
import { relativeTitle } from '../hub/tool-title.js';
import { DiffBlock } from './diff-block.js';
import { Markdown } from './markdown-view.js';
import { ReadOnlyNotice } from './read-only-interaction.js';

/** An edit's diff, numbered where the old text sits in the file now (the file is unchanged while it waits). */
function EditDiff({ edit, sessionId }: { edit: EditFact; sessionId: string }) {
  const [start, setStart] = useState<number | undefined>(undefined);
  useEffect(() => {
    let live = true;
    readFile(sessionId, edit.shown)
      .then((b) => live && b.kind === 'text' && setStart(hunkStart(b.text, edit.oldText)))
      .catch(() => undefined);
    return () => void (live = false);
  }, [sessionId, edit.path, edit.oldText]);
  return (
    <figure class="perm-fact" data-testid="perm-edit">
      <figcaption class="perm-path">
        {edit.shown} <span class="muted small">{t('permEditLabel')}</span>
      </figcaption>
      <div class="perm-box">
        <DiffBlock path={edit.path} oldText={edit.oldText} newText={edit.newText} start={start ?? 1} />
      </div>
      {start === undefined ? <div class="muted small">{t('lineNumbersApprox')}</div> : null}
    </figure>
  );
}

/** A file written whole: its first lines, and a button to show the rest. */
function WritePreview({ write }: { write: WriteFact }) {
  const [all, setAll] = useState(false);
  const head = WEB_LIMITS.permissionPreviewLines;
  const cut = !all && write.lineCount > head;
  const text = cut ? firstLines(write.content, head) : write.content;
  return (
    <figure class="perm-fact" data-testid="perm-write">
      <figcaption class="perm-path">
        {write.shown} <span class="muted small">{t(write.overwrites ? 'permOverwriteLines' : 'permWriteLines', write.lineCount)}</span>
      </figcaption>
      <div class="perm-box">
        <DiffBlock path={write.path} oldText={null} newText={text} />
      </div>
      {write.lineCount > head ? (
        <button type="button" class="link small perm-more" aria-expanded={all} onClick={() => setAll(!all)} data-testid="perm-write-more">
          {all ? t('permShowLess') : t('permShowAll', write.lineCount)}
        </button>
      ) : null}
    </figure>
  );
}

/** The rule holding a request, for whom it waits and the tally ("1 of 2 — ann allowed"). */
export function ApprovalLine({ approval }: { approval: Approval }) {
  if (!approval.rule) return null;
  return (
    <p class="small perm-approval" data-testid="perm-approval">
      <span>{t('permRule', approval.rule)}</span>
      {approval.eligible && approval.waitingFor ? <span data-testid="perm-waiting-for"> · {approval.waitingFor}</span> : null}
      {approval.progress ? <span data-testid="perm-progress"> · {approval.progress}</span> : null}
    </p>
  );
}

/** The sheet body of a permission: the facts, the approval line, the answers (none when not ours to give). */
export function PermissionBody({ i, answer }: { i: PendingInteraction; answer: (a: Answer) => void }) {
  const workspace = useSelector(store, (s) => s.sessions[i.sessionId]?.cwd);
  // A copy without the request and without the view's tool call (an older hub): the chat's card has the facts when this device holds the chat.
  const card = useSelector(store, (s) => {
    const items = s.chats[i.sessionId]?.items;
    if (i.rpc || i.toolCall || !i.toolCallId || !items) return undefined;
    const at = findCard(items, i.toolCallId);
    return at === undefined ? undefined : cardAt(items, at);
  });
  const f = permissionFacts(i, workspace || undefined, card);
  const approval = approvalOf(i);
  // The facts say it better than the title (which repeats the command, URL or an absolute path);
  // a title that is shown names paths inside the workspace as the tool cards do, relative to it.
  const shownTitle =
    f.edits.length + f.writes.length > 0 || f.command !== undefined || f.url !== undefined ? undefined : relativeTitle(i.title, workspace);
  return (
    <div class="perm" data-testid="permission-body">
      {shownTitle ? <Markdown text={shownTitle} class="md ix-title" /> : null}
      {f.reason ? <p class="muted small perm-reason">{f.reason}</p> : null}
      {f.command !== undefined ? (
        <figure class="perm-fact" data-testid="perm-command">
          <figcaption class="sr-only">{t('permCommand')}</figcaption>
          <pre class="perm-box perm-code">
            <code>{f.command}</code>
          </pre>
          {f.cwd ? (
            <div class="small perm-cwd" data-testid="perm-cwd">
              <span class="muted">{t('permRunsIn')}</span> <code>{f.cwd}</code>
            </div>
          ) : null}
        </figure>
      ) : null}
      {f.url !== undefined ? (
        <figure class="perm-fact" data-testid="perm-url">
          <figcaption class="muted small">{t('permFetches')}</figcaption>
          <pre class="perm-box perm-code">
            <code>{f.url}</code>
          </pre>
        </figure>
      ) : null}
      {f.edits.map((e, n) => (
        <EditDiff key={`${e.path}:${n}`} edit={e} sessionId={i.sessionId} />
      ))}
      {f.writes.map((w, n) => (
        <WritePreview key={`${w.path}:${n}`} write={w} />
      ))}
      {f.truncated ? (
        <p class="muted small" data-testid="perm-truncated">
          {t('permTruncated')}
        </p>
      ) : null}
      {hasFacts(i, card) ? null : (
        // No tool call at hand (a hub that sends none in its views); the session re-sends the request with it on attach.
        <p class="small perm-elsewhere" data-testid="perm-details-elsewhere">
          <span class="muted">{t('permDetailsInSession')}</span>{' '}
          <button
            type="button"
            class="link"
            onClick={() => navigate({ name: 'chat', sessionId: i.sessionId, ...(i.hubId !== undefined ? { hubId: i.hubId } : {}) })}
            data-testid="perm-open-session"
          >
            {t('permOpenToSee')}
          </button>
        </p>
      )}
      {f.paths.map((p) => (
        <div key={p} class="perm-path" data-testid="perm-location">
          {p}
        </div>
      ))}
      <ApprovalLine approval={approval} />
      {approval.eligible ? (
        <div class="actions stack perm-actions">
          {orderedOptions(i.options ?? []).map((o) => (
            <button
              type="button"
              key={o.optionId}
              class={o.role === 'plain' ? '' : o.role}
              onClick={() => answer({ kind: 'option', optionId: o.optionId })}
              data-testid={`option-${o.optionId}`}
              data-role={o.role}
            >
              {o.name}
            </button>
          ))}
        </div>
      ) : (
        <ReadOnlyNotice approval={approval} />
      )}
    </div>
  );
}
