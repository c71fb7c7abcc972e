import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyRateLimit from '@fastify/rate-limit';
import type { HubConfig } from '../../config/schema.js';
import { HubError } from '../../errors.js';
import { closeConnectionAfter, installHttp2ConnectionHeader } from '../connection-close.js';
import { effectiveTotal, installAuthConnectionCaps, openFileLimit, type AuthConnectionLimit } from './auth-connection-caps.js';
import { installConnectionCaps } from './connection-caps.js';
import { installCors } from './cors.js';
import { installHostCheck } from './host-check.js';
import { installJsonDepthCheck } from './json-depth.js';
import { installOriginCheck, type PeerList } from './origin-check.js';
import type { PublicUrls } from './public-urls.js';
import { installPreAuthDeadline } from './pre-auth-deadline.js';
import { installSecurityHeaders } from './security-headers.js';
import { installUpgradeRefusal } from './upgrade-refusal.js';

export interface SecurityPluginOptions {
  config: Pick<HubConfig, 'host' | 'publicUrl' | 'limits'>;
  /** Public addresses added at run time (tunnels); absent = only the configured ones. */
  publicUrls?: PublicUrls;
  /** App origins this hub accepts: CORS and the Origin check. */
  peers: PeerList;
  /** Origins the home app may connect to beyond 'self' (CSP `connect-src`), read per answer. */
  connectOrigins: () => readonly string[];
  /** This hub's web-app cookie name (`authCookieName(hubId)`). */
  cookieName: string;
  /** A new authenticated connection was refused over a cap (the metric). */
  onConnectionRefused?: (limit: AuthConnectionLimit) => void;
}

/**
 * The hooks that run before auth on every route and on the WebSocket upgrade, in the order of
 * ARCHITECTURE.md §7: Host → Origin → (CORS preflight for listed origins) → [auth, scope: auth-hook]
 * → rate limit (per route, `config.rateLimit`). Register it before `authHook`.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, opts: SecurityPluginOptions) => {
    const { config } = opts;
    installHostCheck(app, config, opts.publicUrls);
    installOriginCheck(app, config, opts.publicUrls, opts.peers, opts.cookieName);
    await installCors(app, opts.peers);
    await installSecurityHeaders(app, opts.connectOrigins);
    installPreAuthDeadline(app, config.limits.preAuthDeadlineMs);
    installConnectionCaps(app, { total: config.limits.unauthConnectionsTotal, perAddress: config.limits.unauthConnectionsPerAddress });
    const l = config.limits;
    installAuthConnectionCaps(
      app,
      {
        perToken: l.authConnectionsPerToken,
        total: effectiveTotal(l.authConnectionsTotal, l.unauthConnectionsTotal + l.connectionsTotal, openFileLimit()),
        adminReserve: l.authConnectionsAdminReserve,
      },
      opts.onConnectionRefused,
    );
    // An error answer to a caller who has not authenticated ends the connection: a body still
    // being trickled after a 401 cannot keep the socket.
    app.addHook('onSend', async (req, reply) => {
      if (!req.identity && reply.statusCode >= 400) closeConnectionAfter(req, reply);
    });
    installHttp2ConnectionHeader(app);
    installUpgradeRefusal(app);
    installJsonDepthCheck(app, config.limits.jsonMaxDepth);
    // Per-route only (`config: {rateLimit: …}`); keyed by req.ip, which honours the pinned trustProxy hops.
    await app.register(fastifyRateLimit, {
      global: false,
      errorResponseBuilder: (_req, ctx) =>
        new HubError('HUB_ERR_RATE_LIMITED', `Too many attempts; retry in ${Math.ceil(ctx.ttl / 1000)} s`),
    });
  },
  { name: 'zcode-hub-security' },
);
