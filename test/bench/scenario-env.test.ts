import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A bench switch is read when its scenario runs: a bad `BENCH_PHASE_MS` fails the scenarios that
 * stagger their streams with a clear error, and never the import of the scenario list (it used to
 * stop every `npm run bench`, B-LAT's too, before anything ran).
 */
describe('bench switches', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('a bad BENCH_PHASE_MS leaves the scenario list importable and fails where it is read', async () => {
    vi.stubEnv('BENCH_PHASE_MS', 'soon');
    const { SCENARIOS } = await import('../../bench/scenarios/index.js');
    expect(SCENARIOS.map((s) => s.id)).toContain('B-SCALE');
    const { phaseMsFromEnv } = await import('../../bench/lib/scenario.js');
    expect(() => phaseMsFromEnv()).toThrow(/BENCH_PHASE_MS is a number of ms/);
    const { TEAM } = await import('../../bench/scenarios/b-scale.js');
    expect(TEAM.phaseMs).toBe(0);
  });
});
