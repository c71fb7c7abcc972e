import { describe, expect, it } from 'vitest';
import { bCostTeam, notTheGoal } from '../../bench/scenarios/b-cost-team.js';
import type { Summary } from '../../bench/lib/scenario.js';

/**
 * B-COST-TEAM's goal is the hub against the bare baseline, each streaming alone in its own process. The
 * other ways the scenario can run (both sides at once, a hub against a hub, the hub hosted in the baseline's
 * process) report their ratio but never pass it: beside the hub the baseline costs more than alone, so a
 * together run reads low (BENCHMARKS.md, thirty-second session).
 */
describe('B-COST-TEAM: which runs read the goal', () => {
  const plain = { together: 0, hosted: 0 };
  const summary = (ratio: number, details: Array<Record<string, unknown>>): Summary => ({
    value: 19,
    ratio,
    baseline: 17,
    values: [19],
    baselines: [17],
    ratios: [ratio],
    details,
  });

  it('names every mode that is not the goal, and none for alternating legs against the bare baseline', () => {
    expect(notTheGoal(plain, undefined)).toBeUndefined();
    expect(notTheGoal({ ...plain, together: 1 }, undefined)).toMatch(/both sides at once/);
    expect(notTheGoal({ ...plain, hosted: 1 }, undefined)).toMatch(/inside the baseline's process/);
    expect(notTheGoal(plain, '/some/checkout')).toMatch(/a hub against another hub/);
    expect(notTheGoal({ ...plain, together: 1 }, '/some/checkout')).toMatch(/a hub against another hub/);
  });

  it('passes at or under 1.1 in alternating legs, and not over it', () => {
    expect(bCostTeam.passes(summary(1.1, [{}]))).toBe(true);
    expect(bCostTeam.passes(summary(1.101, [{}]))).toBe(false);
  });

  it('never passes a run that was not a reading of the goal, whatever its ratio', () => {
    expect(bCostTeam.passes(summary(1.02, [{ notTheGoal: 'both sides at once' }]))).toBe(false);
    expect(bCostTeam.passes(summary(1.02, [{}, { notTheGoal: 'a hub against another hub' }]))).toBe(false);
  });
});
