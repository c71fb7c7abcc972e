/**
 * `node --import tsx bench/cork-experiment.ts`: the bare broadcaster with and without per-tick
 * corking, alternated, at load L and saturated — the evidence behind the batching recommendation
 * in BENCHMARKS.md (the hub's profile at load L is dominated by one `writev` per frame per client).
 */
import { round } from './lib/scenario.js';
import { LOAD_L, runBaselineStream } from './lib/stream-session.js';

const out = (l: string) => process.stdout.write(`${l}\n`);
const shapes = [
  { name: 'load L (500 ev/s)', setup: { ...LOAD_L, durationMs: 10_000 } },
  { name: 'saturated (3,000 ev/s)', setup: { clients: 100, rate: 3_000, bytes: 300, durationMs: 4_000 } },
];
for (const { name, setup } of shapes) {
  for (let i = 0; i < 2; i++) {
    for (const cork of [false, true]) {
      const r = await runBaselineStream(setup, cork);
      out(`${name} cork=${cork}: delivered ${r.deliveredPerSec}/s p50 ${round(r.report.latency.p50, 2)} ms p99 ${round(r.report.latency.p99, 2)} ms complete=${r.report.complete}`);
    }
  }
}
