import type { FastifyPluginAsync } from 'fastify';
import type { HubMetrics } from '../../metrics/hub-metrics.js';

export interface MetricsRouteOptions {
  metrics: HubMetrics;
}

/** `GET /metrics`: Prometheus text exposition (scope `view`: sizes and counters, no content). */
export const metricsRoutes: FastifyPluginAsync<MetricsRouteOptions> = async (app, opts) => {
  app.get(
    '/metrics',
    { config: { scope: 'view' }, schema: { summary: 'Prometheus metrics', tags: ['status'], produces: ['text/plain'] } },
    async (_req, reply) => {
      reply.type(opts.metrics.contentType);
      return opts.metrics.render();
    },
  );
};
