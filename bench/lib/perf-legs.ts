/**
 * Where each side's CPU went in a B-COST-TEAM run, from a `perf record` of the serving process:
 * the samples of `perf script -F time,period,ip,sym,dso` (call chains on) split by the steady
 * windows the run recorded for its legs (`windows` in bench/results/B-COST-TEAM.json, seconds on
 * the monotonic clock `perf record -k mono` stamps with), summed by a key, in ms of CPU per second
 * of leg. A `cpu-clock` sample's period is the CPU time it stands for (ns), so sums compare across
 * legs whatever the sampling rate (`-c` or `-F`). bench/perf-legs.ts is the command.
 */
import type { MonoWindow } from './proc-cpu.js';

/** One frame of a sample's call chain, innermost first. */
export interface PerfFrame {
  sym: string;
  dso: string;
}

export interface PerfSample {
  /** Seconds on perf's clock (`-k mono`: the monotonic clock). */
  time: number;
  /** The CPU time the sample stands for, ns (cpu-clock). */
  period: number;
  frames: PerfFrame[];
}

/**
 * How a sample is named:
 * - `js`: the innermost JavaScript function on its stack (everything it called, native code and the
 *   kernel included, is charged to it); a sample without one is named by its innermost non-kernel frame;
 * - `self`: its innermost frame (a kernel one marked `[k]`);
 * - `syscall`: for a sample in the kernel, the system call (or interrupt) it is in; `(user)` otherwise.
 */
export type PerfKey = 'js' | 'self' | 'syscall';
export const PERF_KEYS: readonly PerfKey[] = ['js', 'self', 'syscall'];

const HEADER = /^(\d+\.\d+):\s+(\d+)\s*$/;
const FRAME = /^\s+[0-9a-f]+ (.*) \((.*)\)$/;

/** Reads `perf script -F time,period,ip,sym,dso` text (call chains on) a line at a time. */
export class PerfScriptReader {
  private current: PerfSample | undefined;

  /** Takes one line; returns the sample it completed (a new sample's first line ends the one before). */
  line(text: string): PerfSample | undefined {
    const head = HEADER.exec(text);
    if (head) {
      const done = this.current;
      this.current = { time: Number(head[1]), period: Number(head[2]), frames: [] };
      return done;
    }
    const frame = FRAME.exec(text);
    if (frame && this.current) this.current.frames.push({ sym: frame[1] as string, dso: frame[2] as string });
    return undefined;
  }

  /** The last sample, once the text has ended. */
  end(): PerfSample | undefined {
    const done = this.current;
    this.current = undefined;
    return done;
  }
}

/** Every sample of a `perf script` text. */
export function* parsePerfScript(lines: Iterable<string>): Generator<PerfSample> {
  const reader = new PerfScriptReader();
  for (const line of lines) {
    const sample = reader.line(line);
    if (sample) yield sample;
  }
  const last = reader.end();
  if (last) yield last;
}

const isKernel = (f: PerfFrame) => f.dso === '[kernel.kallsyms]';
/** JIT code as `perf inject --jit` (jitted-<pid>-<n>.so) or a `--perf-basic-prof` map names it. */
const isJs = (f: PerfFrame) => f.sym.startsWith('JS:') && (f.dso.includes('jitted-') || f.dso.includes('perf-'));

/**
 * The system call a kernel stack is in: the function `do_syscall_64` called (`ksys_write`,
 * `__x64_sys_epoll_pwait`, `exit_to_user_mode_loop` for the way back out, …); else the interrupt or
 * exception it entered by (`asm_*`); else its outermost kernel frame.
 */
function syscallOf(frames: PerfFrame[]): string {
  const kernel = frames.filter(isKernel);
  const at = kernel.findIndex((f) => f.sym === 'do_syscall_64');
  if (at > 0) return (kernel[at - 1] as PerfFrame).sym;
  const entry = kernel.find((f) => f.sym.startsWith('asm_'));
  return entry ? entry.sym : `${(kernel[kernel.length - 1] as PerfFrame).sym} [k]`;
}

