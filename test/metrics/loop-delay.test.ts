import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { delayBeyondIntervalSeconds } from '../../src/metrics/hub-metrics.js';

describe('event-loop delay gauge', () => {
  it('reports the delay beyond the sampling interval, which Node records as part of every sample', async () => {
    // What Node records: an idle loop sampled every 50 ms reads about 50 ms per sample (a timer
    // may fire a hair early, so a sample can read 49.6), never the few µs of real delay.
    const h = monitorEventLoopDelay({ resolution: 50 });
    h.enable();
    await new Promise((r) => setTimeout(r, 300));
    h.disable();
    expect(h.percentile(50) / 1e6).toBeGreaterThanOrEqual(45);
    // The gauge takes the interval off: a sample of exactly the interval is no delay at all.
    expect(delayBeyondIntervalSeconds(h.min, 50)).toBeLessThan(h.min / 1e9);
    expect(delayBeyondIntervalSeconds(100e6, 100)).toBe(0);
    expect(delayBeyondIntervalSeconds(100.2e6, 100)).toBeCloseTo(0.0002, 6);
    expect(delayBeyondIntervalSeconds(350e6, 100)).toBeCloseTo(0.25, 6);
    // Never negative (a timer can fire a hair early).
    expect(delayBeyondIntervalSeconds(99e6, 100)).toBe(0);
  });
});
