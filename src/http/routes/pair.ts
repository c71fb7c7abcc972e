import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from '../../errors.js';
import type { AuthServices } from '../../auth/auth-services.js';
import { SCOPES } from '../../auth/identity.js';
import { extractCredential, LEGACY_AUTH_COOKIE } from '../credentials.js';
import { parseHostHeader } from '../security/allowed-hosts.js';
import { deviceNameSchema } from './tokens.js';
import { freshPerson, personNameSchema } from '../../auth/people.js';
import { verifyProof, type RequestAuthExtras } from '../auth-hook.js';
import type { ZodApp } from './zod-app.js';

export interface PairRouteOptions {
  auth: AuthServices;
  /** DPoP proofs: a token paired from a peer origin is bound to the proof's key. */
  extras: RequestAuthExtras;
  /** This hub's id and name, returned with a token so the app knows which machine it added. */
  hub: { hubId: string; name: string };
  /** `--public-url`, a string or read per request (an admin may add one while the hub runs). */
  publicUrl?: string | undefined | (() => string | undefined);
  /** Every public URL the hub answers to, for the cookie's Secure flag (default: `publicUrl`). */
  publicUrls?: () => readonly string[];
  /** Attempts per address per window on `POST /api/pair` (LIMITS.pairAttemptsPerWindow / pairRateWindowMs). */
  attemptsPerWindow: number;
  windowMs: number;
}

const redeemBody = z
  .object({
    code: z.string().min(1).max(40),
    name: deviceNameSchema.optional(),
    /** `cookie`: the built-in web app gets an HttpOnly cookie and no token in the body. */
    delivery: z.enum(['token', 'cookie']).default('token'),
  })
  .strict();

/** True when the page that called us is on https (TLS here, a trusted proxy's proto, or the https public host). */
function isHttps(req: FastifyRequest, publicUrls: readonly string[]): boolean {
  if (req.protocol === 'https') return true;
  const host = parseHostHeader(req.headers.host)?.hostname;
  return publicUrls.some((u) => u.startsWith('https://') && new URL(u).hostname === host);
}

/** The HttpOnly, SameSite=Strict (Secure on https) cookie of the built-in web app (ARCHITECTURE.md §7). */
export function authCookie(name: string, token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${name}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/**
 * Pairing (ARCHITECTURE.md §7): admins mint one-time codes (`zcode-hub pair`), a device exchanges
 * one for a device token on the public, per-address rate-limited `POST /api/pair` (SEC-07).
 */
export const pairRoutes: FastifyPluginAsync<PairRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  createCodeRoute(r, opts);
  redeemRoute(r, opts);
  forgetRoute(r, opts);
};

function publicUrlOf(opts: PairRouteOptions): string | undefined {
  return typeof opts.publicUrl === 'function' ? opts.publicUrl() : opts.publicUrl;
}

function allUrlsOf(opts: PairRouteOptions): readonly string[] {
  return opts.publicUrls?.() ?? [publicUrlOf(opts)].filter((u): u is string => u !== undefined);
}

function cookieNameOf(opts: PairRouteOptions): string {
  return opts.extras.cookieName ?? LEGACY_AUTH_COOKIE;
}

/** An admin mints a one-time code, with the link a phone opens to pair. */
function createCodeRoute(r: ZodApp, opts: PairRouteOptions): void {
  const { auth } = opts;
  r.post(
    '/api/pair/codes',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Create a one-time pairing code',
        tags: ['pairing'],
        body: z
          .object({
            scope: z.enum(SCOPES).default('operate'),
            /** Whose device the paired one will be; absent = a person named after the device. */
            person: personNameSchema.optional(),
          })
          .strict()
          .default({ scope: 'operate' }),
        response: {
          201: z.object({ code: z.string(), url: z.string(), scope: z.enum(SCOPES), person: z.string().optional(), expiresAt: z.number() }),
        },
      },
    },
    async (req, reply) => {
      const { person } = req.body;
      const { code, expiresAt } = auth.pairing.create(req.body.scope, person);
      // The Host header has passed the allow-list, so it is one of our names.
      const base = (publicUrlOf(opts) ?? `${req.protocol}://${req.headers.host ?? '127.0.0.1'}`).replace(/\/+$/, '');
      if (req.identity)
        auth.audit.record({
          identity: req.identity,
          action: 'pairing.create',
          detail: { scope: req.body.scope, ...(person === undefined ? {} : { person }), expiresAt },
        });
      reply.code(201);
      return { code, url: `${base}/#pair=${code}`, scope: req.body.scope, ...(person === undefined ? {} : { person }), expiresAt };
    },
  );
}

/**
 * Spends a pairing code for a device token: bound to the key of the request's DPoP proof when there is
 * one, never admin or a cookie for another origin. The token and its record, audited.
 */
