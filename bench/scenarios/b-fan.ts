import { round, type Scenario } from '../lib/scenario.js';
import { openStreamSession, runBaselineStream, runStream } from '../lib/stream-session.js';

/**
 * Saturating stream: 100 clients × 3,000 events/s offered = 300,000 frames/s, more than this
 * 2-core machine delivers through either server, for a window short enough that no client's
 * backlog reaches the hub's 4 MiB outbound budget (which would close it 4008 and end the count).
 */
const SATURATED = { clients: 100, rate: 3_000, bytes: 300, durationMs: 4_000 } as const;

/**
 * B-FAN: saturated delivered updates/s to 100 clients, hub vs a bare `ws` broadcast of the same frames, same run.
 * The test plan's B-FAN is the ceiling by latency, which B-CEIL measures and proves; this throughput figure stays
 * beside it (both sides deliver all this machine is offered here, so it reads 1).
 */
export const bFan: Scenario = {
  id: 'B-FAN',
  proves: [],
  goal: 'saturated delivered updates/s to 100 clients: hub ≥ 0.8× bare ws broadcast (same frames, same run)',
  unit: 'updates/s',
  runs: 3,
  passes: (s) => (s.ratio ?? 0) >= 0.8,
  async run() {
    const s = await openStreamSession(SATURATED);
    let hub;
    try {
      hub = await runStream(s, SATURATED, [...Array(SATURATED.clients).keys()]);
    } finally {
      await s.close();
    }
    const bare = await runBaselineStream(SATURATED);
    return {
      value: hub.deliveredPerSec,
      baseline: bare.deliveredPerSec,
      extra: {
        offeredPerSec: SATURATED.rate * SATURATED.clients,
        hubComplete: hub.report.complete,
        hubCloses: hub.report.closes,
        hubLatencyMs: { p50: hub.report.latency.p50, p99: hub.report.latency.p99 },
        hubDaemonNsPerUpdate: hub.daemonNsPerUpdate,
        bareLatencyMs: { p50: bare.report.latency.p50, p99: bare.report.latency.p99 },
        ratio: round(hub.deliveredPerSec / Math.max(1, bare.deliveredPerSec), 3),
        auth: s.auth,
      },
    };
  },
};
