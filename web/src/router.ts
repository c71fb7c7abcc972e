/**
 * Path routing with the History API (the daemon answers every client route with the shell,
 * src/http/web.ts). Routes: `/`, `/s/<sessionId>`, `/s/<sessionId>/changes?file=`, `/s/<sessionId>/files?path=<folder>|open=<file>`, `/inbox`, `/settings`, `/settings/<page>`.
 */
import { useEffect, useState } from 'preact/hooks';
import { parseRoute, routePath, type Route } from './router-paths.js';

export { parseRoute, routePath, type Route } from './router-paths.js';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => {
  for (const l of listeners) l();
});

let machineOf: (sessionId: string) => string | undefined = () => undefined;

/** Tells the router which machine a session is on, so session routes get their `/m/<hubId>` prefix. */
export function setSessionMachineLookup(fn: (sessionId: string) => string | undefined): void {
  machineOf = fn;
}

/** The route with its session's machine filled in (pages of a session keep their machine). */
function withMachine(r: Route): Route {
  if ((r.name !== 'chat' && r.name !== 'changes' && r.name !== 'files' && r.name !== 'terminal') || r.hubId !== undefined) return r;
  const hubId = machineOf(r.sessionId);
  return hubId === undefined ? r : { ...r, hubId };
}

/** Navigates to a route (pushes history; `replace` replaces the entry). */
export function navigate(r: Route, replace = false): void {
  const path = routePath(withMachine(r));
  if (location.pathname + location.search === path) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  for (const l of listeners) l();
}

/** Goes back to the session list when a page of `sessionId` shows (it was deleted); true when one did. */
export function leaveSessionPages(sessionId: string): boolean {
  const route = parseRoute(location.pathname + location.search);
  if (!('sessionId' in route) || route.sessionId !== sessionId) return false;
  navigate({ name: 'sessions' }, true);
  return true;
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

/** Opens an app path (`/m/<hubId>/s/<id>?answer=…` from a notification) as a navigation, no reload. */
export function openPath(path: string): void {
  if (location.pathname + location.search === path) return;
  history.pushState(null, '', path);
  for (const l of listeners) l();
}
