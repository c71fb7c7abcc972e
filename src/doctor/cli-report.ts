/**
 * The machine-readable half of doctor's CLI report: the detection of cli-candidates.ts as it
 * travels in `GET /api/doctor` and in `zcode-hub doctor --json` (`cli`), one schema for both.
 */
import { z } from 'zod';

const candidate = z.object({
  source: z.enum(['explicit', 'path', 'npm-global', 'npx-cache', 'desktop']),
  path: z.string(),
  status: z.enum(['found', 'missing', 'not-runnable']),
  note: z.string(),
  entry: z.string().optional(),
  launch: z.enum(['node', 'direct']).optional(),
});

export const cliDetectionSchema = z.object({
  picked: candidate.optional(),
  reason: z.string(),
  candidates: z.array(candidate),
});

export const doctorCheckSchema = z.object({
  id: z.string(),
  status: z.enum(['ok', 'warn', 'fail']),
  message: z.string(),
  fix: z.string().optional(),
  details: z.array(z.string()).optional(),
});

const cliVersionSchema = z.object({ version: z.string().optional(), verified: z.boolean(), warning: z.string().optional() });

/** The report of `doctor --probe` (probe-report.ts), as `GET /api/doctor/probe` carries it. */
export const probeReportSchema = z.object({
  hub: z.string(),
  backend: z.object({
    kind: z.enum(['zcode', 'sim']),
    entry: z.string().optional(),
    cliVersion: cliVersionSchema.optional(),
    runtime: z
      .object({ path: z.string(), version: z.string(), source: z.enum(['flag', 'shipped', 'hub', 'desktop-electron']), reason: z.string() })
      .optional(),
  }),
  verdict: z.enum(['pass', 'fail']),
  rows: z.array(
    z.object({
      step: z.string(),
      expectation: z.string(),
      outcome: z.enum(['ok', 'differs', 'missing', 'skipped']),
      detail: z.string().optional(),
    }),
  ),
  stderrTail: z.array(z.string()),
});

/** The web app's probe job (probe-job.ts). */
export const probeJobSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('idle') }),
  z.object({ state: z.literal('running'), startedAt: z.number() }),
  z.object({ state: z.literal('done'), startedAt: z.number(), finishedAt: z.number(), report: probeReportSchema }),
  z.object({ state: z.literal('failed'), startedAt: z.number(), finishedAt: z.number(), error: z.string() }),
]);
