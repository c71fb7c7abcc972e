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
  /** Where the sessions stream on the shared grid (bench/lib/bench-prompt.ts `GRID`, `teamSlotMs`); 0: each from its own prompt. */
  grid: number;
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
 * The baseline's client slots of session `k`, when its team was connected from slot `first` on: after
 * one stand-in for each session's prompter, dealt round-robin over the sessions ({@link connectBaselineTeam}),
 * the same slots a hub's team holds (hub-team.ts `teamOf`).
 */
export function baselineGroup(t: TeamStreamShape, k: number, first = 0): number[] {
  return Array.from({ length: t.perSession }, (_, i) => first + t.sessions + k + i * t.sessions);
}

/** The slot of session `k`'s stand-in for the hub's prompter (a hub's prompter of session k is slot first + k). */
export function baselinePrompter(k: number, first = 0): number {
  return first + k;
}

/**
 * Connects the baseline's clients on the load client's next free slots, as a hub's are: first one
 * client per session in session order, standing in for the hub's prompter (a hub's prompter stays
 * attached to its session and is sent every update, so a hub session's audience is its team plus one),
 * then the team, dealt round-robin over the sessions (slot j to session j mod sessions). Without the
 * stand-ins the hub wrote one frame more per event than the baseline in every leg: 1 % more at 100
 * clients a session, 2 % at 50 and half as many again at 2 (BENCHMARKS.md, twenty-ninth session).
 * The layout is part of the cost too: an audience whose sockets were opened one after another is
 * written to and read from memory laid out in that order, one opened every tenth connection is not.
 * With each baseline session's hundred clients connected together and the hub's dealt round-robin,
 * the baseline's legs cost about 15 % less for the same code and the load process paid more for the
 * hub's (BENCHMARKS.md, twentieth session).
 */
export async function connectBaselineTeam(server: BaselineProcess, load: LoadDriver, t: TeamStreamShape): Promise<void> {
  const wsUrls = Array.from({ length: t.sessions }, (_, k) => server.wsUrl(k));
  // The op's i-th socket connects to wsUrls[i % sessions]: prompter k to session k, team slot j to session j mod sessions.
  await load.send({ op: 'connect', wsUrl: wsUrls[0]!, wsUrls, tokens: [], count: t.sessions, protocol: 'bare' });
  await load.send({ op: 'connect', wsUrl: wsUrls[0]!, wsUrls, tokens: [], count: t.sessions * t.perSession, protocol: 'bare' }, 300_000);
}

/** Each baseline session's client slots (the whole team from slot 0 by default). */
const groupsOf = (t: TeamStreamShape, groups?: number[][]) => groups ?? Array.from({ length: t.sessions }, (_, k) => baselineGroup(t, k));

/** One stream of `streamMs` in every baseline session; resolves once each group (by session) holds its session's last seq. */
export async function streamBaselineTeam(
  server: BaselineProcess,
  load: LoadDriver,
  t: TeamStreamShape,
  groups?: number[][],
): Promise<void> {
  const { lastSeqs } = await server.stream(t.rate, t.bytes, t.streamMs, { sessions: t.sessions, phaseMs: t.phaseMs, grid: t.grid });
  const g = groupsOf(t, groups);
  for (let k = 0; k < t.sessions; k++)
    await load.call(waitDoneSchema, { op: 'waitSeq', seq: lastSeqs[k] ?? 0, clients: g[k]!, timeoutMs: 60_000 }, 90_000);
}

/** FAN-01 per baseline session (of `groups`, by session), its prompter's stand-in included (its team connected from slot `first` on). */
export async function baselineTeamGaps(load: LoadDriver, t: TeamStreamShape, groups?: number[][], first = 0): Promise<string[]> {
  const g = groupsOf(t, groups);
  const out: string[] = [];
  for (let k = 0; k < t.sessions; k++) {
    const r = await load.report([baselinePrompter(k, first), ...g[k]!]);
    if (!r.complete) out.push(`baseline session ${k}: ${r.problems.slice(0, 2).join('; ') || 'clients end on different seqs'}`);
  }
  return out;
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
    await connectBaselineTeam(server, load, t);
    const meter = new CpuMeter({ baseline: server.pid, sim: server.simPid, load: load.pid });
    const started = Date.now();
    const streamed = streamBaselineTeam(server, load, t);
    const steady = steadyCpu({ baseline: server.pid }, t, started);
    await new Promise((r) => setTimeout(r, t.warmupMs));
    await load.send({ op: 'resetLatency' });
    await streamed;
    const cpu = meter.take();
    const wallMs = Date.now() - started;
    const steadyCpuPercent = await steady;
    const gaps = await baselineTeamGaps(load, t);
    if (gaps.length > 0) throw new Error(`baseline not gap-free: ${gaps.slice(0, 2).join('; ')}`);
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
