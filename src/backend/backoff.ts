/** Jitter applied to every restart delay: ±20 % (ARCHITECTURE.md §8). */
export const BACKOFF_JITTER = 0.2;

/**
 * Delay before respawn number `attempt` (0-based): `base × 2^attempt`, capped at `max`, then
 * jittered by ±20 % with `random()` ∈ [0, 1) and clamped to `max` again so the cap holds.
 * Pure, so the schedule 0.5, 1, 2, 4 … 30 s is unit-tested (requirement CHD-02).
 */
export function restartDelayMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(Math.max(0, Math.floor(attempt)), 52);
  const raw = Math.min(baseMs * 2 ** exp, maxMs);
  const jitter = 1 + (random() * 2 - 1) * BACKOFF_JITTER;
  return Math.max(0, Math.min(Math.round(raw * jitter), maxMs));
}

/**
 * Crash timestamps inside a sliding window. `failed` is reached when `limit` crashes fall
 * within `windowMs` (no hot loop); the backoff attempt is the number of recent crashes − 1, so
 * the delay grows during a burst and resets once the window has passed quietly.
 */
export class CrashWindow {
  private crashes: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records a crash at `now`; returns the crashes inside the window, this one included. */
  record(now: number): number {
    this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
    this.crashes.push(now);
    return this.crashes.length;
  }

  /** True when the recent crashes reach the limit. */
  exhausted(now: number): boolean {
    return this.crashes.filter((t) => now - t < this.windowMs).length >= this.limit;
  }

  /** The backoff attempt for the next respawn (0 after the first crash of a burst). */
  attempt(now: number): number {
    return Math.max(0, this.crashes.filter((t) => now - t < this.windowMs).length - 1);
  }

  reset(): void {
    this.crashes = [];
  }
}
