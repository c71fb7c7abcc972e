/**
 * `node --expose-gc --import tsx bench/soak.ts` (SOAK_MINUTES, default 10): the daemon runs in
 * this process (so its heap, open handles and event-loop delay are measurable), a separate load
 * process holds 20 clients on a steady stream, clients drop and reconnect with `afterSeq` every
 * 20 s and the child is SIGKILLed every 60 s (a soak shorter than a minute does both every third
 * of its length, and samples every quarter). Checks: heap slope once the journal ring is full, open
 * handles flat, event-loop delay p99. Writes bench/results/soak.json; exit code 1 on a miss.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startHub } from '../test/helpers/hub-harness.js';
import { repoRoot } from './lib/daemon-process.js';
import { attachedSchema, sessionOpenedSchema, waitDoneSchema } from './lib/ipc-schema.js';
import { LoadDriver } from './lib/load-driver.js';
import { machineInfo, round } from './lib/scenario.js';
import { LIMITS } from '../src/limits.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? '10');
const CLIENTS = 20;
const RATE = 100;
/** A short soak (the everyday test's) still samples, reconnects and kills the child twice or more. */
const sampleEveryMs = (ms: number) => Math.min(5_000, ms / 4);
const reconnectEveryMs = (ms: number) => Math.min(20_000, ms / 3);
const killEveryMs = (ms: number) => Math.min(60_000, ms / 3);
/** Goals: heap growth over the second half, open-handle drift, event-loop delay p99. */
const MAX_SLOPE_MIB_PER_MIN = 2;
const MAX_HANDLE_DRIFT = 10;
const MAX_ELD_P99_MS = 100;
const MiB = 1024 * 1024;
const out = (l: string) => process.stdout.write(`${l}\n`);
const gc = (globalThis as { gc?: () => void }).gc;

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const durationMs = Math.max(0.1, MINUTES) * 60_000;
const hub = await startHub({
  // The stream outlives the soak; every kill ends the turn and the loop prompts again.
  simArgs: ['--event-rate', String(RATE), '--event-bytes', '300', '--event-duration-ms', String(durationMs + 120_000)],
  limits: { crashLoopCount: 10_000, restartBackoffMaxMs: 1_000 },
});
const load = await LoadDriver.start();
const eld = monitorEventLoopDelay({ resolution: 10 });
const samples: Array<{ tMin: number; heapMiB: number; rssMiB: number; handles: number; eldP99Ms: number }> = [];
let kills = 0;
let reconnects = 0;
try {
  const tokens = [await hub.token('operate', 'soak')];
  await load.send({ op: 'connect', wsUrl: hub.wsUrl, tokens, count: CLIENTS, protocol: 'acp' });
  const { sessionId, epoch: firstEpoch } = await load.call(sessionOpenedSchema, { op: 'newSession', client: 0, cwd: hub.workspace });
  await load.call(attachedSchema, { op: 'attach', sessionId, method: 'session/resume', clients: [...Array(CLIENTS).keys()].slice(1) });
  let epoch = firstEpoch;
  // Follows `_zcode/backend_state`: the epoch a reconnecting client sends back.
  const control = await hub.initializedClient({ name: 'soak-control' });
  const prompt = () =>
    void load.send({ op: 'prompt', client: 0, sessionId, text: 'soak stream' }, durationMs + 300_000).catch(() => undefined);
  prompt();
  eld.enable();
  const t0 = Date.now();
  let nextReconnect = t0 + reconnectEveryMs(durationMs);
  let nextKill = t0 + killEveryMs(durationMs);
  let nextSample = t0 + sampleEveryMs(durationMs);
  while (Date.now() - t0 < durationMs) {
    await new Promise((r) => setTimeout(r, 250));
    const now = Date.now();
    if (now >= nextKill) {
      nextKill += killEveryMs(durationMs);
      const pid = hub.daemon.backend.status().pid;
      if (pid) {
        process.kill(pid, 'SIGKILL');
        kills++;
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline && !(hub.daemon.backend.status().state === 'ready' && hub.daemon.backend.status().pid !== pid))
          await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 500));
        prompt();
      }
    }
    if (now >= nextReconnect) {
      nextReconnect += reconnectEveryMs(durationMs);
      const some = [...Array(CLIENTS).keys()].filter((i) => i > 0 && i % 3 === reconnects % 3);
      await load.send({ op: 'close', clients: some });
      const head = (await load.report([0])).lastSeq[0] ?? 0;
      epoch = control.notifications<{ epoch: string }>('_zcode/backend_state').at(-1)?.epoch ?? epoch;
      await load
        .call(waitDoneSchema, { op: 'reconnect', sessionId, clients: some, targetSeq: head, epoch, timeoutMs: 30_000 }, 60_000)
        .catch(() => undefined);
      reconnects++;
    }
    if (now >= nextSample) {
      nextSample += sampleEveryMs(durationMs);
      gc?.();
      const m = process.memoryUsage();
      samples.push({
        tMin: (now - t0) / 60_000,
        heapMiB: m.heapUsed / MiB,
        rssMiB: m.rss / MiB,
        handles: process.getActiveResourcesInfo().length,
        eldP99Ms: eld.percentile(99) / 1e6,
      });
      // The forced collection's own pause is the measurement's, not the daemon's: it lands in the
      // histogram when the event loop resumes, so the next window starts after that.
      await new Promise((r) => setTimeout(r, 20));
      eld.reset();
    }
  }
} finally {
  eld.disable();
  await load.stop();
  await hub.close();
}

