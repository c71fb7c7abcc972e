import { describe, expect, it } from 'vitest';
import { teamOf } from '../../bench/lib/hub-team.js';
import { type LegCpu, sameFrames } from '../../bench/scenarios/b-cost-team.js';
import { benchPrompt, teamSlotMs } from '../../bench/lib/bench-prompt.js';
import { baselineGroup, baselinePrompter } from '../../bench/lib/team-baseline.js';

/**
 * B-SCALE and B-COST-TEAM compare a hub's team with the bare baseline's on one load process. Which
 * connections form a session's audience is part of what a delivery costs (an audience opened one after
 * another sits together in memory, one opened every tenth connection does not), so both teams are
 * dealt the same way: slot j of a team to session j mod sessions. A hub's session is also sent every
 * update by its prompter, connected before the team; the baseline has a stand-in for each, so both
 * sides write the same frames to as many sockets.
 */
describe('team layout', () => {
  const shape = { sessions: 10, perSession: 100, rate: 20, bytes: 300, streamMs: 12_000, warmupMs: 2_000, phaseMs: 0, grid: 1 };

  it("the baseline's sessions hold the same slots as a hub's: a prompter's stand-in, then the team", () => {
    for (const first of [0, 1_010]) {
      for (let k = 0; k < shape.sessions; k++) {
        expect(baselineGroup(shape, k, first)).toEqual(teamOf(shape, k, undefined, first));
        expect(baselinePrompter(k, first)).toBe(first + k);
      }
    }
  });

  it('every slot belongs to exactly one session: the prompters in session order, the team dealt round-robin', () => {
    const first = 1_010;
    const prompters = Array.from({ length: shape.sessions }, (_, k) => baselinePrompter(k, first));
    const team = Array.from({ length: shape.sessions }, (_, k) => baselineGroup(shape, k, first)).flat();
    const all = [...prompters, ...team];
    expect(new Set(all).size).toBe(shape.sessions * (shape.perSession + 1));
    expect(Math.min(...all)).toBe(first);
    expect(Math.max(...all)).toBe(first + shape.sessions * (shape.perSession + 1) - 1);
    // As the load client connects them: the op's i-th socket to session i mod sessions.
    expect(baselineGroup(shape, 3, first).slice(0, 3)).toEqual([first + 13, first + 23, first + 33]);
  });

  it('a run whose sides were not sent the same frames per leg is refused', () => {
    const leg = (frames: number): LegCpu => ({ user: 1, system: 1, total: 2, load: 3, window: { from: 0, to: 1 }, frames });
    expect(() => sameFrames({ perSession: 100, hub: [leg(242_400), leg(242_400)], baseline: [leg(242_400), leg(242_400)] })).not.toThrow();
    // The baseline one client short in each of 10 sessions: 2,400 frames fewer a leg.
    expect(() => sameFrames({ perSession: 100, hub: [leg(242_400), leg(242_400)], baseline: [leg(240_000), leg(240_000)] })).toThrow(
      /100 per session: the sides' clients were not sent the same frames \(hub 242400 242400, baseline 240000 240000 per leg\)/,
    );
  });

  it('on the shared grid the sessions take slots spread evenly over the period, the same on both sides', () => {
    const slots = Array.from({ length: shape.sessions }, (_, k) => teamSlotMs(shape, k));
    expect(slots).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45]);
    expect(benchPrompt({ rate: 20, bytes: 300, ms: 12_000, slotMs: slots[3] })).toBe('bench rate=20 bytes=300 ms=12000 slot=15');
    expect(benchPrompt({ rate: 7, bytes: 300, ms: 1_000, slotMs: teamSlotMs({ grid: 1, rate: 7, sessions: 3 }, 1) })).toBe(
      'bench rate=7 bytes=300 ms=1000 slot=47.619',
    );
    // Together: every session in slot 0. Off the grid, no slot: each session ticks from its own prompt.
    expect(Array.from({ length: 3 }, (_, k) => teamSlotMs({ ...shape, grid: 2 }, k))).toEqual([0, 0, 0]);
    expect(teamSlotMs({ ...shape, grid: 0 }, 3)).toBeUndefined();
    expect(benchPrompt({ rate: 20, bytes: 300, ms: 12_000, slotMs: undefined })).toBe('bench rate=20 bytes=300 ms=12000');
  });
});
