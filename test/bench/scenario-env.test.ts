import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A bench switch is read when its scenario runs: a bad `BENCH_PHASE_MS` fails the scenarios that
 * stagger their streams with a clear error, and never the import of the scenario list (it used to
 * stop every `npm run bench`, B-LAT's too, before anything ran). The counts of B-LONG and B-PHONE
 * were read with `Number()` at import, so a typo became NaN in their goals and loops.
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

  it("the team scenarios' grid is even unless BENCH_SCALE_GRID / BENCH_COST_TEAM_GRID say off (0) or together (2); anything else is an error naming it", async () => {
    const { gridFromEnv } = await import('../../bench/lib/bench-prompt.js');
    const { TEAM } = await import('../../bench/scenarios/b-scale.js');
    const { COST_TEAM } = await import('../../bench/scenarios/b-cost-team.js');
    expect(gridFromEnv('BENCH_SCALE_GRID', TEAM.grid)).toBe(1);
    expect(gridFromEnv('BENCH_COST_TEAM_GRID', COST_TEAM.grid)).toBe(1);
    vi.stubEnv('BENCH_SCALE_GRID', '2');
    expect(gridFromEnv('BENCH_SCALE_GRID', TEAM.grid)).toBe(2);
    vi.stubEnv('BENCH_SCALE_GRID', '0');
    expect(gridFromEnv('BENCH_SCALE_GRID', TEAM.grid)).toBe(0);
    for (const bad of ['3', 'even', '-1']) {
      vi.stubEnv('BENCH_COST_TEAM_GRID', bad);
      expect(() => gridFromEnv('BENCH_COST_TEAM_GRID', COST_TEAM.grid), bad).toThrow(/^BENCH_COST_TEAM_GRID is /);
    }
  });

  it('a count that is not a whole number is an error naming its switch, read with the goal, never a NaN', async () => {
    vi.stubEnv('BENCH_LONG_TURNS', '1e3x');
    vi.stubEnv('BENCH_PHONE_TURNS', '2.5');
    vi.stubEnv('BENCH_PHONE_LINK', 'wifi');
    const { SCENARIOS } = await import('../../bench/scenarios/index.js');
    const byId = (id: string) => SCENARIOS.find((s) => s.id === id)!;
    expect(() => byId('B-LONG').goal).toThrow('BENCH_LONG_TURNS is a whole number ≥ 1 (got "1e3x")');
    expect(() => byId('B-PHONE').goal).toThrow('BENCH_PHONE_TURNS is a whole number ≥ 1 (got "2.5")');
    const { phoneLink } = await import('../../bench/scenarios/b-phone.js');
    expect(() => phoneLink()).toThrow('BENCH_PHONE_LINK is proxy or cdp (got "wifi")');

    vi.stubEnv('BENCH_LONG_TURNS', '500');
    vi.stubEnv('BENCH_LONG_SESSIONS', '');
    vi.stubEnv('BENCH_PHONE_TURNS', '1000');
    vi.stubEnv('BENCH_PHONE_LINK', 'cdp');
    expect(byId('B-LONG').goal).toMatch(/^100 sessions × 500 turns vs × 10:/);
    expect(byId('B-PHONE').goal).toMatch(/^a 1000-turn session/);
    expect(phoneLink()).toBe('cdp');
  });

  it('countFromEnv: the fallback when unset or empty, a floor of its own', async () => {
    const { countFromEnv } = await import('../../bench/lib/scenario.js');
    vi.stubEnv('BENCH_TEST_COUNT', '');
    expect(countFromEnv('BENCH_TEST_COUNT', 7)).toBe(7);
    vi.stubEnv('BENCH_TEST_COUNT', '0');
    expect(countFromEnv('BENCH_TEST_COUNT', 7, 0)).toBe(0);
    expect(() => countFromEnv('BENCH_TEST_COUNT', 7)).toThrow('BENCH_TEST_COUNT is a whole number ≥ 1 (got "0")');
    vi.stubEnv('BENCH_TEST_COUNT', '-3');
    expect(() => countFromEnv('BENCH_TEST_COUNT', 7, 0)).toThrow(/≥ 0/);
  });
});
