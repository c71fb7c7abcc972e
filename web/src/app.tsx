import { useEffect, useState } from 'preact/hooks';
import { store } from './hub/app-state.js';
import type { HubClient } from './hub/hub-client.js';
import { useLocale } from './i18n.js';
import { useRoute } from './router.js';
import { useSelector } from './store.js';
import { ChatView } from './views/chat-view.js';
import { ConnIndicator, Toasts } from './views/chrome.js';
import { InboxView } from './views/inbox-view.js';
import { InteractionHost } from './views/interaction-sheet.js';
import { PairView } from './views/pair-view.js';
import { SessionListView } from './views/session-list-view.js';
import { parseAddLink, type AddLink } from './machines/add-link.js';
import { clientFor } from './machines/registry.js';
import { UnknownMachine } from './views/machines-view.js';
import { lazyView } from './views/lazy-view.js';

// Screens the first one never needs load on first use: the session list and chat stay in the entry.
const ChangesView = lazyView(() => import('./views/changes-view.js').then((m) => m.ChangesView));
const TerminalView = lazyView(() => import('./views/terminal-view.js').then((m) => m.TerminalView));
const FilesView = lazyView(() => import('./views/files-view.js').then((m) => m.FilesView));
const SettingsView = lazyView(() => import('./views/settings-view.js').then((m) => m.SettingsView));
const NeedsAdminView = lazyView(() => import('./views/admin-help.js').then((m) => m.NeedsAdminView));
const NeedsOperateView = lazyView(() => import('./views/admin-help.js').then((m) => m.NeedsOperateView));
const AddMachineSheet = lazyView(() => import('./views/add-machine-sheet.js').then((m) => m.AddMachineSheet));

/** The add-machine link in the address, if any (`{ link: undefined }` = there but malformed). */
function addLinkIn(hash: string): { link: AddLink | undefined } | undefined {
  return /(?:^#|&)add=/.test(hash) ? { link: parseAddLink(hash) } : undefined;
}

/** The whole app: pairing until paired, then the routed screens with the interaction sheet on top. */
export function App({ client: home, onPaired }: { client: HubClient; onPaired: () => void }) {
  useLocale();
  const paired = useSelector(store, (s) => s.paired);
  const route = useRoute();
  const [adding, setAdding] = useState(() => addLinkIn(location.hash));
  // An add link opened while the app is already open changes only the hash.
  useEffect(() => {
    const onHash = () => setAdding(addLinkIn(location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  // A session of another machine talks to that machine's client; everything else to the home hub.
  const onSession = route.name === 'chat' || route.name === 'changes' || route.name === 'files' || route.name === 'terminal';
  const onMachine = onSession ? route.hubId : undefined;
  const machineKnown = useSelector(store, (s) => onMachine === undefined || s.machines[onMachine] !== undefined);
  const machinesLoaded = useSelector(store, (s) => s.machinesLoaded === true);
  const client = onMachine !== undefined && machineKnown ? clientFor(onMachine) : home;
  if (paired === undefined) return <div class="page" aria-busy="true" />;
  if (!paired) return <PairView onPaired={onPaired} />;
  // A link to another machine's session: never opened on the home hub by mistake.
  if (onMachine !== undefined && !machineKnown) return machinesLoaded ? <UnknownMachine /> : <div class="page" aria-busy="true" />;
  return (
    <div class="shell">
      <ConnIndicator />
      {route.name === 'sessions' ? <SessionListView client={client} /> : null}
      {route.name === 'chat' ? <ChatView key={route.sessionId} client={client} sessionId={route.sessionId} /> : null}
      {route.name === 'changes' ? (
        <ChangesView key={route.sessionId} client={client} sessionId={route.sessionId} {...(route.file ? { file: route.file } : {})} />
      ) : null}
      {route.name === 'files' ? (
        <FilesView
          key={route.sessionId}
          client={client}
          sessionId={route.sessionId}
          {...(route.path ? { path: route.path } : {})}
          isFile={route.isFile === true}
        />
      ) : null}
      {route.name === 'terminal' ? (
        <TerminalView key={route.sessionId} client={client} sessionId={route.sessionId} {...(route.card ? { card: route.card } : {})} />
      ) : null}
      {route.name === 'inbox' ? <InboxView /> : null}
      {route.name === 'needsAdmin' ? <NeedsAdminView {...(route.from ? { from: route.from } : {})} /> : null}
      {route.name === 'needsOperate' ? <NeedsOperateView /> : null}
      {route.name === 'settings' ? <SettingsView page={route.page} /> : null}
      {adding ? <AddMachineSheet link={adding.link} onDone={() => setAdding(undefined)} /> : null}
      <InteractionHost client={client} sessionId={onSession ? route.sessionId : undefined} />
      <Toasts />
    </div>
  );
}
