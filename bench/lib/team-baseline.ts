import { BaselineProcess } from './baseline-process.js';
import { waitDoneSchema, type LoadReport } from './ipc-schema.js';
import { LoadDriver } from './load-driver.js';
import { CpuMeter } from './proc-cpu.js';
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
  loadClientLoopDelayMs: { p99: number; max: number };
  slowWindows: LoadReport['slowWindows'];
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
    await new Promise((r) => setTimeout(r, t.warmupMs));
    await load.send({ op: 'resetLatency' });
    const { lastSeqs } = await streamed;
    for (let k = 0; k < t.sessions; k++)
      await load.call(waitDoneSchema, { op: 'waitSeq', seq: lastSeqs[k] ?? 0, clients: group(k), timeoutMs: 60_000 }, 90_000);
    const cpu = meter.take();
    const wallMs = Date.now() - started;
    for (let k = 0; k < t.sessions; k++) {
      const r = await load.report(group(k));
      if (!r.complete) throw new Error(`baseline session ${k} not gap-free: ${r.problems.slice(0, 2).join('; ')}`);
    }
    const all = await load.report('all');
    return {
      latency: all.latency,
      cpuPercent: Object.fromEntries(Object.entries(cpu).map(([k, ms]) => [k, round((ms / wallMs) * 100, 1)])),
      loadClientLoopDelayMs: { p99: round(all.loopDelay.p99, 2), max: round(all.loopDelay.max, 2) },
      slowWindows: all.slowWindows,
    };
  } finally {
    await load.stop();
    await server.stop();
  }
}
