import { round, type Scenario } from '../lib/scenario.js';
import { LOAD_L, openStreamSession, runBaselineStream, runStream } from '../lib/stream-session.js';

/** The bare baseline stream is shorter than load L: it only gives the machine's own latency floor. */
const BASELINE_MS = 10_000;

/** p99s of this invocation's B-LAT runs: B-SLOW's reference when both run (same machine, same minutes). */
export const latReference: number[] = [];

const MiB = 1024 * 1024;

/** B-LAT (FAN-01 measured): child stdout → client latency at load L, and every client sees every seq once. */
export const bLat: Scenario = {
  id: 'B-LAT',
  proves: ['B-LAT'],
  goal: 'latency child stdout → client at load L (100 clients, 500 ev/s × 300 B, 30 s): p99 < 5 ms',
  unit: 'ms p99',
  runs: 3,
  passes: (s) => s.value < 5,
  async run() {
    const setup = { ...LOAD_L };
    const s = await openStreamSession(setup);
    try {
      const all = [...Array(setup.clients).keys()];
      const o = await runStream(s, setup, all);
      if (!o.report.complete) throw new Error(`seq completeness failed: ${o.report.problems.slice(0, 3).join('; ')}`);
      latReference.push(o.report.latency.p99);
      await s.close();
      const bare = await runBaselineStream({ ...setup, durationMs: BASELINE_MS });
      return {
        value: round(o.report.latency.p99, 3),
        baseline: round(bare.report.latency.p99, 3),
        extra: {
          latencyMs: o.report.latency,
          complete: o.report.complete,
          updatesPerClient: o.finalSeq,
          deliveredPerSec: o.deliveredPerSec,
          daemonCpuMs: o.daemonCpuMs,
          daemonNsPerUpdate: o.daemonNsPerUpdate,
          rssMaxMiB: round(o.rssMaxBytes / MiB, 1),
          closes: o.report.closes,
          auth: s.auth,
          bareWsLatencyMs: bare.report.latency,
          bareComplete: bare.report.complete,
        },
      };
    } finally {
      await s.close();
    }
  },
};
