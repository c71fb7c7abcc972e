import { store } from './hub/app-state.js';
import type { HubClient } from './hub/hub-client.js';
import { useLocale } from './i18n.js';
import { useRoute } from './router.js';
import { useSelector } from './store.js';
import { ChangesView } from './views/changes-view.js';
import { ChatView } from './views/chat-view.js';
import { ConnIndicator, Toasts } from './views/chrome.js';
import { FilesView } from './views/files-view.js';
import { InboxView } from './views/inbox-view.js';
import { InteractionHost } from './views/interaction-sheet.js';
import { PairView } from './views/pair-view.js';
import { SessionListView } from './views/session-list-view.js';
import { SettingsView } from './views/settings-view.js';

/** The whole app: pairing until paired, then the routed screens with the interaction sheet on top. */
export function App({ client, onPaired }: { client: HubClient; onPaired: () => void }) {
  useLocale();
  const paired = useSelector(store, (s) => s.paired);
  const route = useRoute();
  if (paired === undefined) return <div class="page" aria-busy="true" />;
  if (!paired) return <PairView onPaired={onPaired} />;
  return (
    <div class="shell">
      <ConnIndicator />
      {route.name === 'sessions' ? <SessionListView client={client} /> : null}
      {route.name === 'chat' ? <ChatView key={route.sessionId} client={client} sessionId={route.sessionId} /> : null}
      {route.name === 'changes' ? <ChangesView key={route.sessionId} client={client} sessionId={route.sessionId} {...(route.file ? { file: route.file } : {})} /> : null}
      {route.name === 'files' ? <FilesView key={route.sessionId} client={client} sessionId={route.sessionId} {...(route.path ? { path: route.path } : {})} isFile={route.isFile === true} /> : null}
      {route.name === 'inbox' ? <InboxView /> : null}
      {route.name === 'settings' ? <SettingsView page={route.page} /> : null}
      <InteractionHost client={client} sessionId={route.name === 'chat' || route.name === 'changes' || route.name === 'files' ? route.sessionId : undefined} />
      <Toasts />
    </div>
  );
}
