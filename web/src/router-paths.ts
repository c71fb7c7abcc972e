/**
 * Client routes and their paths (pure; the navigation itself is in router.ts). A session of
 * another machine lives under `/m/<hubId>` (`/m/<hubId>/s/<sessionId>…`).
 */
export type Route =
  | { name: 'sessions' }
  | { name: 'chat'; sessionId: string; hubId?: string }
  /** The files a session changed; `file` = the path to open first. */
  | { name: 'changes'; sessionId: string; file?: string; hubId?: string }
  /** The session's workspace, read-only; `path` = a folder relative to it, or a file with `isFile`. */
  | { name: 'files'; sessionId: string; path?: string; isFile?: boolean; hubId?: string }
  /** The session's terminal output (shell calls, background tasks); `card` = the tool card to show first. */
  | { name: 'terminal'; sessionId: string; card?: string; hubId?: string }
  | { name: 'inbox' }
  /** Where the hub sends a paired device without the admin scope that opened an admin page; `from` = the path it opened. */
  | { name: 'needsAdmin'; from?: string }
  /** Where the hub sends a view device that opened an operate-only address (an operate route of the API). */
  | { name: 'needsOperate' }
  | { name: 'settings'; page?: 'providers' | 'workflows' | 'devices' | 'machines' | 'policy' | 'doctor' };

/** Parses a path (with an optional `?query`) into a route (unknown paths → the session list). */
export function parseRoute(url: string): Route {
  const m = /^\/m\/([^/?]+)(\/s\/.*)$/.exec(url);
  if (m?.[1] && m[2]) {
    const inner = parseRoute(m[2]);
    return inner.name === 'chat' || inner.name === 'changes' || inner.name === 'files' || inner.name === 'terminal'
      ? { ...inner, hubId: decodeURIComponent(m[1]) }
      : inner;
  }
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 's' && parts[1]) {
    const sessionId = parts[1];
    const file = query.get('file') ?? undefined;
    const at = query.get('path') ?? undefined;
    if (parts[2] === 'changes') return file ? { name: 'changes', sessionId, file } : { name: 'changes', sessionId };
    if (parts[2] === 'terminal') {
      const card = query.get('card');
      return card ? { name: 'terminal', sessionId, card } : { name: 'terminal', sessionId };
    }
    if (parts[2] === 'files') {
      const open = query.get('open');
      if (open) return { name: 'files', sessionId, path: open, isFile: true };
      return at ? { name: 'files', sessionId, path: at } : { name: 'files', sessionId };
    }
    return { name: 'chat', sessionId };
  }
  if (parts[0] === 'inbox') return { name: 'inbox' };
  if (parts[0] === 'needs-admin') {
    // Only a path of this hub, as the hub's redirect gives it; anything else is not shown.
    const from = query.get('from');
    return from && /^\/[\w\-./:]{0,200}$/.test(from) ? { name: 'needsAdmin', from } : { name: 'needsAdmin' };
  }
  if (parts[0] === 'needs-operate') return { name: 'needsOperate' };
  if (parts[0] === 'settings') {
    const page = parts[1];
    return page === 'providers' ||
      page === 'workflows' ||
      page === 'devices' ||
      page === 'machines' ||
      page === 'policy' ||
      page === 'doctor'
      ? { name: 'settings', page }
      : { name: 'settings' };
  }
  return { name: 'sessions' };
}

/** The path of a route. */
export function routePath(r: Route): string {
  if ((r.name === 'chat' || r.name === 'changes' || r.name === 'files' || r.name === 'terminal') && r.hubId !== undefined) {
    const { hubId, ...home } = r;
    return `/m/${encodeURIComponent(hubId)}${routePath(home)}`;
  }
  switch (r.name) {
    case 'sessions':
      return '/';
    case 'chat':
      return `/s/${encodeURIComponent(r.sessionId)}`;
    case 'changes':
      return `/s/${encodeURIComponent(r.sessionId)}/changes${r.file ? `?file=${encodeURIComponent(r.file)}` : ''}`;
    case 'files':
      return `/s/${encodeURIComponent(r.sessionId)}/files${r.path ? `?${r.isFile ? 'open' : 'path'}=${encodeURIComponent(r.path)}` : ''}`;
    case 'terminal':
      return `/s/${encodeURIComponent(r.sessionId)}/terminal${r.card ? `?card=${encodeURIComponent(r.card)}` : ''}`;
    case 'inbox':
      return '/inbox';
    case 'needsAdmin':
      return r.from ? `/needs-admin?from=${encodeURIComponent(r.from)}` : '/needs-admin';
    case 'needsOperate':
      return '/needs-operate';
    case 'settings':
      return r.page ? `/settings/${r.page}` : '/settings';
  }
}
