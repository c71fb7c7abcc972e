import type { FastifyInstance } from 'fastify';
import fastifyCors from '@fastify/cors';
import { originOf } from './origin-check.js';

/** Request headers a listed origin may send (bearer auth, JSON bodies, optimistic concurrency). */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'if-match'];
/** Response headers a listed origin may read (`x-zcode-first-line`: the app's file viewer windows). */
const EXPOSED_HEADERS = ['etag', 'x-zcode-backend', 'retry-after', 'x-zcode-first-line'];

/**
 * CORS for `--allow-origin` entries on `/api/*` only (HUB-DESIGN §5.1: the zcode-acp-remote web
 * build calls /api/health and /api/instances with a bearer header from its own origin). No
 * other origin ever gets CORS, and credentials (cookies) are never allowed cross-origin.
 * Registered after the Host and Origin checks, so a preflight is answered only for our hosts.
 */
export async function installCors(app: FastifyInstance, config: { allowOrigins: readonly string[] }): Promise<void> {
  const listed = new Set(config.allowOrigins.map(originOf).filter((o): o is string => o !== undefined));
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (req, cb) => {
      const path = req.url.split('?')[0] ?? '';
      const origin = req.headers.origin;
      const allowed = path.startsWith('/api/') && origin !== undefined && listed.has(origin);
      cb(null, allowed ? { origin, methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'], allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, credentials: false, maxAge: 600 } : { origin: false });
    },
  });
}
