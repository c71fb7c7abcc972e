import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HubError } from '../errors.js';
import { scopeAllows, type Authenticator, type Identity, type Scope } from '../auth/identity.js';
import { extractCredential } from './credentials.js';

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

/** Resolves and checks the caller of a request; shared by HTTP routes and the WebSocket upgrade. */
export async function authenticateRequest(req: FastifyRequest, authenticator: Authenticator): Promise<Identity> {
  const credential = extractCredential({ headers: req.headers, url: req.url });
  if (!credential) throw new HubError('HUB_ERR_UNAUTHENTICATED');
  const identity = await authenticator.authenticate(credential.value);
  if (!identity) throw new HubError('HUB_ERR_UNAUTHENTICATED', 'Invalid or expired credential');
  return identity;
}

/**
 * The one auth hook on every route (STYLE.md: exemptions by route option, never by URL prefix).
 * The security layer adds Host and Origin checks ahead of it.
 */
export const authHook = fp(
  async (app: FastifyInstance, opts: { authenticator: Authenticator }) => {
    app.decorateRequest('identity', undefined);
    app.addHook('onRequest', async (req) => {
      const config = req.routeOptions.config;
      if (config?.public) return;
      const identity = await authenticateRequest(req, opts.authenticator);
      const need: Scope = config?.scope ?? 'admin';
      if (!scopeAllows(identity.scope, need)) throw new HubError('HUB_ERR_FORBIDDEN', `This action needs the '${need}' scope`);
      req.identity = identity;
    });
  },
  { name: 'zcode-hub-auth' },
);
