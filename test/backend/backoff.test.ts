import { describe, expect, it } from 'vitest';
import { CrashWindow, restartDelayMs } from '../../src/backend/backoff.js';

describe('restart backoff [CHD-02]', () => {
  const mid = () => 0.5; // no jitter
  it('doubles from the base: 0.5, 1, 2, 4, 8, 16 s then caps at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 60].map((n) => restartDelayMs(n, 500, 30_000, mid))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('jitters by ±20 % and never exceeds the cap', () => {
    expect(restartDelayMs(2, 500, 30_000, () => 0)).toBe(1600);
    expect(restartDelayMs(2, 500, 30_000, () => 0.999999)).toBe(2400);
    expect(restartDelayMs(10, 500, 30_000, () => 0.999999)).toBe(30_000);
    expect(restartDelayMs(10, 500, 30_000, () => 0)).toBe(24_000);
    for (let i = 0; i < 200; i++) {
      const d = restartDelayMs(1, 500, 30_000);
      expect(d).toBeGreaterThanOrEqual(800);
      expect(d).toBeLessThanOrEqual(1200);
    }
  });

  it('counts crashes in a sliding window: failed after 5 in 60 s, attempt grows within a burst and resets after', () => {
    const w = new CrashWindow(5, 60_000);
    expect(w.record(0)).toBe(1);
    expect(w.attempt(0)).toBe(0);
    w.record(1_000);
    w.record(2_000);
    expect(w.attempt(2_000)).toBe(2);
    w.record(3_000);
    expect(w.exhausted(3_000)).toBe(false);
    expect(w.record(4_000)).toBe(5);
    expect(w.exhausted(4_000)).toBe(true);
    // quiet for a window: back to the first step
    expect(w.record(100_000)).toBe(1);
    expect(w.attempt(100_000)).toBe(0);
    w.reset();
    expect(w.exhausted(100_000)).toBe(false);
  });
});
