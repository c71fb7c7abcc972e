/**
 * Path routing with the History API (the daemon answers every client route with the shell,
 * src/http/web.ts). Routes: `/`, `/s/<sessionId>`, `/inbox`, `/settings`, `/settings/<page>`.
 */
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { name: 'sessions' }
  | { name: 'chat'; sessionId: string }
  | { name: 'inbox' }
  | { name: 'settings'; page?: 'providers' | 'workflows' | 'devices' };

/** Parses a path into a route (unknown paths → the session list). */
export function parseRoute(path: string): Route {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 's' && parts[1]) return { name: 'chat', sessionId: parts[1] };
  if (parts[0] === 'inbox') return { name: 'inbox' };
  if (parts[0] === 'settings') {
    const page = parts[1];
    return page === 'providers' || page === 'workflows' || page === 'devices' ? { name: 'settings', page } : { name: 'settings' };
  }
  return { name: 'sessions' };
}

/** The path of a route. */
export function routePath(r: Route): string {
  switch (r.name) {
    case 'sessions':
      return '/';
    case 'chat':
      return `/s/${encodeURIComponent(r.sessionId)}`;
    case 'inbox':
      return '/inbox';
    case 'settings':
      return r.page ? `/settings/${r.page}` : '/settings';
  }
}

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

/** Navigates to a route (pushes history; `replace` replaces the entry). */
export function navigate(r: Route, replace = false): void {
  const path = routePath(r);
  if (location.pathname === path) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  listeners.forEach((l) => l());
}

/** The current route, re-rendering on navigation. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const l = () => setRoute(parseRoute(location.pathname));
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return route;
}
