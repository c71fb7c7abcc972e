import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BackendLifecycle } from '../../ports/backend-port.js';

const backendSummary = z.object({
  state: z.enum(['starting', 'ready', 'restarting', 'failed', 'stopped']),
  kind: z.enum(['zcode', 'sim']),
  epoch: z.number(),
  restarts: z.number(),
  /** The real CLI's version and whether the hub was verified against it (docs/APP-SERVER.md §16). */
  cliVersion: z.object({ version: z.string().optional(), verified: z.boolean(), warning: z.string().optional() }).optional(),
});

export interface HealthRouteOptions {
  backend: BackendLifecycle;
  version: string;
  /** The hub's id and name: the app tells "offline" from "a different hub behind this URL". */
  hub?: { hubId: string; name: string };
}

/**
 * `GET /api/health`, the one public API route. Plain `ok` by default (what zcode-acp-remote
 * and container health checks expect, ARCHITECTURE.md §5.1); JSON with the backend state when the
 * caller asks for `application/json`. The backend state also rides in `X-Zcode-Backend`.
 */
export const healthRoutes: FastifyPluginAsync<HealthRouteOptions> = async (app, opts) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        summary: 'Liveness and backend state (no auth)',
        tags: ['status'],
        response: {
          200: z.union([
            z.string(),
            z.object({
              status: z.literal('ok'),
              version: z.string(),
              hubId: z.string().optional(),
              name: z.string().optional(),
              backend: backendSummary,
            }),
          ]),
        },
      },
    },
    async (req, reply) => {
      const s = opts.backend.status();
      reply.header('x-zcode-backend', s.state);
      // An app on another origin probes this with `fetch(…, {mode: 'no-cors'})` to tell "offline"
      // from "not allowed": a same-origin resource policy would make both look offline.
      // It says nothing secret; the answer stays unreadable to a non-peer page (no CORS for it).
      reply.header('cross-origin-resource-policy', 'cross-origin');
      const accept = req.headers.accept ?? '';
      if (accept.includes('application/json')) {
        return {
          status: 'ok' as const,
          version: opts.version,
          ...(opts.hub ? { hubId: opts.hub.hubId, name: opts.hub.name } : {}),
          backend: {
            state: s.state,
            kind: s.kind,
            epoch: s.epoch,
            restarts: s.restarts,
            ...(s.cliVersion ? { cliVersion: s.cliVersion } : {}),
          },
        };
      }
      reply.type('text/plain; charset=utf-8');
      return 'ok';
    },
  );
};
