import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RestHub } from '../hub-api.js';

export interface StatusRouteOptions {
  hub: RestHub;
  version: string;
  /** Live WebSocket connections (the gateway's count). */
  connections: () => number;
}

/** `GET /api/status` (ARCHITECTURE.md §6): backend state, versions, sessions, clients. */
export const statusRoutes: FastifyPluginAsync<StatusRouteOptions> = async (app, opts) => {
  const startedAt = Date.now();
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/status',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Backend state, versions, sessions and clients',
        tags: ['status'],
        response: {
          200: z.object({
            version: z.string(),
            epoch: z.string(),
            startedAt: z.number(),
            sessions: z.number(),
            clients: z.number(),
            connections: z.number(),
            pendingInteractions: z.number(),
            backend: z.looseObject({
              state: z.string(),
              kind: z.string(),
              epoch: z.number(),
              restarts: z.number(),
              pid: z.number().optional(),
              nextRetryMs: z.number().optional(),
              command: z.string().optional(),
            }),
            node: z.string(),
          }),
        },
      },
    },
    async () => {
      const s = opts.hub.status();
      const b = s.backend;
      return {
        version: opts.version,
        epoch: s.epoch,
        startedAt,
        sessions: s.sessions,
        clients: s.clients,
        connections: opts.connections(),
        pendingInteractions: s.pendingInteractions,
        backend: {
          state: b.state,
          kind: b.kind,
          epoch: b.epoch,
          restarts: b.restarts,
          ...(b.pid !== undefined ? { pid: b.pid } : {}),
          ...(b.nextRetryMs !== undefined ? { nextRetryMs: b.nextRetryMs } : {}),
          ...(b.command !== undefined ? { command: b.command } : {}),
          ...(b.lastExit !== undefined ? { lastExit: b.lastExit } : {}),
        },
        node: process.version,
      };
    },
  );
};
