import type { FastifyInstance } from 'fastify';
import fastifyCors from '@fastify/cors';
import type { PeerList } from './origin-check.js';

/** Request headers a peer may send (bearer or DPoP auth and its proof, JSON bodies, optimistic concurrency). */
const ALLOWED_HEADERS = ['authorization', 'dpop', 'content-type', 'if-match'];
/** Response headers a peer may read (`x-zcode-first-line`: the app's file viewer windows; DPoP errors and nonces). */
const EXPOSED_HEADERS = ['etag', 'x-zcode-backend', 'retry-after', 'x-zcode-first-line', 'www-authenticate'];

/**
 * CORS for peers on `/api/*` only (ARCHITECTURE.md §5.1: the zcode-acp-remote web build
 * calls /api/health and /api/instances with a bearer header from its own origin). The list is
 * read per request, so a peer added or removed at run time takes effect at once. No other
 * origin ever gets CORS, and credentials (cookies) are never allowed cross-origin. Registered
 * after the Host and Origin checks, so a preflight is answered only for our hosts.
 */
export async function installCors(app: FastifyInstance, peers: PeerList): Promise<void> {
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (req, cb) => {
      const path = req.url.split('?')[0] ?? '';
      const origin = req.headers.origin;
      const allowed = path.startsWith('/api/') && origin !== undefined && peers.has(origin);
      cb(
        null,
        allowed
          ? {
              origin,
              methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
              allowedHeaders: ALLOWED_HEADERS,
              exposedHeaders: EXPOSED_HEADERS,
              credentials: false,
              maxAge: 600,
            }
          : { origin: false },
      );
    },
  });
}
