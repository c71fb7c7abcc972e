/**
 * The state dir's keyed logs (src/fs/entry-log.ts) as tests read them: `authors.ndjson` (one
 * author or overwrite mark per line) and `session-marks.ndjson` (one session's mark per line,
 * a later line overriding an earlier one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Every whole line of a log, parsed; [] when there is no file. */
export function logLines(file: string): unknown[] {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}

const authorLine = z.looseObject({ k: z.string(), s: z.string(), id: z.string() });
/** The author book's entries, as written (`{k, s, id, name?, …}`). */
export function authorEntries(stateDir: string): Array<z.infer<typeof authorLine>> {
  return logLines(path.join(stateDir, 'authors.ndjson')).map((l) => authorLine.parse(l));
}

const markLine = z.object({ s: z.string(), m: z.looseObject({}) });
/** Each session's mark as last written. */
export function sessionMarks(stateDir: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const l of logLines(path.join(stateDir, 'session-marks.ndjson'))) {
    const { s, m } = markLine.parse(l);
    out[s] = m;
  }
  return out;
}
