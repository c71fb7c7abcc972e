import { Fragment } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { languageOf } from '../changes/highlight.js';
import type { HubClient } from '../hub/hub-client.js';
import { t } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { listDir, readFile, readLines, type FileBody, type LineWindow, type Listing } from '../net/workspace-fs.js';
import { RestError } from '../net/rest.js';
import { navigate } from '../router.js';
import { knownScope, store } from '../hub/app-state.js';
import { useSelector } from '../store.js';
import { TopBar } from './chrome.js';
import { meterSubtitle, useContextUsage } from './context-meter.js';
import { CodeLine } from './diff-block.js';
import { Icon } from './icons.js';
import { OperateOnly } from './admin-help.js';
import { useAttachedSession } from './session-page.js';

/** Sizes seen in listings, so a big file opens straight in line windows (no doomed whole read). */
const knownSizes = new Map<string, number>();

type Loaded =
  | { kind: 'dir'; listing: Listing }
  | { kind: 'file'; body: FileBody }
  | { kind: 'windowed' }
  | { kind: 'error'; message: string };

/** "12 KB", "3.4 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function errorText(err: unknown): string {
  if (err instanceof RestError) {
    if (err.status === 413) return t('filesTooBig');
    if (err.status === 403) return t('filesRefused');
    return t('filesError', err.message);
  }
  return t('filesError', String(err));
}

/** Workspace › src › greet.ts — each part opens that folder. */
function Crumbs({ sessionId, path }: { sessionId: string; path: string }) {
  const parts = path ? path.split('/').filter(Boolean) : [];
  return (
    <nav class="crumbs" aria-label={t('files')} data-testid="crumbs">
      <button type="button" class="link" onClick={() => navigate({ name: 'files', sessionId })}>
        {t('filesRoot')}
      </button>
      {parts.map((p, i) => (
        <Fragment key={i}>
          <span class="sep" aria-hidden="true">
            /
          </span>
          {i === parts.length - 1 ? (
            <strong aria-current="page">{p}</strong>
          ) : (
            <button
              type="button"
              class="link"
              onClick={() => navigate({ name: 'files', sessionId, path: parts.slice(0, i + 1).join('/') })}
            >
              {p}
            </button>
          )}
        </Fragment>
      ))}
    </nav>
  );
}

function DirView({ sessionId, path, listing }: { sessionId: string; path: string; listing: Listing }) {
  const join = (name: string) => (path ? `${path}/${name}` : name);
  for (const e of listing.entries) if (e.kind === 'file') knownSizes.set(`${sessionId}\0${join(e.name)}`, e.size);
  if (listing.entries.length === 0) return <p class="empty muted">{t('filesEmpty')}</p>;
  return (
    <>
      <ul class="fs-list" data-testid="fs-list">
        {listing.entries.map((e) => (
          <li key={e.name}>
            <button
              type="button"
              class={`fs-entry ${e.kind === 'dir' ? 'is-dir' : ''}`}
              onClick={() => navigate({ name: 'files', sessionId, path: join(e.name), isFile: e.kind !== 'dir' })}
              data-testid="fs-entry"
              data-kind={e.kind}
            >
              <Icon name={e.kind === 'dir' ? 'folder' : 'file'} />
              <span class="fs-name">{e.name}</span>
              {e.kind === 'file' ? <span class="fs-meta">{formatSize(e.size)}</span> : null}
              {e.kind === 'dir' ? <Icon name="chevron" size={16} /> : null}
            </button>
          </li>
        ))}
      </ul>
      {listing.truncated ? <p class="muted small">{t('filesTruncated', listing.entries.length)}</p> : null}
    </>
  );
}

/** A text file with line numbers and highlighting, `fileWindowLines` lines at a time. */
function TextView({ path, text }: { path: string; text: string }) {
  const lines = useMemo(() => {
    const all = text.split('\n');
    if (all.length > 1 && all[all.length - 1] === '') all.pop();
    return all;
  }, [text]);
  const [from, setFrom] = useState(0);
  const size = WEB_LIMITS.fileWindowLines;
  const to = Math.min(lines.length, from + size);
  const lang = languageOf(path);
  const windowed = lines.length > size;
  return (
    <>
      {windowed ? (
        <div class="viewer-nav">
          <button type="button" onClick={() => setFrom(Math.max(0, from - size))} disabled={from === 0} data-testid="lines-prev">
            {t('filesPrev')}
          </button>
          <span class="muted small" data-testid="lines-range">
            {t('filesLines', from + 1, to, lines.length)}
          </span>
        </div>
      ) : null}
      <div class="code-view" data-testid="code-view">
        {lines.slice(from, to).map((l, i) => (
          <div class="cv-row" key={from + i}>
            <span class="cv-no" aria-hidden="true">
              {from + i + 1}
            </span>
            <code class="cv-code">
              <CodeLine text={l} lang={lang} />
            </code>
          </div>
        ))}
      </div>
      {windowed ? (
        <div class="viewer-nav">
          <span />
          <button type="button" onClick={() => setFrom(from + size)} disabled={to >= lines.length} data-testid="lines-next">
            {t('filesNext')}
          </button>
        </div>
      ) : null}
    </>
  );
}

