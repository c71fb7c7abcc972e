import fs from 'node:fs';

/** Kernel clock ticks per second for /proc/<pid>/stat times (USER_HZ; 100 on every Linux build we run). */
const TICKS_PER_SECOND = 100;

/** User and system CPU time of a process so far, in ms (/proc/<pid>/stat fields 14 and 15); NaN when gone. */
export function cpuTimes(pid: number | undefined): { user: number; system: number } {
  if (pid === undefined || pid <= 0) return { user: Number.NaN, system: Number.NaN };
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces; the fields after it are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: (Number(fields[11]) * 1000) / TICKS_PER_SECOND, system: (Number(fields[12]) * 1000) / TICKS_PER_SECOND };
  } catch {
    return { user: Number.NaN, system: Number.NaN };
  }
}

/** User + system CPU time of a process so far, in ms; NaN when gone. */
export function cpuMs(pid: number | undefined): number {
  const t = cpuTimes(pid);
  return t.user + t.system;
}

/** Direct children of a process (/proc/<pid>/task/<pid>/children). */
export function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU time of a set of named processes, read together: `take()` again gives the ms each used in between. */
export class CpuMeter {
  private start: Record<string, number>;

  constructor(private readonly pids: Record<string, number | undefined>) {
    this.start = this.read();
  }

  private read(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.pids).map(([k, pid]) => [k, cpuMs(pid)]));
  }

  /** CPU ms of each process since the meter started (or since the last `take`). */
  take(): Record<string, number> {
    const now = this.read();
    const used = Object.fromEntries(Object.keys(now).map((k) => [k, now[k]! - this.start[k]!]));
    this.start = now;
    return used;
  }
}

/**
 * When two readings were taken, in seconds on the machine's monotonic clock (`CLOCK_MONOTONIC`,
 * `process.hrtime`): the clock `perf record -k mono` stamps its samples with, so a recording can be
 * split at exactly the moments a figure was read (bench/perf-legs.ts).
 */
export interface MonoWindow {
  from: number;
  to: number;
}

const monoSeconds = (): number => Number(process.hrtime.bigint() / 1000n) / 1e6;

/** Waits until `fromAt`, reads `read`, waits until `toAt`, reads it again: both readings, the wall ms between them and their moments. */
async function readBetween<T>(
  fromAt: number,
  toAt: number,
  read: () => T,
): Promise<{ before: T; after: T; wallMs: number; window: MonoWindow }> {
  await new Promise((r) => setTimeout(r, Math.max(0, fromAt - Date.now())));
  const before = read();
  const started = Date.now();
  const from = monoSeconds();
  await new Promise((r) => setTimeout(r, Math.max(0, toAt - Date.now())));
  const after = read();
  return { before, after, wallMs: Date.now() - started, window: { from, to: monoSeconds() } };
}

const percentOf = (ms: number, wallMs: number) => Math.round((ms / wallMs) * 1000) / 10;

/** One process's CPU over a window: user and system, each a percent of one core, and the window. */
export interface CpuSplit {
  user: number;
  system: number;
  window: MonoWindow;
}

/** Each process's user and system CPU time (ms) read at the same two moments, and the wall ms between. */
async function timesBetween<K extends string>(pids: Record<K, number | undefined>, fromAt: number, toAt: number) {
  const keys = Object.keys(pids) as K[];
  const read = () => keys.map((k) => cpuTimes(pids[k]));
  return { keys, ...(await readBetween(fromAt, toAt, read)) };
}

/**
 * CPU of `pids` between two moments (ms since the epoch, `Date.now()`), as a percent of one core
 * each; resolves after `toAt`. Started before `fromAt`, it waits for it; a window already begun
 * starts now.
 */
export async function cpuPercentBetween<K extends string>(
  pids: Record<K, number | undefined>,
  fromAt: number,
  toAt: number,
): Promise<Record<K, number>> {
  const { keys, before, after, wallMs } = await timesBetween(pids, fromAt, toAt);
  const used = (i: number) => after[i]!.user + after[i]!.system - (before[i]!.user + before[i]!.system);
  return Object.fromEntries(keys.map((k, i) => [k, percentOf(used(i), wallMs)])) as Record<K, number>;
}

/**
 * Each process's user and system CPU between two moments (ms since the epoch), each as a percent of
 * one core; all read at the same two moments, so they share one window. Resolves after `toAt` (a
 * window already begun starts now).
 */
export async function cpuSplitsBetween<K extends string>(
  pids: Record<K, number | undefined>,
  fromAt: number,
  toAt: number,
): Promise<Record<K, CpuSplit>> {
  const { keys, before, after, wallMs, window } = await timesBetween(pids, fromAt, toAt);
  const split = (i: number): CpuSplit => ({
    user: percentOf(after[i]!.user - before[i]!.user, wallMs),
    system: percentOf(after[i]!.system - before[i]!.system, wallMs),
    window,
  });
  return Object.fromEntries(keys.map((k, i) => [k, split(i)])) as Record<K, CpuSplit>;
}
