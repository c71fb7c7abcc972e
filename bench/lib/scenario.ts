import os from 'node:os';

/** One run's figures: `value` is the figure compared with the goal; `extra` is context for BENCHMARKS.md. */
export interface RunResult {
  value: number;
  /** Bare baseline figure measured in the same run (B-FAN, B-START). */
  baseline?: number;
  extra?: Record<string, unknown>;
}

/** A benchmark scenario (bench/scenarios/*.ts). `proves` is grepped by test/meta/requirements.test.ts. */
export interface Scenario {
  id: string;
  proves: readonly string[];
  goal: string;
  unit: string;
  /** Runs in one invocation (medians are taken over them). */
  runs: number;
  /** `value` → pass/fail against the goal (ratio for comparisons, else the median value). */
  passes(summary: Summary): boolean;
  run(index: number, log: (line: string) => void): Promise<RunResult>;
}

/** What a scenario's runs add up to. */
export interface Summary {
  value: number;
  ratio?: number;
  baseline?: number;
  values: number[];
  baselines: number[];
  /** Each run's hub / baseline (runs that had a baseline). */
  ratios: number[];
  /** Each run's `extra`. */
  details: Array<Record<string, unknown>>;
}

/** Median of a non-empty list (mean of the two middle values for even lengths). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Cores, memory and Node version, recorded with every result. */
export function machineInfo(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpu: cpus[0]?.model ?? 'unknown',
    memoryMiB: Math.round(os.totalmem() / 1024 / 1024),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadavg: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

/** Milliseconds with three decimals / bytes → MiB, for tables. */
export const round = (n: number, digits = 2): number => Number(n.toFixed(digits));

/** A micro-harness's positive integer option (as `parseArgs` gives it), or an error naming it. */
export function positiveInt(value: string | boolean | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
}

/**
 * `BENCH_PHASE_MS` (B-SCALE, B-COST-TEAM): session k of a team starts streaming k × this many ms after
 * session 0, on the hub and the baseline alike; 0 (all at once) when unset.
 */
export function phaseMsFromEnv(): number {
  const text = process.env.BENCH_PHASE_MS;
  if (!text) return 0;
  const ms = Number(text);
  if (!Number.isFinite(ms) || ms < 0) throw new Error('BENCH_PHASE_MS is a number of ms ≥ 0');
  return ms;
}

/**
 * A bench switch that counts something (`BENCH_LONG_TURNS`, `BENCH_PHONE_TURNS` …): `fallback` when
 * unset or empty, else a whole number ≥ `min`, or an error naming the switch (never a silent NaN).
 * Read when the scenario runs or states its goal, not at import, like {@link phaseMsFromEnv}.
 */
export function countFromEnv(name: string, fallback: number, min = 1): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} is a whole number ≥ ${min} (got ${JSON.stringify(text)})`);
  return n;
}

/**
 * A bench switch that is on or off (`BENCH_PHONE_SW`, `BENCH_COST_TEAM_HOSTED` …): off when unset, empty or
 * `0`, on when `1`, else an error naming the switch and what `on` means. Read when the scenario runs.
 */
export function switchFromEnv(name: string, meaning: string): boolean {
  const text = process.env[name];
  if (text === undefined || text === '' || text === '0') return false;
  if (text === '1') return true;
  throw new Error(`${name} is 1 (${meaning}) or 0 (got ${JSON.stringify(text)})`);
}

/** Lowest and highest of a list (the spread a median leaves out); undefined when empty. */
export function spread(values: readonly number[]): [number, number] | undefined {
  return values.length === 0 ? undefined : [Math.min(...values), Math.max(...values)];
}
