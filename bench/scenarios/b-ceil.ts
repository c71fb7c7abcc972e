import { baselineSide, hubSide, type Side, type StepPlan, type StepResult } from '../lib/ceiling.js';
import { round, type Scenario } from '../lib/scenario.js';

/**
 * B-CEIL (the test plan's B-FAN, which it proves): the highest offered rate each side sustains with p99 ≤ 50 ms and
 * every client seeing every seq once (FAN-01), the hub against the fair bare baseline
 * (bench/baseline-server.ts: same simulator child and pipe, same frames, same one-write-per-client-
 * per-turn batching, same clients). The rate steps up geometrically; at each step the two sides
 * run one after the other (the first of the pair alternates), so both see the same minutes of
 * this shared machine. A side stops after two failed steps in a row; its ceiling is the highest
 * step it sustained before that.
 */
export const CEIL = {
  clients: 100,
  bytes: 300,
  stepMs: 4_000,
  warmupMs: 1_000,
  p99LimitMs: 50,
  /** Low enough that a busy shared machine still finds a ceiling (every step costs ~10 s, both sides). */
  firstRate: 50,
  factor: 1.25,
  maxRate: 40_000,
  /** Failed steps in a row that end a side's ladder. */
  failuresToStop: 2,
} as const;

export type CeilingSetup = { -readonly [K in keyof typeof CEIL]: number };

/** Rates of the ladder: firstRate × factor^k, rounded to 10 events/s, up to maxRate. */
export function ladder(setup: CeilingSetup): number[] {
  const rates: number[] = [];
  for (let r = setup.firstRate; r <= setup.maxRate; r *= setup.factor) rates.push(Math.round(r / 10) * 10);
  return rates;
}

/** The highest sustained rate before the side's ladder stopped (0 if none). */
function ceilingOf(steps: StepResult[]): StepResult | undefined {
  let best: StepResult | undefined;
  for (const s of steps) if (s.sustained) best = s;
  return best;
}

/** Runs the ladder on both sides; answers each side's steps. */
export async function climb(setup: CeilingSetup, log: (line: string) => void): Promise<Record<'hub' | 'baseline', StepResult[]>> {
  const sides: Side[] = [];
  const steps: Record<'hub' | 'baseline', StepResult[]> = { hub: [], baseline: [] };
  const failures = { hub: 0, baseline: 0 };
  try {
    sides.push(await hubSide(setup.clients, setup.bytes));
    sides.push(await baselineSide(setup.clients));
    let k = 0;
    for (const rate of ladder(setup)) {
      const active = sides.filter((s) => failures[s.name] < setup.failuresToStop);
      if (active.length === 0) break;
      const order = k++ % 2 === 0 ? active : [...active].reverse();
      for (const side of order) {
        const plan: StepPlan = { rate, bytes: setup.bytes, stepMs: setup.stepMs, warmupMs: setup.warmupMs };
        const r = await side.step(plan, setup.p99LimitMs);
        steps[side.name].push(r);
        failures[side.name] = r.sustained ? 0 : failures[side.name] + 1;
        // Clients that were closed or saw a gap make every later step of this side meaningless.
        if (!r.complete) failures[side.name] = setup.failuresToStop;
        log(
          `${side.name} ${rate} ev/s: p50 ${r.p50} p99 ${r.p99} ms, ${r.complete ? 'complete' : 'INCOMPLETE'}, server ${r.serverNsPerUpdate} ns/update${r.sustained ? '' : ' — not sustained'}`,
        );
      }
    }
  } finally {
    for (const s of sides) await s.close();
  }
  return steps;
}

/** Figures of one run for bench/results/B-CEIL.json. */
export function ceilingFigures(steps: Record<'hub' | 'baseline', StepResult[]>): {
  hub: number;
  baseline: number;
  extra: Record<string, unknown>;
} {
  const hub = ceilingOf(steps.hub);
  const bare = ceilingOf(steps.baseline);
  // CPU per update compared at the highest rate both sustained (same offered load on both sides).
  const common = Math.min(hub?.rate ?? 0, bare?.rate ?? 0);
  const at = (list: StepResult[]) => list.find((s) => s.rate === common);
  return {
    hub: hub?.rate ?? 0,
    baseline: bare?.rate ?? 0,
    extra: {
      clients: CEIL.clients,
      hubCeilingUpdatesPerSec: hub?.deliveredPerSec ?? 0,
      baselineCeilingUpdatesPerSec: bare?.deliveredPerSec ?? 0,
      hubAtCeiling: hub,
      baselineAtCeiling: bare,
      commonRate: common,
      serverNsPerUpdateAtCommonRate: { hub: at(steps.hub)?.serverNsPerUpdate, baseline: at(steps.baseline)?.serverNsPerUpdate },
      steps: { hub: steps.hub.map(brief), baseline: steps.baseline.map(brief) },
    },
  };
}

function brief(s: StepResult): Record<string, unknown> {
  return {
    rate: s.rate,
    p50: s.p50,
    p99: s.p99,
    complete: s.complete,
    sustained: s.sustained,
    serverNsPerUpdate: s.serverNsPerUpdate,
    cpuMs: s.cpuMs,
    ...(s.problems.length > 0 ? { problems: s.problems } : {}),
  };
}

/** B-CEIL: the ceiling by latency, hub vs fair baseline; passes when the hub sustains ≥ 0.9× the baseline's rate. */
export const bCeil: Scenario = {
  id: 'B-CEIL',
  proves: ['B-FAN'],
  goal: `highest rate sustained with p99 ≤ ${CEIL.p99LimitMs} ms and no gaps, ${CEIL.clients} clients: hub ≥ 0.9× the fair bare baseline`,
  unit: 'events/s',
  // The ceiling moves a ×1.25 step between identical runs on a shared machine: the figure is the
  // median of three, recorded with its spread (bench/run.ts).
  runs: 3,
  passes: (s) => (s.ratio ?? 0) >= 0.9,
  async run(_i, log) {
    const f = ceilingFigures(await climb({ ...CEIL }, log));
    return { value: f.hub, baseline: f.baseline, extra: { ...f.extra, ratio: f.baseline > 0 ? round(f.hub / f.baseline, 3) : 0 } };
  },
};
