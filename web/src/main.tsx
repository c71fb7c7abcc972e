import { render } from 'preact';
import { App } from './app.js';
import { store } from './hub/app-state.js';
import { HubClient } from './hub/hub-client.js';
import { localeStore } from './i18n.js';
import { api, RestError } from './net/rest.js';
import { pairCodeFromHash } from './views/pair-view.js';
import { markSignedOut } from './hub/sign-out.js';
import { setHomeClient, startMachines } from './machines/registry.js';
import { leaveSessionPages, openPath } from './router.js';
import { setSessionPageLeaver } from './hub/session-gone.js';
import './styles.css';
import './workspace.css';
import './polish.css';
import './machines.css';
import './policy.css';
import './sessions.css';
import './permission.css';
import './voice.css';

const client = new HubClient(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/acp`);
let started = false;
setHomeClient(client);
setSessionPageLeaver(leaveSessionPages);

/** Set after pairing: the token itself is an HttpOnly cookie script cannot see (ARCHITECTURE.md §7). */
const PAIRED_KEY = 'zcode-hub.paired';

function remember(paired: boolean): void {
  try {
    if (paired) localStorage.setItem(PAIRED_KEY, '1');
    else localStorage.removeItem(PAIRED_KEY);
  } catch {
    // Storage blocked: we ask the hub each time instead.
  }
}

function seemsPaired(): boolean {
  try {
    return localStorage.getItem(PAIRED_KEY) === '1';
  } catch {
    return true;
  }
}

function connect(): void {
  remember(true);
  store.update((s) => ({ ...s, paired: true }));
  if (started) client.conn.reconnectNow();
  else {
    client.start();
    // The other machines: each on its own credential, connecting on its own.
    void startMachines();
  }
  started = true;
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
      if (!ok) {
        remember(false);
        markSignedOut('revoked');
        store.update((st) => ({ ...st, paired: false }));
      }
    });
  }
});

document.documentElement.lang = localeStore.get();
render(<App client={client} onPaired={connect} />, document.getElementById('app') as HTMLElement);

void (async () => {
  // Never paired here: straight to the pairing screen, without a request that would only 401.
  if (pairCodeFromHash(location.hash) || !seemsPaired()) store.update((s) => ({ ...s, paired: false }));
  else if (await paired()) connect();
  else {
    // Paired here before, and the hub no longer takes the token: revoked or expired.
    remember(false);
    markSignedOut('revoked');
    store.update((s) => ({ ...s, paired: false }));
  }
})();

if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  // A tapped notification of any machine opens its session here, without reloading the app.
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
    const data = e.data as { type?: unknown; url?: unknown } | null;
    if (data?.type === 'zcode-hub.open' && typeof data.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//'))
      openPath(data.url);
  });
}
