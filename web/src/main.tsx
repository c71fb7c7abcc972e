import { render } from 'preact';
import { App } from './app.js';
import { store, toast } from './hub/app-state.js';
import { HubClient } from './hub/hub-client.js';
import { localeStore, t } from './i18n.js';
import { api, RestError } from './net/rest.js';
import { pairCodeFromHash } from './views/pair-view.js';
import { markSignedOut } from './hub/sign-out.js';
import { keepDrafts } from './hub/kept-drafts.js';
import { homeSocketUrl, takeEarlySocket } from './net/early-socket.js';
import { remember, seemsPaired } from './net/paired-flag.js';
import { setHomeClient, startMachines } from './machines/registry.js';
import { leaveSessionPages, openPath } from './router.js';
import { shownSession } from './hub/handshake-requests.js';
import { setSessionPageLeaver } from './hub/session-gone.js';
import './styles.css';
import './workspace.css';
import './polish.css';
import './machines.css';
import './policy.css';
import './sessions.css';
import './permission.css';
import './voice.css';

const client = new HubClient(homeSocketUrl());
let started = false;
setHomeClient(client);
setSessionPageLeaver(leaveSessionPages);
// A page of one of this hub's sessions (a deep link, or open across a reconnect) is loaded at the handshake.
client.setShownSessions(() => {
  const shown = shownSession(location.pathname + location.search);
  return shown === undefined ? [] : [shown];
});

/** Opens the home hub's socket, or reopens it (a new token after pairing again). */
function openHome(): void {
  if (started) client.conn.reconnectNow();
  else {
    // The socket the app's first script opened while this one downloaded (early.ts), if any.
    client.conn.adopt(takeEarlySocket());
    client.start();
  }
  started = true;
}

let machinesStarted = false;

/** The token is good (just paired, or the hub said so): show the app, start the other machines. */
function signedIn(): void {
  remember(true);
  // After the socket started: `paired` beside an `offline` socket would look like a revoked token.
  store.update((s) => ({ ...s, paired: true }));
  if (machinesStarted) return;
  machinesStarted = true;
  // The other machines: each on its own credential, connecting on its own.
  void startMachines();
}

/** Called when pairing succeeds. */
function connect(): void {
  openHome();
  signedIn();
}

/** The hub no longer takes the token: back to pairing, the socket closed until paired again. */
function revoked(): void {
  remember(false);
  markSignedOut('revoked');
  // Before the page becomes the pairing screen: what waited to be sent, and the composer's text, is kept.
  keepDrafts();
  client.conn.stop();
  started = false;
  // Who this device was is no longer known: text kept goes back only to whoever the next handshake names.
  store.update((s) => ({ ...s, paired: false, me: undefined }));
}

/** Is the device token (HttpOnly cookie, unreadable here) still accepted? Any /api path answers 401 if not. */
async function paired(): Promise<boolean> {
  try {
    await api('/me');
    return true;
  } catch (err) {
    return !(err instanceof RestError && err.status === 401);
  }
}

// A socket that keeps failing may mean a revoked token: the upgrade is refused before any close code.
let lastAuthCheck = 0;
store.subscribe(() => {
  const s = store.get();
  if (s.paired && s.conn.status === 'offline' && Date.now() - lastAuthCheck > 10_000) {
    lastAuthCheck = Date.now();
    void paired().then((ok) => {
      if (!ok) revoked();
    });
  }
});

document.documentElement.lang = localeStore.get();
render(<App client={client} onPaired={connect} />, document.getElementById('app') as HTMLElement);

void (async () => {
  // Never paired here: straight to the pairing screen, without a request that would only 401.
  if (pairCodeFromHash(location.hash) || !seemsPaired()) {
    store.update((s) => ({ ...s, paired: false }));
    return;
  }
  // The socket's upgrade carries the same cookie /api/me checks, so both go out at once: waiting
  // for the answer first cost a round trip before the first screen (BENCHMARKS.md, B-PHONE).
  openHome();
  if (await paired()) signedIn();
  // Paired here before, and the hub no longer takes the token: revoked or expired.
  else revoked();
})();

if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  // A tapped notification of any machine opens its session here, without reloading the app.
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
    const data = e.data as { type?: unknown; url?: unknown } | null;
    if (data?.type === 'zcode-hub.open' && typeof data.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//'))
      openPath(data.url);
    // This page came from the worker's cached shell and the hub has a newer build: the next open
    // has it, a reload now. Not reloaded for the person, who may be typing or reading.
    if (data?.type === 'zcode-hub.shell-updated') toast(t('appUpdated'), 'app-updated');
  });
}
