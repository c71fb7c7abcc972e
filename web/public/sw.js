/*
 * Service worker of the ZCode Hub web app: the shell from its cache (the app opens without
 * waiting a round trip for it, and without a network at all, then waits for the hub), and Web
 * Push notifications for "needs you" / "turn finished".
 * Never touches /api or /acp: live data always goes to the hub.
 */
// appLink(raw, origin): a notification's deep link on this origin, or undefined (sw-links.js).
importScripts('/sw-links.js');

// The page drops its shell from here before a reload that needs the hub's (web/src/net/shell-reload.ts, the same name).
const CACHE = 'zcode-hub-shell-v1';
const SHELL = ['/', '/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/acp' || url.pathname.startsWith('/docs')) return;
  if (req.mode === 'navigate') {
    // A reload asks for the hub's shell as it is now: the app reloads to take a new CSP (a machine
    // just added) or a new build, and so does a person who pulls to refresh.
    if (req.cache === 'no-cache' || req.cache === 'reload' || req.cache === 'no-store') networkFirst(event);
    else cachedFirst(event);
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    // Hashed assets never change: cache first.
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            if (res.ok) keep(req, res.clone());
            return res;
          }),
      ),
    );
  }
});

/** Keeps `res` in the worker's cache under `key` (a request, or `/` for the shell of every route). */
function keep(key, res) {
  return caches.open(CACHE).then((c) => c.put(key, res));
}

/** The shell from the network, kept for the next open; the cached one when offline. */
function networkFirst(event) {
  event.respondWith(
    fetch(event.request)
      .then((res) => {
        if (res.ok) event.waitUntil(keep('/', res.clone()));
        return res;
      })
      .catch(() => caches.match('/').then((r) => r || Response.error())),
  );
}

/**
 * The cached shell at once, a round trip sooner than the network's (BENCHMARKS.md, B-PHONE),
 * while the hub's is fetched and kept for the next open. A new CSP (a public address or a machine
 * added) waits for that open: the app reloads by itself when it records a machine, and a reload
 * takes the hub's shell. A new build (the shell's bytes differ) is told to the page that got the
 * old one (`zcode-hub.shell-updated`), which says so (web/src/main.tsx). Without a cached shell:
 * the network's, as before.
 */
function cachedFirst(event) {
  const cached = caches
    .open(CACHE)
    .then((c) => c.match('/'))
    .catch(() => undefined);
  const network = fetch(event.request).then((res) => ({ res, copy: res.ok ? res.clone() : undefined }));
  event.respondWith(cached.then((hit) => (hit ? hit.clone() : network.then((n) => n.res))).catch(() => Response.error()));
  event.waitUntil(
    Promise.all([cached, network])
      .then(async ([hit, { copy }]) => {
        if (!copy) return;
        const kept = copy.clone();
        const text = await copy.text();
        await keep('/', kept);
        if (hit && (await hit.text()) !== text) await tellClient(event.resultingClientId, { type: 'zcode-hub.shell-updated' });
      })
      // Offline, or the hub down: the cached shell stands.
      .catch(() => undefined),
  );
}

/** How long the worker waits for a navigation's page to exist before giving up telling it. */
const CLIENT_WAIT_MS = 10000;

/** Posts `message` to the page a navigation created, once it exists (its messages are queued until its scripts listen). */
async function tellClient(clientId, message) {
  if (!clientId) return;
  for (let waited = 0; waited <= CLIENT_WAIT_MS; waited += 100) {
    const client = await self.clients.get(clientId);
    if (client) {
      client.postMessage(message);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A registration scoped `/m/<hubId>/` carries another machine's notifications: its
 * session links open that machine's session, `/m/<hubId>/s/<sessionId>`.
 */
const MACHINE = (() => {
  const m = /^\/m\/([^/]+)\/$/.exec(new URL(self.registration.scope).pathname);
  return m ? m[1] : '';
})();

/**
 * The app path a notification opens. A hub names itself and links `/m/<hubId>/s/…`; the home
 * registration carries only the home hub's pushes, so there its own prefix is dropped (the home
 * hub's sessions live at `/s/…`). A hub without an id (older) links `/s/…`, which a machine's
 * registration puts under its `/m/<hubId>`.
 */
function inApp(path, hubId) {
  const own = hubId ? `/m/${encodeURIComponent(hubId)}` : '';
  if (!MACHINE && own && path.startsWith(`${own}/s/`)) return path.slice(own.length);
  return MACHINE && path.startsWith('/s/') ? `/m/${MACHINE}${path}` : path;
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  const sessionId = typeof data.sessionId === 'string' ? data.sessionId : '';
  const hub = data.hub && typeof data.hub === 'object' ? data.hub : {};
  const hubId = typeof hub.hubId === 'string' ? hub.hubId : '';
  const page = inApp(sessionId ? `/s/${encodeURIComponent(sessionId)}` : '/', '');
  // The deep link (the waiting sheet) when the hub sent one of the app's own, else the session.
  const link = appLink(data.url, self.location.origin);
  const url = link ? inApp(link, hubId) : page;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((wins) => {
      // The page is in front and showing this session: it already shows the change.
      const visible = wins.some((w) => w.visibilityState === 'visible' && w.focused && new URL(w.url).pathname === page);
      if (visible) return undefined;
      const text = typeof data.title === 'string' && data.title ? data.title : 'ZCode Hub';
      // Another machine's notification says which machine it is; the home hub's reads as before.
      const title = MACHINE && typeof hub.name === 'string' && hub.name ? `${hub.name} · ${text}` : text;
      const body = typeof data.body === 'string' ? data.body : '';
      const tag = `${MACHINE}${typeof data.tag === 'string' ? data.tag : `${data.kind || 'hub'}:${sessionId}`}`;
      // renotify: a "needs you" that replaces a "done" of the same session must still alert.
      return self.registration.showNotification(title, {
        body,
        tag,
        renotify: true,
        requireInteraction: data.requireInteraction === true,
        data: { url },
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
      });
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Checked again: a notification shown by an older worker carries whatever link it was given.
  const url = appLink(event.notification.data?.url, self.location.origin) || '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((wins) => {
      for (const w of wins) {
        if ('focus' in w) {
          // A window this worker does not control (another machine's registration) cannot be
          // navigated from here: the app navigates itself on the message, without a reload.
          w.postMessage({ type: 'zcode-hub.open', url });
          return w.focus();
        }
      }
      return self.clients.openWindow(url);
    }),
  );
});
