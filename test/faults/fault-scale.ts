import fs from 'node:fs';
import path from 'node:path';
/**
 * Fault suites run at full size with RUN_FAULTS=1 (requirement CHD-01, WS-02, soak) and at a small
 * size otherwise, like test/settings/crash-writes.test.ts: the same code path every `npm test`,
 * the full count when asked for. Nothing is skipped either way.
 */
export const FULL = process.env.RUN_FAULTS === '1';

/** Picks the full-size or the everyday figure. */
export function scale(full: number, everyday: number): number {
  return FULL ? full : everyday;
}

/** Open handles and requests of this process (what "open handles flat" compares). */
export function openResources(): number {
  return process.getActiveResourcesInfo().length;
}

/** Median and max of each series, written to bench/results/<id>.json for BENCHMARKS.md. */
export function recordTimings(id: string, data: { kills: number; clients: number } & Record<string, number[] | number>): void {
  const summary: Record<string, unknown> = { id, recordedAt: new Date().toISOString(), node: process.version };
  for (const [key, value] of Object.entries(data)) {
    if (!Array.isArray(value)) {
      summary[key] = value;
      continue;
    }
    const sorted = [...value].sort((a, b) => a - b);
    summary[key] = {
      median: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
      max: Math.round(sorted.at(-1) ?? 0),
      n: sorted.length,
    };
  }
  const dir = path.resolve(import.meta.dirname, '..', '..', 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${id}.json`), `${JSON.stringify(summary, null, 2)}\n`);
}
