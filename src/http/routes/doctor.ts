import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HubConfig } from '../../config/schema.js';
import type { BackendLifecycle } from '../../ports/backend-port.js';
import { runChecks } from '../../doctor/checks.js';
import { gatherFacts, type LiveFacts } from '../../doctor/gather.js';
import { cliDetectionSchema, doctorCheckSchema, probeJobSchema } from '../../doctor/cli-report.js';
import type { ProbeJob } from '../../doctor/probe-job.js';
import { HubError } from '../../errors.js';

export interface DoctorRouteOptions {
  config: HubConfig;
  backend: BackendLifecycle;
  /** Live numbers from the hub and the gateway. */
  live: () => Pick<LiveFacts, 'pendingInteractions' | 'oldestPendingAgeMs' | 'clients'>;
  port: () => number | undefined;
  /** Every peer origin, the added ones included. */
  peers?: () => readonly string[];
  /** The one probe of a backend child of its own at a time (`POST /api/doctor/probe`). */
  probe: ProbeJob;
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

  // `zcode-hub doctor --probe` from the web app: its own child of the daemon's backend, in
  // scratch directories (probe-run.ts), never the daemon's child or its sessions (daemon/http-parts.ts).
  const job = opts.probe;
  // A probe running at shutdown is abandoned, and its child stopped before the daemon is gone.
  app.addHook('onClose', async () => {
    job.abort();
    await job.settled();
  });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/doctor/probe',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Start `doctor --probe` against this daemon’s backend (its own scratch child); poll GET for the report',
        tags: ['status'],
        body: z.object({ prompt: z.boolean().optional() }).strict().optional(),
        response: { 202: probeJobSchema },
      },
    },
    async (req, reply) => {
      if (!job.start({ prompt: req.body?.prompt ?? true })) throw new HubError('HUB_ERR_CONFLICT', 'a probe is already running');
      return reply.code(202).send(job.status());
    },
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/doctor/probe',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'The last `doctor --probe` of the web app: idle, running, done (with the report) or failed',
        tags: ['status'],
        response: { 200: probeJobSchema },
      },
    },
    async () => job.status(),
  );
};
