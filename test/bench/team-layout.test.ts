import { describe, expect, it } from 'vitest';
import { teamOf } from '../../bench/lib/hub-team.js';
import { baselineGroup } from '../../bench/lib/team-baseline.js';

/**
 * B-SCALE and B-COST-TEAM compare a hub's team with the bare baseline's on one load process. Which
 * connections form a session's audience is part of what a delivery costs (an audience opened one after
 * another sits together in memory, one opened every tenth connection does not), so both teams are
 * dealt the same way: slot j of a team to session j mod sessions.
 */
describe('team layout', () => {
  const shape = { sessions: 10, perSession: 100, rate: 20, bytes: 300, streamMs: 12_000, warmupMs: 2_000, phaseMs: 0 };

  it("the baseline's sessions hold the same slots as a hub's, after the hub's prompters", () => {
    for (let k = 0; k < shape.sessions; k++) expect(baselineGroup(shape, k, shape.sessions)).toEqual(teamOf(shape, k));
  });

  it('every slot of the team belongs to exactly one session, dealt round-robin', () => {
    const first = 1_010;
    const all = Array.from({ length: shape.sessions }, (_, k) => baselineGroup(shape, k, first)).flat();
    expect(new Set(all).size).toBe(shape.sessions * shape.perSession);
    expect(Math.min(...all)).toBe(first);
    expect(Math.max(...all)).toBe(first + shape.sessions * shape.perSession - 1);
    expect(baselineGroup(shape, 3, first).slice(0, 3)).toEqual([first + 3, first + 13, first + 23]);
  });
});