async function redeemCode(req: FastifyRequest, body: z.infer<typeof redeemBody>, opts: PairRouteOptions) {
  const { auth } = opts;
  // From another origin (a listed peer; any other was refused 403 by the Origin check) only a
  // key-bound token may leave, never the cookie and never admin scope.
  const peer = req.originKind === 'peer' ? req.headers.origin : undefined;
  if (peer !== undefined && body.delivery === 'cookie')
    throw new HubError('HUB_ERR_FORBIDDEN', "Another origin pairs with delivery 'token'; the cookie is only for this hub's own page");
  const bindTo = peer !== undefined || req.headers.dpop !== undefined ? await verifyProof(req, opts.extras, {}) : undefined;
  if (bindTo !== undefined && body.delivery === 'cookie')
    throw new HubError('HUB_ERR_BAD_REQUEST', "A key-bound token is delivered as 'token', not in the cookie");
  const grant = auth.pairing.redeem(body.code);
  if (!grant) throw new HubError('HUB_ERR_UNAUTHENTICATED', 'Unknown, used or expired pairing code');
  // The code is spent either way: a code that reached another site is not tried twice.
  if (peer !== undefined && grant.scope === 'admin')
    throw new HubError('HUB_ERR_FORBIDDEN', 'Admin scope is never paired from another origin; pair it on this hub itself');
  const name = body.name ?? 'paired device';
  // The device names itself, so it may not name itself into someone else's person (docs/SECURITY.md "People").
  const person = grant.person ?? freshPerson(name, auth.tokens.people());
  const issued = await auth.tokens.create({
    name,
    person,
    scope: grant.scope,
    ttlMs: auth.limits.deviceTokenDefaultTtlMs,
    via: 'pairing',
    ...(bindTo ? { jkt: bindTo } : {}),
    ...(peer ? { origin: peer } : {}),
  });
  const { record } = issued;
  auth.audit.record({
    identity: { tokenId: record.id, name: record.name, person: record.person, scope: record.scope },
    action: 'pairing.redeem',
    detail: {
      id: record.id,
      name,
      person: record.person,
      scope: record.scope,
      bound: bindTo !== undefined,
      ...(peer ? { origin: peer } : {}),
    },
  });
  return { token: issued.token, record, bound: bindTo !== undefined };
}

/** The public, rate-limited exchange of a code for a device token (in the body, or as the web app's cookie). */
function redeemRoute(r: ZodApp, opts: PairRouteOptions): void {
  r.post(
    '/api/pair',
    {
      config: {
        public: true,
        rateLimit: { max: opts.attemptsPerWindow, timeWindow: opts.windowMs },
      },
      schema: {
        summary: 'Exchange a pairing code for a device token (no auth; rate-limited)',
        tags: ['pairing'],
        body: redeemBody,
        response: {
          200: z.object({
            tokenId: z.string(),
            name: z.string(),
            person: z.string(),
            scope: z.enum(SCOPES),
            expiresAt: z.number(),
            token: z.string().optional(),
            hubId: z.string(),
            hubName: z.string(),
            /** True when the token is bound to the key of the request's DPoP proof (send it as `Authorization: DPoP`). */
            bound: z.boolean(),
          }),
        },
      },
    },
    async (req, reply) => {
      const { token, record, bound } = await redeemCode(req, req.body, opts);
      const info = {
        tokenId: record.id,
        name: record.name,
        person: record.person,
        scope: record.scope,
        expiresAt: record.expiresAt,
        hubId: opts.hub.hubId,
        hubName: opts.hub.name,
        bound,
      };
      if (req.body.delivery === 'cookie') {
        const maxAge = Math.max(0, Math.floor((record.expiresAt - Date.now()) / 1000));
        reply.header('set-cookie', authCookie(cookieNameOf(opts), token, maxAge, isHttps(req, allUrlsOf(opts))));
        return info;
      }
      return { ...info, token };
    },
  );
}

/** A device signs itself out: its token revoked (never the admin token), the cookie cleared. */
function forgetRoute(r: ZodApp, opts: PairRouteOptions): void {
  const { auth } = opts;
  const cookieName = cookieNameOf(opts);
  r.post(
    '/api/pair/forget',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Sign this device out: revokes the calling device token and clears the web app cookie',
        tags: ['pairing'],
        response: { 200: z.object({ revoked: z.boolean() }) },
      },
    },
    async (req, reply) => {
      const identity = req.identity;
      // The admin token is the owner's key, not a device: it is never revoked from here.
      const revoked = identity !== undefined && identity.tokenId !== 'admin' && auth.tokens.revoke(identity.tokenId) !== undefined;
      if (identity && revoked)
        auth.audit.record({ identity, action: 'token.revoke', detail: { tokenId: identity.tokenId, via: 'forget' } });
      // Signing out clears this hub's cookie, and the legacy one only when it was what signed in.
      const secure = isHttps(req, allUrlsOf(opts));
      const legacy = extractCredential(req, cookieName)?.cookie === LEGACY_AUTH_COOKIE;
      reply.header('set-cookie', [
        authCookie(cookieName, '', 0, secure),
        ...(legacy ? [authCookie(LEGACY_AUTH_COOKIE, '', 0, secure)] : []),
      ]);
      return { revoked };
    },
  );
}
