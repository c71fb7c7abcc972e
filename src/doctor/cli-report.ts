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
