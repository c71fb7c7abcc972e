import { countFromEnv } from './scenario.js';

/**
 * The prompt that starts a bench stream in the simulator (src/simulator/scenarios/bench.ts): its
 * rate, frame size and duration, and for a team on the shared grid its session's slot.
 */
export function benchPrompt(s: { rate: number; bytes: number; ms: number; slotMs?: number | undefined }): string {
  const slot = s.slotMs === undefined ? '' : ` slot=${Number(s.slotMs.toFixed(3))}`;
  return `bench rate=${Math.round(s.rate)} bytes=${s.bytes} ms=${Math.round(s.ms)}${slot}`;
}

/** How a team's sessions are placed on the shared grid: off it, spread evenly over the period, or all in one slot. */
export const GRID = { off: 0, even: 1, together: 2 } as const;

/**
 * Session k's slot when a team streams on the shared grid, on the machine's monotonic clock — the
 * same arrangement wherever each session's prompt landed, for the hub and the bare baseline alike:
 * `grid` 1 (even) spreads the sessions over each period of `1000 / rate` ms, k × period / sessions
 * into it, so no two sessions' events meet; 2 (together) puts every session in slot 0, so all of
 * them tick at once. Undefined off the grid (`grid` 0: each session ticks from its own prompt).
 */
export function teamSlotMs(t: { grid: number; rate: number; sessions: number }, k: number): number | undefined {
  if (t.grid === GRID.even) return (k * 1000) / t.rate / t.sessions;
  return t.grid === GRID.together ? 0 : undefined;
}

/** A team scenario's grid switch (`BENCH_SCALE_GRID`, `BENCH_COST_TEAM_GRID`: 0 off, 1 even, 2 together), `fallback` when unset; read when the scenario runs. */
export function gridFromEnv(name: string, fallback: number): number {
  const grid = countFromEnv(name, fallback, 0);
  if (grid > GRID.together) throw new Error(`${name} is 0 (off the grid), 1 (even) or 2 (together)`);
  return grid;
}
