/*
 * Service worker of the ZCode Hub web app: offline shell (the app loads without a network and
 * then waits for the hub), and Web Push notifications for "needs you" / "turn finished".
 * Never touches /api or /acp: live data always goes to the hub.
 */
// appLink(raw, origin): a notification's deep link on this origin, or undefined (sw-links.js).
importScripts('/sw-links.js');

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
    // Network first so a new build shows at once; the cached shell when offline.
    event.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok) {
            const copy = res.clone();
            caches.open(CACHE).then((c) => c.put('/', copy));
          }
          return res;
        })
        .catch(() => caches.match('/').then((r) => r || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/icons/')) {
    // Hashed assets never change: cache first.
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(CACHE).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
  }
});

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
