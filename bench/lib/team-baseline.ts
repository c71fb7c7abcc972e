import { BaselineProcess } from './baseline-process.js';
import { waitDoneSchema, type LoadReport } from './ipc-schema.js';
import { LoadDriver } from './load-driver.js';
import { cpuPercentBetween, CpuMeter } from './proc-cpu.js';
import { round } from './scenario.js';

/** The team's shape, as B-SCALE streams it (bench/scenarios/b-scale.ts `TEAM`). */
export interface TeamStreamShape {
  sessions: number;
  perSession: number;
  rate: number;
  bytes: number;
  streamMs: number;
  warmupMs: number;
  phaseMs: number;
}

export interface TeamStreamFigures {
  latency: LoadReport['latency'];
  /** Share of one core each process used while streaming. */
  cpuPercent: Record<string, number>;
  /** The same over the stream's steady part only ({@link steadyWindow}); undefined when too short. */
  steadyCpuPercent: Record<string, number> | undefined;
  loadClientLoopDelayMs: { p99: number; max: number };
  slowWindows: LoadReport['slowWindows'];
}

/**
 * The steady part of a team's stream, in ms after its prompts were sent: from the last session's
 * warm-up to a second before the first session's stream ends. Its CPU is the cost per delivered
 * update alone; the whole window also holds what a turn's start and end cost (prompts, every
 * connection's `_zcode/session_state`, the turn's records), which the baseline has no part of.
 * Undefined when that part is shorter than 3 s.
 */
export function steadyWindow(t: TeamStreamShape): { fromMs: number; toMs: number } | undefined {
  const fromMs = t.warmupMs + (t.sessions - 1) * t.phaseMs;
  const toMs = t.streamMs - 1_000;
  return toMs - fromMs < 3_000 ? undefined : { fromMs, toMs };
}

/** CPU of `pids` over the steady part of a stream whose prompts went at `startedAt` (undefined: none). */
export function steadyCpu(
  pids: Record<string, number | undefined>,
  t: TeamStreamShape,
  startedAt: number,
): Promise<Record<string, number> | undefined> {
  const w = steadyWindow(t);
  return w === undefined ? Promise.resolve(undefined) : cpuPercentBetween(pids, startedAt + w.fromMs, startedAt + w.toMs);
}

/**
 * B-SCALE's streaming figure on the fair bare baseline (bench/baseline-server.ts): the same
 * sessions, clients per session, rate, frame size and load process, so the hub's p99 can be read
 * against what this machine gives a broadcaster that does nothing but write the frames.
 */
export async function baselineTeamStream(t: TeamStreamShape): Promise<TeamStreamFigures> {
  const server = await BaselineProcess.start();
  const load = await LoadDriver.start().catch(async (err: unknown) => {
    await server.stop();
    throw err;
  });
  try {
    const group = (k: number) => Array.from({ length: t.perSession }, (_, i) => k * t.perSession + i);
    for (let k = 0; k < t.sessions; k++)
      await load.send({ op: 'connect', wsUrl: server.wsUrl(k), tokens: [], count: t.perSession, protocol: 'bare' }, 300_000);
    const meter = new CpuMeter({ baseline: server.pid, sim: server.simPid, load: load.pid });
    const started = Date.now();
    const streamed = server.stream(t.rate, t.bytes, t.streamMs, { sessions: t.sessions, phaseMs: t.phaseMs });
    const steady = steadyCpu({ baseline: server.pid }, t, started);
    await new Promise((r) => setTimeout(r, t.warmupMs));
    await load.send({ op: 'resetLatency' });
    const { lastSeqs } = await streamed;
    for (let k = 0; k < t.sessions; k++)
      await load.call(waitDoneSchema, { op: 'waitSeq', seq: lastSeqs[k] ?? 0, clients: group(k), timeoutMs: 60_000 }, 90_000);
    const cpu = meter.take();
    const wallMs = Date.now() - started;
    const steadyCpuPercent = await steady;
    for (let k = 0; k < t.sessions; k++) {
      const r = await load.report(group(k));
      if (!r.complete) throw new Error(`baseline session ${k} not gap-free: ${r.problems.slice(0, 2).join('; ')}`);
    }
    const all = await load.report('all');
    return {
      latency: all.latency,
      cpuPercent: Object.fromEntries(Object.entries(cpu).map(([k, ms]) => [k, round((ms / wallMs) * 100, 1)])),
      steadyCpuPercent,
      loadClientLoopDelayMs: { p99: round(all.loopDelay.p99, 2), max: round(all.loopDelay.max, 2) },
      slowWindows: all.slowWindows,
    };
  } finally {
    await load.stop();
    await server.stop();
  }
}
