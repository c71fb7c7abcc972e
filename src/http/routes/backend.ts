import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditSink } from '../../auth/audit-log.js';
import type { BackendLifecycle } from '../../ports/backend-port.js';

export interface BackendRouteOptions {
  backend: BackendLifecycle;
  audit?: AuditSink;
}

/**
 * `POST /api/backend/restart` (admin): the manual restart entry point (ARCHITECTURE.md §3) — the way
 * out of `failed` once its cause is fixed. Pending interactions of the old child become `lost`.
 */
export const backendRoutes: FastifyPluginAsync<BackendRouteOptions> = async (app, opts) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/backend/restart',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Restart the app-server child (also leaves the failed state)',
        tags: ['status'],
        response: { 200: z.object({ state: z.string(), epoch: z.number(), restarts: z.number() }) },
      },
    },
    async (req) => {
      await opts.backend.restart();
      if (req.identity) opts.audit?.({ identity: req.identity, action: 'backend.restart' });
      const s = opts.backend.status();
      return { state: s.state, epoch: s.epoch, restarts: s.restarts };
    },
  );
};
