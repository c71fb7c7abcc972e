/** Client routes and their paths (pure; the navigation itself is in router.ts). */
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
