/**
 * Path routing with the History API (the daemon answers every client route with the shell,
 * src/http/web.ts). Routes: `/`, `/s/<sessionId>`, `/s/<sessionId>/changes?file=`, `/s/<sessionId>/files?path=<folder>|open=<file>`, `/inbox`, `/settings`, `/settings/<page>`.
 */
import { useEffect, useState } from 'preact/hooks';
import { parseRoute, routePath, type Route } from './router-paths.js';

export { parseRoute, routePath, type Route } from './router-paths.js';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

/** Navigates to a route (pushes history; `replace` replaces the entry). */
export function navigate(r: Route, replace = false): void {
  const path = routePath(r);
  if (location.pathname + location.search === path) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  listeners.forEach((l) => l());
}

/** The current route, re-rendering on navigation. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname + location.search));
  useEffect(() => {
    const l = () => setRoute(parseRoute(location.pathname + location.search));
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return route;
}
