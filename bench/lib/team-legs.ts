/**
 * B-COST-TEAM's legs (bench/scenarios/b-cost-team.ts): one side's stream with its serving process's
 * CPU read over the steady part, a pair of them taken in turn, or both sides streamed at once and
 * read over the same window; and the stream frames each side's clients received in a leg.
 */
import { cpuSplitsBetween, type CpuSplit, type MonoWindow } from './proc-cpu.js';
import type { LoadDriver } from './load-driver.js';
import { round } from './scenario.js';

/** A leg's clock: the stream lasts `legMs`; its steady part starts `warmupMs` in and ends a second before the stream. */
export interface LegTiming {
  legMs: number;
  warmupMs: number;
}

/** One leg's steady CPU, % of one core. */
export interface LegCpu {
  user: number;
  system: number;
  total: number;
  /**
   * The load process's CPU over the same window (user + system): what reading this side's frames
   * cost the clients. The same frames have cost it more in the hub's legs (BENCHMARKS.md,
   * seventeenth session), so it is reported beside each side's own figure. Both sides' frames
   * when they stream together.
   */
  load: number;
  /** When the serving process's figure was read: a `perf record -k mono` of the run splits by it (bench/perf-legs.ts). */
  window: MonoWindow;
  /**
   * Stream frames this side's clients (prompters and team) received in the leg: the same on both
   * sides when each event reaches as many sockets, which B-COST-TEAM's `sameFrames` requires.
   */
  frames: number;
}

/** One side of the legs: a server with its team on the load process. */
export interface Side {
  readonly name: string;
  readonly pid: number | undefined;
  /** Its team's client slots by session (narrowed when the audience shrinks). */
  groups: number[][];
  /** Its prompters' slots (a hub's), or their stand-ins' (the baseline's): attached for good, sent every update. */
  readonly prompters: number[];
  /** One stream in every session, until every team client holds its session's last seq. */
  stream(): Promise<void>;
  /** FAN-01 per session, over `groups`. */
  gaps(): Promise<string[]>;
}

/** The steady part of a leg that starts now, in ms since the epoch. */
function steadyPart(s: LegTiming): [number, number] {
  const started = Date.now();
  return [started + s.warmupMs, started + s.legMs - 1_000];
}

/** The serving process's and the load process's steady CPU while `leg` streams (it starts now); resolves after all three. */
export async function measureLeg(
  pid: number | undefined,
  loadPid: number | undefined,
  s: LegTiming,
  leg: () => Promise<void>,
): Promise<Omit<LegCpu, 'frames'>> {
  const [from, to] = steadyPart(s);
  const [cpu] = await Promise.all([cpuSplitsBetween({ side: pid, load: loadPid }, from, to), leg()]);
  return legFigures(cpu.side, cpu.load);
}

/** A leg's figures from its serving process's CPU and the load process's over the same window. */
function legFigures(cpu: CpuSplit, load: CpuSplit): Omit<LegCpu, 'frames'> {
  return {
    user: cpu.user,
    system: cpu.system,
    total: round(cpu.user + cpu.system, 1),
    load: round(load.user + load.system, 1),
    window: cpu.window,
  };
}

export type SideKey = 'hub' | 'baseline';
/** One pair's legs, and the order they ran in. */
export type Pair = Record<SideKey, LegCpu> & { order: readonly SideKey[] };

/** A pair in alternating legs: one side streams, then the other (`hubFirst` in even pairs). */
export async function measureInTurn(sides: Record<SideKey, Side>, load: LoadDriver, s: LegTiming, hubFirst: boolean): Promise<Pair> {
  const order = hubFirst ? (['hub', 'baseline'] as const) : (['baseline', 'hub'] as const);
  const legs: Partial<Record<SideKey, LegCpu>> = {};
  for (const key of order) {
    const side = sides[key];
    const before = await framesOf(load, side);
    legs[key] = { ...(await measureLeg(side.pid, load.pid, s, () => side.stream())), frames: (await framesOf(load, side)) - before };
  }
  return { hub: legs.hub!, baseline: legs.baseline!, order };
}

/** A pair streamed together: both sides' streams start at once, each process's CPU read over the same window. */
export async function measureTogether(sides: Record<SideKey, Side>, load: LoadDriver, s: LegTiming): Promise<Pair> {
  const before = { hub: await framesOf(load, sides.hub), baseline: await framesOf(load, sides.baseline) };
  const [from, to] = steadyPart(s);
  const pids = { hub: sides.hub.pid, baseline: sides.baseline.pid, load: load.pid };
  const [cpu] = await Promise.all([cpuSplitsBetween(pids, from, to), sides.hub.stream(), sides.baseline.stream()]);
  const leg = async (key: SideKey): Promise<LegCpu> => ({
    ...legFigures(cpu[key], cpu.load),
    frames: (await framesOf(load, sides[key])) - before[key],
  });
  return { hub: await leg('hub'), baseline: await leg('baseline'), order: ['hub', 'baseline'] };
}

/** Stream frames received so far by every client of `side` (its prompters and its team). */
export async function framesOf(load: LoadDriver, side: Side): Promise<number> {
  return (await load.report([...side.prompters, ...side.groups.flat()])).benchFrames;
}
