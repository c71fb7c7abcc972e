import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { HubError } from '../../errors.js';
import { extractCredential, upgradeTicket } from '../credentials.js';
import { allowedHostnames } from './allowed-hosts.js';
import type { PublicUrls } from './public-urls.js';

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** `scheme://host[:port]` of a URL, normalised the way browsers send `Origin`; undefined when not http(s). */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** True when `origin` is the hub itself as served on this socket: same scheme, one of our names, same port. */
function isOwnOrigin(req: FastifyRequest, origin: URL, ownNames: ReadonlySet<string>): boolean {
  const scheme = (req.raw.socket as TLSSocket).encrypted ? 'https:' : 'http:';
  if (origin.protocol !== scheme) return false;
  const port = origin.port === '' ? DEFAULT_PORT[origin.protocol] : Number(origin.port);
  return port === req.raw.socket.localPort && ownNames.has(origin.hostname.replace(/^\[|\]$/g, ''));
}

/**
 * A page the user opened themselves (address bar, bookmark): `Sec-Fetch-Site: none` is only ever
 * sent for user-initiated navigations, which no other site can start, so the device's cookie may
 * ride along on a GET — e.g. an admin phone typing /docs. Top-level only
 * (`Sec-Fetch-Dest: document`): a frame is always some page's doing. Browsers do not let pages
 * set `Sec-Fetch-*`; a non-browser can, but it would need the token, which works as a bearer
 * anyway. The reasoning, case by case, is in docs/SECURITY.md "The cookie on a typed address".
 */
function isTypedNavigation(req: FastifyRequest): boolean {
  const h = req.headers;
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    h['sec-fetch-site'] === 'none' &&
    h['sec-fetch-mode'] === 'navigate' &&
    h['sec-fetch-dest'] === 'document'
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Where a request with an `Origin` header came from: the hub itself or a listed peer; undefined without Origin. */
    originKind?: 'self' | 'peer';
  }
}

/** What the Origin check needs to know about peers (peers.ts). */
export interface PeerList {
  has(origin: string): boolean;
}

/**
 * Second hook, before auth (ARCHITECTURE.md §7; cross-site WebSocket hijacking): a present Origin
 * must be the hub's own (its socket's scheme/name/port, `--public-url` or an added public URL)
 * or a listed peer, else 403 — `null` and look-alikes included. Peers are read per request, so
 * adding or removing one takes effect at once. Without Origin, an ambient cookie is
 * accepted only on a same-origin fetch (browsers omit Origin on same-origin GETs but always
 * send `Sec-Fetch-Site`, which pages cannot forge); a bearer header, a DPoP-bound token or
 * `?token=` is not ambient authority, so no Origin is needed with them. A GET the user typed or
 * bookmarked (`Sec-Fetch-Site: none`) carries the cookie too. Peers are other sites' apps:
 * bearer or DPoP only, never the web app's cookie.
 */
export function installOriginCheck(
  app: FastifyInstance,
  config: { host: string; publicUrl?: string | undefined },
  added: PublicUrls | undefined,
  peers: PeerList,
  cookieName?: string,
): void {
  const publicOrigin = config.publicUrl ? originOf(config.publicUrl) : undefined;
  const ownNames = new Set([...allowedHostnames({ host: config.host })]);
  app.decorateRequest('originKind', undefined);
  app.addHook('onRequest', async (req) => {
    const header = req.headers.origin;
    if (header === undefined) {
      if (req.routeOptions.config?.public) return;
      const credential = extractCredential(req, cookieName);
      if (credential?.kind === 'cookie' && req.headers['sec-fetch-site'] !== 'same-origin' && !isTypedNavigation(req)) {
        throw new HubError('HUB_ERR_ORIGIN', 'A cookie credential needs a same-origin request');
      }
      return;
    }
    if (header === publicOrigin || added?.hasOrigin(header)) {
      req.originKind = 'self';
      return;
    }
    let origin: URL | undefined;
    try {
      origin = new URL(header);
    } catch {
      origin = undefined;
    }
    // Compare the serialised origin too, so a header with a path or userinfo never passes.
    if (origin && origin.origin === header && isOwnOrigin(req, origin, ownNames)) {
      req.originKind = 'self';
      return;
    }
    if (!peers.has(header)) throw new HubError('HUB_ERR_ORIGIN');
    // Only this hub's own cookie counts, and a ticket on the upgrade wins over it.
    if (extractCredential(req, cookieName)?.kind === 'cookie' && upgradeTicket(req) === undefined) {
      throw new HubError('HUB_ERR_ORIGIN', 'A peer origin must send its token as a bearer or DPoP header, not the cookie');
    }
    req.originKind = 'peer';
  });
}