// The journal ring (LIMITS.journalMaxUpdates) legitimately grows until it is full; the slope is
// taken after that, over at least four samples, or not at all (a short soak says so).
const ringFullMin = LIMITS.journalMaxUpdates / RATE / 60 + 0.5;
const steady = samples.filter((s) => s.tMin >= ringFullMin);
const slopeMeasured = steady.length >= 4;
const heapSlope = slopeMeasured
  ? slope(
      steady.map((s) => s.tMin),
      steady.map((s) => s.heapMiB),
    )
  : 0;
const handleDrift = (samples.at(-1)?.handles ?? 0) - (samples[1]?.handles ?? samples[0]?.handles ?? 0);
const eldP99 = Math.max(...samples.map((s) => s.eldP99Ms));
// SOAK_LOOP_DELAY=report: the event-loop delay is measured and written, not judged. The everyday
// test sets it: a 12-s soak beside other suites on a busy machine measures the machine's load as
// much as the hub, and a timed goal there fails for the machine's sake (the full soak judges it).
const judgeLoopDelay = process.env.SOAK_LOOP_DELAY !== 'report';
const checks = {
  heapSlope: !slopeMeasured || heapSlope < MAX_SLOPE_MIB_PER_MIN,
  handleDrift: handleDrift <= MAX_HANDLE_DRIFT,
  eventLoopDelay: !judgeLoopDelay || eldP99 < MAX_ELD_P99_MS,
};
const pass = checks.heapSlope && checks.handleDrift && checks.eventLoopDelay;
const result = {
  id: 'SOAK',
  goal: `heap slope < ${MAX_SLOPE_MIB_PER_MIN} MiB/min once the journal ring is full, open handles drift ≤ ${MAX_HANDLE_DRIFT}, event-loop delay p99 < ${MAX_ELD_P99_MS} ms`,
  minutes: MINUTES,
  kills,
  reconnects,
  heapSlopeMiBPerMin: slopeMeasured ? round(heapSlope, 3) : null,
  slopeFromMin: round(ringFullMin, 2),
  handleDrift,
  worstEventLoopDelayP99Ms: round(eldP99, 2),
  eventLoopDelayJudged: judgeLoopDelay,
  checks,
  gcForced: gc !== undefined,
  pass,
  samples: samples.map((s) => ({
    tMin: round(s.tMin, 2),
    heapMiB: round(s.heapMiB, 1),
    rssMiB: round(s.rssMiB, 1),
    handles: s.handles,
    eldP99Ms: round(s.eldP99Ms, 2),
  })),
  machine: machineInfo(),
  command: `SOAK_MINUTES=${MINUTES} node --expose-gc --import tsx bench/soak.ts`,
  recordedAt: new Date().toISOString(),
};
// SOAK_RESULT_FILE lets the everyday test write elsewhere than the recorded figure.
const resultFile = process.env.SOAK_RESULT_FILE ?? path.join(repoRoot, 'bench', 'results', 'soak.json');
fs.mkdirSync(path.dirname(resultFile), { recursive: true });
fs.writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
out(
  `soak ${MINUTES} min: ${kills} kills, ${reconnects} reconnect rounds, heap slope ${slopeMeasured ? `${result.heapSlopeMiBPerMin} MiB/min` : `not measured (soak shorter than the ring fill, ${round(ringFullMin, 1)} min)`}, handle drift ${handleDrift}, worst ELD p99 ${result.worstEventLoopDelayP99Ms} ms${judgeLoopDelay ? '' : ' (reported, not judged)'} → ${pass ? 'pass' : 'FAIL'}`,
);
process.exitCode = pass ? 0 : 1;
