/**
 * The "add a machine" link `zcode-hub pair --into <home>` prints (MULTI-CONTRACT "Adding a
 * machine"): `#add=<code>&hub=<machine URL>&name=<its name>&scope=<scope>&id=<its hubId>`.
 * Pure parsing; anything malformed is refused here, before a request is made.
 */
import { arr, rec, str } from '../wire.js';

export interface AddLink {
  code: string;
  /** The machine's base URL: http(s) origin plus path, no trailing slash, no query. */
  hub: string;
  name: string;
  scope: 'operate' | 'view';
  /** The machine's hubId, when the link carries it (needed to register it before pairing). */
  hubId?: string;
}

/** A machine's base URL normalised, or undefined when it is not a plain http(s) URL. */
export function machineBaseUrl(raw: string): string | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) return undefined;
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** The add link in a location hash, or undefined when there is none or it is malformed. */
export function parseAddLink(hash: string): AddLink | undefined {
  if (!/(?:^#|&)add=/.test(hash)) return undefined;
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const code = q.get('add')?.trim();
  const hub = machineBaseUrl(q.get('hub') ?? '');
  const scope = q.get('scope') ?? 'operate';
  if (!code || !hub || (scope !== 'operate' && scope !== 'view')) return undefined;
  const name = (q.get('name') ?? '').trim().slice(0, 64) || new URL(hub).host;
  const id = q.get('id')?.trim();
  return { code, hub, name, scope, ...(id ? { hubId: id } : {}) };
}

/**
 * Does the home hub's answer to `GET /api/machines` list the link's machine — the same hubId at
 * the same base URL? Then this page's CSP already lets it reach that machine (the home hub's
 * `connect-src` holds the origin of every listed entry), so pairing it again lists nothing new:
 * the one add a view device may make. Anything else (another hubId, another URL, an answer that is
 * not a list) is not listed.
 */
export function listsMachine(body: unknown, link: AddLink): boolean {
  if (link.hubId === undefined) return false;
  return arr(rec(body)?.['machines']).some((m) => {
    const url = str(rec(m)?.['url']);
    return str(rec(m)?.['hubId']) === link.hubId && url !== undefined && machineBaseUrl(url) === link.hub;
  });
}
