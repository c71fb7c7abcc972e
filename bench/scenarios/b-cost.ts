import { baselineSide, hubSide, type Side, type StepResult } from '../lib/ceiling.js';
import { median, round, type Scenario } from '../lib/scenario.js';

/**
 * B-COST: the server CPU each side spends per delivered update at the same offered rate, the hub
 * against the fair bare baseline (bench/baseline-server.ts). The two sides take turns, step by
 * step (the first of each pair alternates), so both see the same minutes of a shared machine; the
 * figure is process CPU (user + system, /proc), not wall time, and each side's median over its
 * steps is compared. Every step must stay complete (FAN-01: every client has every seq once).
 */
export const COST = {
  clients: 100,
  bytes: 300,
  /** The rate B-CEIL's sides both sustain on this machine (well below either ceiling). */
  rate: 1_780,
  stepMs: 4_000,
  warmupMs: 1_000,
  /** Steps per side, alternating. */
  steps: 5,
} as const;

export type CostSetup = { -readonly [K in keyof typeof COST]: number };

/** Runs `steps` alternating steps on each side at one rate; throws if a step was not complete. */
export async function measureCost(setup: CostSetup, log: (line: string) => void): Promise<Record<'hub' | 'baseline', StepResult[]>> {
  const sides: Side[] = [];
  const steps: Record<'hub' | 'baseline', StepResult[]> = { hub: [], baseline: [] };
  try {
    sides.push(await hubSide(setup.clients, setup.bytes));
    sides.push(await baselineSide(setup.clients));
    for (let k = 0; k < setup.steps; k++) {
      for (const side of k % 2 === 0 ? sides : [...sides].reverse()) {
        const r = await side.step(
          { rate: setup.rate, bytes: setup.bytes, stepMs: setup.stepMs, warmupMs: setup.warmupMs },
          Number.POSITIVE_INFINITY,
        );
        if (!r.complete) throw new Error(`${side.name} step ${k + 1} was not complete (FAN-01): ${r.problems.join('; ')}`);
        steps[side.name].push(r);
        log(`${side.name} ${setup.rate} ev/s: server ${r.serverNsPerUpdate} ns/update (${r.cpuMs.server} ms CPU), p99 ${r.p99} ms`);
      }
    }
  } finally {
    for (const s of sides) await s.close();
  }
  return steps;
}

const nsOf = (list: StepResult[]) => list.map((s) => s.serverNsPerUpdate);

/** B-COST: passes when the hub's median server CPU per delivered update is ≤ 1.1× the baseline's. */
export const bCost: Scenario = {
  id: 'B-COST',
  proves: [],
  goal: `server CPU per delivered update at ${COST.rate} events/s × ${COST.clients} clients, hub ≤ 1.1× the fair bare baseline (process CPU, alternating steps)`,
  unit: 'ns/update',
  runs: 1,
  passes: (s) => (s.ratio ?? Number.POSITIVE_INFINITY) <= 1.1,
  async run(_i, log) {
    const steps = await measureCost({ ...COST }, log);
    const hub = median(nsOf(steps.hub));
    const baseline = median(nsOf(steps.baseline));
    return {
      value: hub,
      baseline,
      extra: {
        rate: COST.rate,
        clients: COST.clients,
        ratio: round(hub / baseline, 3),
        hubNsPerUpdate: nsOf(steps.hub),
        baselineNsPerUpdate: nsOf(steps.baseline),
        // Per pair (the same minutes): the spread the noise leaves.
        pairRatios: steps.hub.map((h, k) => round(h.serverNsPerUpdate / (steps.baseline[k]?.serverNsPerUpdate ?? Number.NaN), 3)),
        p99: { hub: steps.hub.map((s) => s.p99), baseline: steps.baseline.map((s) => s.p99) },
        loadCpuMs: { hub: steps.hub.map((s) => s.cpuMs.load), baseline: steps.baseline.map((s) => s.cpuMs.load) },
      },
    };
  },
};
