import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HubError } from '../errors.js';
import { scopeAllows, type Authenticator, type Identity, type Scope } from '../auth/identity.js';
import { DPOP_ALGS, DpopError, type DpopVerifier } from '../auth/dpop.js';
import type { WsTickets } from '../auth/ws-tickets.js';
import { extractCredential, upgradeTicket } from './credentials.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Declared public: reachable without credentials (only /api/health and the web shell). */
    public?: boolean;
    /** Scope a caller needs; undeclared routes need `admin` (safe default). */
    scope?: Scope;
  }
  interface FastifyRequest {
    identity?: Identity;
  }
}

/** A 401 that tells the client how to authenticate (`WWW-Authenticate`, RFC 9449 §7.1); the error handler sends the header. */
export class AuthChallengeError extends HubError {
  readonly challenge: string;
  constructor(message: string) {
    super('HUB_ERR_UNAUTHENTICATED', message);
    this.challenge = `DPoP error="invalid_dpop_proof", algs="${DPOP_ALGS.join(' ')}"`;
  }
}

/** A paired caller whose token's scope is below the route's (told apart so a browser page can say how to get it). */
export class ScopeRefusedError extends HubError {
  readonly need: Scope;
  constructor(need: Scope) {
    super('HUB_ERR_FORBIDDEN', `This action needs the '${need}' scope`);
    this.need = need;
  }
}

/** What request authentication needs beyond the authenticator: DPoP proofs and WebSocket tickets. */
export interface RequestAuthExtras {
  dpop?: DpopVerifier;
  tickets?: WsTickets;
  /** Public URLs the hub answers to (`--public-url` and the added ones): forms a proof's `htu` may name. */
  publicUrls?: () => readonly string[];
  /** This hub's web-app cookie (`authCookieName(hubId)`); another hub's cookie is no credential here. */
  cookieName?: string;
}

/**
 * The URLs a client may have meant by this request, without the query: as it reached us (scheme
 * from the socket or a trusted proxy, the Host header, which passed the allow-list) and as the
 * public URL of that host (a tunnel terminating TLS without --trust-proxy).
 */
export function requestUrls(req: FastifyRequest, publicUrls: readonly string[] = []): string[] {
  const path = req.url.split('?')[0] ?? '/';
  const host = (req.headers.host ?? '').toLowerCase();
  const own = `${req.protocol}://${host}${path}`;
  const more = publicUrls.flatMap((u) => {
    const url = new URL(u);
    return url.host === host ? [`${url.origin}${path}`] : [];
  });
  return [own, ...more];
}

/** Verifies a request's DPoP proof; throws the 401 challenge (or 429 when the replay cache is full). */
export async function verifyProof(
  req: FastifyRequest,
  extras: RequestAuthExtras,
  check: { accessToken?: string; expectedJkt?: string },
): Promise<string> {
  const proof = req.headers.dpop;
  if (typeof proof !== 'string' || proof === '') throw new AuthChallengeError('A DPoP proof (the DPoP header) is required');
  if (!extras.dpop) throw new AuthChallengeError('This hub does not accept DPoP proofs here');
  try {
    const { jkt } = await extras.dpop.verify({
      proof,
      method: req.method,
      urls: requestUrls(req, extras.publicUrls?.() ?? []),
      ...check,
      now: Date.now(),
    });
    return jkt;
  } catch (err) {
    if (!(err instanceof DpopError)) throw err;
    if (err.reason === 'cache_full') throw new HubError('HUB_ERR_RATE_LIMITED', err.message);
    throw new AuthChallengeError(err.message);
  }
}

/**
 * Resolves and checks the caller of a request; shared by HTTP routes and the WebSocket upgrade.
 * A DPoP-bound token must come as `Authorization: DPoP` with a proof by its key, for
 * this method and URL; as `Bearer` it is refused. A WebSocket upgrade may instead carry a
 * single-use `?ticket=`, which stands for the credential that asked for it.
 */
export async function authenticateRequest(
  req: FastifyRequest,
  authenticator: Authenticator,
  extras: RequestAuthExtras = {},
): Promise<Identity> {
  const presented = extractCredential(req, extras.cookieName);
  const ticket = upgradeTicket(req);
  // A ticket the client asked for wins over an ambient cookie (a header credential wins over both).
  const credential = ticket !== undefined && presented?.kind === 'cookie' ? undefined : presented;
  if (!credential) {
    if (ticket === undefined || !extras.tickets) throw new HubError('HUB_ERR_UNAUTHENTICATED');
    const standsFor = extras.tickets.redeem(ticket, req.headers.origin);
    const identity = standsFor === undefined ? null : await authenticator.authenticate(standsFor);
    if (!identity) throw new HubError('HUB_ERR_UNAUTHENTICATED', 'Unknown, used, expired or foreign ticket');
    return identity;
  }
  const identity = await authenticator.authenticate(credential.value);
  if (!identity) throw new HubError('HUB_ERR_UNAUTHENTICATED', 'Invalid or expired credential');
  if (identity.jkt === undefined && credential.kind !== 'dpop') return identity;
  if (credential.kind !== 'dpop')
    throw new AuthChallengeError('This token is bound to a key: send it as Authorization: DPoP with a DPoP proof');
  if (identity.jkt === undefined) throw new AuthChallengeError('This token is not bound to a key: send it as a Bearer token');
  await verifyProof(req, extras, { accessToken: credential.value, expectedJkt: identity.jkt });
  return identity;
}

/**
 * The one auth hook on every route (STYLE.md: exemptions by route option, never by URL prefix).
 * The security layer adds Host and Origin checks ahead of it.
 */
export const authHook = fp(
  async (app: FastifyInstance, opts: { authenticator: Authenticator; extras?: RequestAuthExtras }) => {
    app.decorateRequest('identity', undefined);
    app.addHook('onRequest', async (req) => {
      const config = req.routeOptions.config;
      if (config?.public) return;
      const identity = await authenticateRequest(req, opts.authenticator, opts.extras);
      const need: Scope = config?.scope ?? 'admin';
      if (!scopeAllows(identity.scope, need)) throw new ScopeRefusedError(need);
      req.identity = identity;
    });
  },
  { name: 'zcode-hub-auth' },
);