/** A file too big to fetch whole: the hub serves it in line windows (`?line=&limit=`). */
function WindowedView({ sessionId, path }: { sessionId: string; path: string }) {
  const size = WEB_LIMITS.fileWindowLines;
  const [from, setFrom] = useState(1);
  const [win, setWin] = useState<LineWindow | { error: string } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    readLines(sessionId, path, from, size).then(
      (w) => live && setWin(w),
      (err: unknown) => live && setWin({ error: errorText(err) }),
    );
    return () => void (live = false);
  }, [sessionId, path, from]);
  const lang = languageOf(path);
  const name = path.split('/').pop() ?? path;
  const lines = win && 'lines' in win ? win : undefined;
  const last = lines ? lines.firstLine + lines.lines.length - 1 : from;
  const nav = (
    <div class="viewer-nav">
      <button type="button" onClick={() => setFrom(Math.max(1, from - size))} disabled={from <= 1} data-testid="lines-prev">
        {t('filesPrev')}
      </button>
      <span class="muted small" data-testid="lines-range">
        {lines ? t('filesLinesOpen', lines.firstLine, last) : t('loading')}
      </span>
      <button type="button" onClick={() => setFrom(last + 1)} disabled={!lines || lines.lines.length < size} data-testid="lines-next">
        {t('filesNext')}
      </button>
    </div>
  );
  return (
    <div class="viewer" data-testid="file-viewer" data-kind="windowed">
      <div class="viewer-head">
        <strong class="fs-name">{name}</strong>
        <span class="muted">{t('filesBigWindowed')}</span>
      </div>
      {nav}
      {win && 'error' in win ? <p class="error empty">{win.error}</p> : null}
      {lines ? (
        <div class="code-view" data-testid="code-view">
          {lines.lines.map((l, i) => (
            <div class="cv-row" key={lines.firstLine + i}>
              <span class="cv-no" aria-hidden="true">
                {lines.firstLine + i}
              </span>
              <code class="cv-code">
                <CodeLine text={l} lang={lang} />
              </code>
            </div>
          ))}
        </div>
      ) : null}
      {nav}
    </div>
  );
}

function FileBodyView({ path, body }: { path: string; body: FileBody }) {
  const name = path.split('/').pop() ?? path;
  useEffect(() => () => void (body.kind === 'image' && URL.revokeObjectURL(body.url)), [body]);
  return (
    <div class="viewer" data-testid="file-viewer" data-kind={body.kind}>
      <div class="viewer-head">
        <strong class="fs-name">{name}</strong>
        <span class="muted">{formatSize(body.bytes)}</span>
      </div>
      {body.kind === 'text' ? <TextView path={path} text={body.text} /> : null}
      {body.kind === 'image' ? <img src={body.url} alt={name} data-testid="file-image" /> : null}
      {body.kind === 'binary' ? <p class="empty muted">{t('filesBinary')}</p> : null}
    </div>
  );
}

/**
 * The session's workspace, read-only, over the confined file routes: folders to tap through,
 * text files with line numbers, images. `path` is relative to the workspace root.
 */
export function FilesView({
  client,
  sessionId,
  path = '',
  isFile = false,
}: {
  client: HubClient;
  sessionId: string;
  path?: string;
  isFile?: boolean;
}) {
  useAttachedSession(client, sessionId);
  const usage = useContextUsage(sessionId);
  // The hub serves files to operate devices only (docs/SECURITY.md "Reading workspace files"): a
  // view device is told why, not that the path lies outside the workspace.
  // Nothing is asked for before the hub has said what this device may do: a page opened straight
  // at Files renders before the `initialize` answer, and a view device must never ask.
  const scope = useSelector(store, (s) => knownScope(s, client.hubId));
  const viewDevice = scope === 'view';
  const [loaded, setLoaded] = useState<{ path: string; value: Loaded } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const done = (value: Loaded) => live && setLoaded({ path, value });
    if (scope === undefined || viewDevice) return;
    if (isFile && (knownSizes.get(`${sessionId}\0${path}`) ?? 0) > WEB_LIMITS.fileWholeMaxBytes) {
      done({ kind: 'windowed' });
      return () => void (live = false);
    }
    const load: Promise<Loaded> =
      isFile && path
        ? readFile(sessionId, path).then((body) => ({ kind: 'file', body }))
        : listDir(sessionId, path || undefined).then((listing) => ({ kind: 'dir', listing }));
    // Too big to fetch whole (413): read it in line windows instead.
    load.then(done, (err: unknown) =>
      done(isFile && err instanceof RestError && err.status === 413 ? { kind: 'windowed' } : { kind: 'error', message: errorText(err) }),
    );
    return () => void (live = false);
  }, [sessionId, path, isFile, scope]);
  const parent = path.split('/').slice(0, -1).join('/');
  const current = loaded?.path === path ? loaded.value : undefined;
  return (
    <div class="page files" data-testid="files-view">
      <TopBar
        title={t('files')}
        back={() => navigate(path ? { name: 'files', sessionId, ...(parent ? { path: parent } : {}) } : { name: 'chat', sessionId })}
        {...meterSubtitle(usage)}
      />
      <main class="scroll">
        <Crumbs sessionId={sessionId} path={path} />
        {current === undefined && !viewDevice ? <p class="muted small center">{t('loading')}</p> : null}
        {current?.kind === 'dir' ? <DirView sessionId={sessionId} path={path} listing={current.listing} /> : null}
        {current?.kind === 'file' ? <FileBodyView path={path} body={current.body} /> : null}
        {current?.kind === 'windowed' ? <WindowedView sessionId={sessionId} path={path} /> : null}
        {viewDevice ? (
          // Not an error of this file: what the device lacks, and how it gets it.
          <OperateOnly text={t('needsOperateWhy')} />
        ) : current?.kind === 'error' ? (
          <p class="error" role="alert" data-testid="files-error">
            {current.message}
          </p>
        ) : null}
      </main>
    </div>
  );
}
