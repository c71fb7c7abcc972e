import { useEffect, useState } from 'preact/hooks';
import type { HubClient } from '../hub/hub-client.js';
import { workspaceName } from '../hub/session-list.js';
import { fetchFolder, fetchRoots, insideRoots, type FolderListing } from '../hub/workspace-picker.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { Sheet, SheetFormEnd } from './chrome.js';
import { Icon } from './icons.js';

/** A row of one-tap workspace chips under a legend. */
function ChipGroup({
  legend,
  paths,
  cwd,
  onPick,
  testId,
}: {
  legend: string;
  paths: string[];
  cwd: string;
  onPick: (p: string) => void;
  testId: string;
}) {
  if (paths.length === 0) return null;
  return (
    <fieldset class="ws-group" data-testid={testId}>
      <legend class="ws-legend">{legend}</legend>
      <div class="ws-recent">
        {paths.map((w) => (
          <button
            type="button"
            key={w}
            class={`chip ws-chip ${w === cwd ? 'chip-on' : ''}`}
            aria-pressed={w === cwd}
            title={w}
            onClick={() => onPick(w)}
          >
            {workspaceName(w) || w}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** Browses folders inside the roots (`GET /api/workspaces/dirs`); "Use this folder" picks one. */
function FolderBrowser({ client, start, onPick }: { client: HubClient; start: string; onPick: (p: string) => void }) {
  const [at, setAt] = useState(start);
  const [listing, setListing] = useState<FolderListing | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    setError('');
    fetchFolder(client.api, at).then(
      (l) => live && setListing(l),
      (err: unknown) => live && setError((err as Error).message),
    );
    return () => {
      live = false;
    };
  }, [client, at]);
  const shown = listing;
  const relative = shown ? shown.path.slice(shown.root.length).replace(/^\//, '') : '';
  return (
    <div class="folder-browser" data-testid="folder-browser">
      <div class="folder-head">
        {shown?.parent ? (
          <button
            type="button"
            class="icon-btn"
            onClick={() => shown.parent && setAt(shown.parent)}
            aria-label={t('browseUp')}
            data-testid="folder-up"
          >
            <Icon name="back" />
          </button>
        ) : null}
        <span class="folder-path" title={shown?.path ?? at} data-testid="folder-path">
          {shown ? `${workspaceName(shown.root)}${relative ? `/${relative}` : ''}` : at}
        </span>
      </div>
      {error ? (
        <p class="error small" role="alert">
          {error}
        </p>
      ) : null}
      {shown && shown.dirs.length === 0 ? <p class="muted small">{t('browseEmpty')}</p> : null}
      {shown && shown.dirs.length > 0 ? (
        <ul class="folder-list">
          {shown.dirs.map((d) => (
            <li key={d.path}>
              <button
                type="button"
                class="folder-row"
                onClick={() => setAt(d.path)}
                aria-label={t('browseOpen', d.name)}
                data-testid="folder-row"
              >
                <Icon name="folder" size={18} />
                <span>{d.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {shown?.truncated ? <p class="muted small">{t('browseTruncated', shown.dirs.length)}</p> : null}
      {shown ? (
        <button type="button" class="wide" onClick={() => onPick(shown.path)} data-testid="folder-use">
          {t('browseUse')}
        </button>
      ) : null}
    </div>
  );
}

/**
 * The hub's workspace roots, and whether they are known yet: the recent folders (the workspaces
 * minus the roots) show only once they are, so the chips never shift under a finger when the
 * roots arrive. `onFirst` gets the folder to start in when nothing is picked yet.
 */
function useWorkspaceRoots(client: HubClient, onFirst: (path: string) => void): { roots: string[]; rootsSettled: boolean } {
  const [roots, setRoots] = useState<string[]>([]);
  const [rootsSettled, setRootsSettled] = useState(false);
  useEffect(() => {
    fetchRoots(client.api).then(
      (r) => {
        setRoots(r.roots);
        onFirst(r.defaultWorkspace || r.roots[0] || '');
        setRootsSettled(true);
      },
      () => setRootsSettled(true), // an older hub without the route: recent workspaces and a typed path still work
    );
  }, [client]);
  return { roots, rootsSettled };
}

/**
 * The new-session sheet: recent workspaces and the hub's workspace roots one
 * tap away, a folder browser inside the roots, or a typed path. A path outside the roots is
 * refused with the roots named, here and by the hub; nothing typed ever becomes a default.
 */
export function NewSessionSheet({ client, workspaces, onClose }: { client: HubClient; workspaces: string[]; onClose: () => void }) {
  const [cwd, setCwd] = useState(workspaces[0] ?? '');
  const { roots, rootsSettled } = useWorkspaceRoots(client, (first) => setCwd((c) => c || first));
  const [browsing, setBrowsing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const pick = (p: string) => {
    setCwd(p);
    setError('');
  };
  const browseStart = cwd && insideRoots(cwd, roots) ? cwd : (roots[0] ?? cwd);
  return (
    <Sheet title={t('newSession')} onClose={onClose} testId="new-session-sheet">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const path = cwd.trim();
          if (roots.length > 0 && (!path.startsWith('/') || !insideRoots(path, roots))) {
            setError(t('workspaceOutside', roots.join(', ')));
            return;
          }
          setBusy(true);
          setError('');
          try {
            const sid = await client.newSession(path);
            onClose();
            navigate({ name: 'chat', sessionId: sid });
          } catch (err) {
            setError((err as Error).message);
          } finally {
            setBusy(false);
          }
        }}
      >
        <p class="muted small ws-question">{t('pickWorkspace')}</p>
        <ChipGroup legend={t('workspaceRoots')} paths={roots} cwd={cwd} onPick={pick} testId="workspace-roots" />
        {rootsSettled ? (
          <ChipGroup
            legend={t('recentWorkspaces')}
            paths={workspaces.filter((w) => !roots.includes(w)).slice(0, 6)}
            cwd={cwd}
            onPick={pick}
            testId="recent-workspaces"
          />
        ) : null}
        {roots.length > 0 ? (
          browsing ? (
            <FolderBrowser
              client={client}
              start={browseStart}
              onPick={(p) => {
                pick(p);
                setBrowsing(false);
              }}
            />
          ) : (
            <button type="button" class="wide browse-folders" onClick={() => setBrowsing(true)} data-testid="browse-folders">
              <Icon name="folder" size={18} /> {t('browseFolders')}
            </button>
          )
        ) : null}
        <label class="field">
          <span>{t('workspace')}</span>
          <input
            name="cwd"
            value={cwd}
            onInput={(e) => pick(e.currentTarget.value)}
            placeholder={roots[0] ? `${roots[0]}/project` : '/home/me/project'}
            spellcheck={false}
            autocapitalize="off"
            aria-invalid={error ? true : undefined}
          />
        </label>
        <SheetFormEnd error={error} onClose={onClose} submitLabel={t('create')} disabled={busy || !cwd.trim()} />
      </form>
    </Sheet>
  );
}