/** A sample's name under `key`. */
export function keyOf(sample: PerfSample, key: PerfKey): string {
  const [top] = sample.frames;
  if (top === undefined) return '(no stack)';
  if (key === 'self') return isKernel(top) ? `${top.sym} [k]` : top.sym;
  if (key === 'syscall') return isKernel(top) ? syscallOf(sample.frames) : '(user)';
  const js = sample.frames.find(isJs);
  if (js) return js.sym;
  const own = sample.frames.find((f) => !isKernel(f));
  return `(outside JS) ${own ? own.sym : syscallOf(sample.frames)}`;
}

/** Each side's legs, as the run recorded them. */
export type SideWindows = Record<string, MonoWindow[]>;

/** Each side's CPU by key, ms per second of its legs; `all` is every sample in its legs. */
export interface LegProfile {
  seconds: Record<string, number>;
  msPerS: Record<string, Map<string, number>>;
}

/** Sums samples inside each side's windows by a key, as ms of CPU per second of leg. */
export class LegSplit {
  private readonly sides: string[];
  private readonly ns: Map<string, Map<string, number>>;

  constructor(
    private readonly windows: SideWindows,
    private readonly key: PerfKey,
  ) {
    this.sides = Object.keys(windows);
    this.ns = new Map(this.sides.map((s) => [s, new Map<string, number>()]));
  }

  add(sample: PerfSample): void {
    const side = this.sides.find((s) => (this.windows[s] ?? []).some((w) => sample.time >= w.from && sample.time < w.to));
    if (side === undefined) return;
    const sums = this.ns.get(side) as Map<string, number>;
    for (const k of ['all', keyOf(sample, this.key)]) sums.set(k, (sums.get(k) ?? 0) + sample.period);
  }

  profile(): LegProfile {
    const seconds: Record<string, number> = {};
    const msPerS: Record<string, Map<string, number>> = {};
    for (const side of this.sides) {
      const secs = (this.windows[side] ?? []).reduce((sum, w) => sum + (w.to - w.from), 0);
      seconds[side] = secs;
      msPerS[side] = new Map([...(this.ns.get(side) ?? [])].map(([k, v]) => [k, secs > 0 ? v / 1e6 / secs : 0]));
    }
    return { seconds, msPerS };
  }
}

/** {@link LegSplit} over a list of samples. */
export function splitByLegs(samples: Iterable<PerfSample>, windows: SideWindows, key: PerfKey): LegProfile {
  const split = new LegSplit(windows, key);
  for (const sample of samples) split.add(sample);
  return split.profile();
}

/**
 * The table BENCHMARKS.md quotes: `all` first, then the `top` keys whose difference between the
 * two sides is largest (first side minus second), in ms of CPU per second of leg.
 */
export function legProfileTable(profile: LegProfile, sides: [string, string], top: number): string {
  const [a, b] = sides;
  const of = (side: string, k: string) => profile.msPerS[side]?.get(k) ?? 0;
  const keys = new Set([...(profile.msPerS[a]?.keys() ?? []), ...(profile.msPerS[b]?.keys() ?? [])]);
  keys.delete('all');
  const ranked = [...keys].sort((x, y) => Math.abs(of(a, y) - of(b, y)) - Math.abs(of(a, x) - of(b, x))).slice(0, top);
  const row = (k: string) =>
    `| ${of(a, k).toFixed(2)} | ${of(b, k).toFixed(2)} | ${(of(a, k) - of(b, k)).toFixed(2)} | ${k.replaceAll('|', '\\|')} |`;
  return [`| ${a} ms/s | ${b} ms/s | difference | key |`, '| ---: | ---: | ---: | --- |', row('all'), ...ranked.map(row)].join('\n');
}
