import { round, type Scenario } from '../lib/scenario.js';
import { LOAD_L, openStreamSession, runStream } from '../lib/stream-session.js';
import { latReference } from './b-lat.js';

const MiB = 1024 * 1024;
/** The 4008 log line of src/gateway/client-connection.ts (the moment the budget is crossed: the check runs on each send). */
const SLOW_CLOSE_MSG = 'client over its outbound budget: closing 4008';
const STALLED = LOAD_L.clients; // index of the extra client
/**
 * Stream length for this scenario. At load L a stalled reader takes ~28 s to cross its 4 MiB
 * budget (budget plus the kernel's socket buffers at ~280 KB/s: 27.6 s before and 28.4 s after
 * write batching, measured with 50 s streams), so 30 s streams ended right at the crossing.
 * Stays under the load client's 60 s prompt timeout.
 */
const SLOW_DURATION_MS = 50_000;

async function loadL(extraClients: number, stall: boolean) {
  const setup = { ...LOAD_L, durationMs: SLOW_DURATION_MS, extraClients };
  const s = await openStreamSession(setup);
  try {
    const measured = [...Array(setup.clients).keys()];
    const o = await runStream(
      s,
      setup,
      measured,
      stall ? () => s.load.send({ op: 'stall', client: STALLED }).then(() => undefined) : undefined,
    );
    const stalled = stall ? await s.load.report([STALLED]) : undefined;
    const closeLine = s.daemon.logLines().find((l) => l.msg === SLOW_CLOSE_MSG);
    const closedAt = typeof closeLine?.time === 'number' ? closeLine.time : undefined;
    return { o, stalledAt: stalled?.stalledAt ?? undefined, closedAt, auth: s.auth };
  } finally {
    await s.close();
  }
}

/**
 * B-SLOW (FAN-02 measured): load L plus one client that stops reading. The stalled client must be
 * closed 4008 (the gateway checks the budget on every send, so the close is at the crossing);
 * the 100 healthy clients' p99 is compared with load L without it — B-LAT's runs of this
 * invocation when B-LAT ran, else a reference run here — and the hub's RSS must stay bounded.
 */
export const bSlow: Scenario = {
  id: 'B-SLOW',
  proves: ['B-SLOW'],
  goal: 'load L + 1 stalled client: closed 4008; healthy p99 ≤ 1.5× load L without it; RSS bounded',
  unit: 'ms p99',
  runs: 2,
  passes: (s) => (s.ratio ?? Infinity) <= 1.5,
  async run(index, log) {
    if (latReference.length <= index) {
      log('no B-LAT run to compare with in this invocation: measuring load L without the stalled client first');
      const ref = await loadL(0, false);
      latReference.push(ref.o.report.latency.p99);
    }
    const r = await loadL(1, true);
    if (!r.o.report.complete) throw new Error(`healthy clients lost updates: ${r.o.report.problems.slice(0, 3).join('; ')}`);
    if (r.closedAt === undefined) throw new Error('the stalled client was not closed 4008 during the stream');
    return {
      value: round(r.o.report.latency.p99, 3),
      baseline: round(latReference[index]!, 3),
      extra: {
        healthyLatencyMs: r.o.report.latency,
        closed4008: true,
        stallToCloseMs: r.stalledAt === undefined ? null : round(r.closedAt - r.stalledAt, 0),
        rssMaxMiB: round(r.o.rssMaxBytes / MiB, 1),
        rssEndMiB: round(r.o.rssEndBytes / MiB, 1),
        healthyComplete: r.o.report.complete,
        auth: r.auth,
      },
    };
  },
};
