import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HubConfig } from '../../config/schema.js';
import type { BackendLifecycle } from '../../ports/backend-port.js';
import { runChecks } from '../../doctor/checks.js';
import { gatherFacts, type LiveFacts } from '../../doctor/gather.js';
import { cliDetectionSchema, doctorCheckSchema } from '../../doctor/cli-report.js';

export interface DoctorRouteOptions {
  config: HubConfig;
  backend: BackendLifecycle;
  /** Live numbers from the hub and the gateway. */
  live: () => Pick<LiveFacts, 'pendingInteractions' | 'oldestPendingAgeMs' | 'clients'>;
  port: () => number | undefined;
  /** Every peer origin, the added ones included. */
  peers?: () => readonly string[];
}

/** `GET /api/doctor` (admin): the same report as `zcode-hub doctor`, with the daemon's live state. */
export const doctorRoutes: FastifyPluginAsync<DoctorRouteOptions> = async (app, opts) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/doctor',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Health and exposure report with a one-line fix per problem',
        tags: ['status'],
        response: {
          200: z.object({ healthy: z.boolean(), checks: z.array(doctorCheckSchema), cli: cliDetectionSchema.optional() }),
        },
      },
    },
    async () => {
      const s = opts.backend.status();
      const facts = gatherFacts(
        opts.config,
        true,
        {
          backendState: s.state,
          backendKind: s.kind,
          backendRestarts: s.restarts,
          stderrTail: opts.backend.stderrTail(),
          ...(s.cliVersion ? { cliVersion: s.cliVersion } : {}),
          ...(s.cliDetection ? { cliDetection: s.cliDetection } : {}),
          ...(s.cliRuntime ? { cliRuntime: s.cliRuntime } : {}),
          ...opts.live(),
        },
        opts.port() ?? opts.config.port,
        opts.peers?.() ?? [],
      );
      const checks = runChecks(facts);
      return { healthy: !checks.some((c) => c.status === 'fail'), checks, ...(facts.cliDetection ? { cli: facts.cliDetection } : {}) };
    },
  );
};
