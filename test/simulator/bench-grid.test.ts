import { describe, expect, it } from 'vitest';
import { monotonicMs } from '../../src/simulator/monotonic-clock.js';
import { benchOverrides, gridTimes, sendOnGrid, type GridClock } from '../../src/simulator/scenarios/bench.js';
import { SimClient } from './sim-client.js';

describe('bench stream on the shared grid (slot=S)', () => {
  it('reads slot=S as ms, 0 included, and ignores anything else', () => {
    expect(benchOverrides('bench rate=20 slot=7.5').slotMs).toBe(7.5);
    expect(benchOverrides('bench slot=0').slotMs).toBe(0);
    expect(benchOverrides('bench slot=12.125 ms=400')).toEqual({ slotMs: 12.125, eventDurationMs: 400 });
    for (const bad of ['slot=-1', 'slot=x', 'slot=1.2345', 'slot=', 'myslot=3', 'slot=3ms'])
      expect(benchOverrides(`bench ${bad}`).slotMs, bad).toBeUndefined();
    expect(benchOverrides('bench rate=20').slotMs).toBeUndefined();
  });

  it('puts every instant at the slot of its period, the first at or after now', () => {
    const now = 1_000_003.25;
    const t = [...gridTimes(now, 20, 5, 4)];
    expect(t).toEqual([1_000_005, 1_000_055, 1_000_105, 1_000_155]);
    // A slot past the period wraps; now on an instant keeps it.
    expect([...gridTimes(1_000_000, 20, 55, 2)]).toEqual([1_000_005, 1_000_055]);
    expect([...gridTimes(1_000_005, 20, 5, 1)]).toEqual([1_000_005]);
    // Ten slots a tenth of the period apart never share an instant.
    const all = Array.from({ length: 10 }, (_, k) => [...gridTimes(now, 20, k * 5, 20)]).flat();
    expect(new Set(all).size).toBe(200);
    expect([...gridTimes(now, 20, 0, 0)]).toEqual([]);
  });

  it('sends each event at its instant, sleeping again when a timer fires early, and at once when late', async () => {
    let now = 3;
    const sent: number[] = [];
    const sleeps: number[] = [];
    // Timers fire 0.5 ms early once, then on time; the fourth sleep (the third event's) oversleeps by 70 ms, past the fourth event's instant.
    let early = 0.5;
    const clock: GridClock = {
      now: () => now,
      sleep: (ms) => {
        sleeps.push(ms);
        now += sleeps.length === 4 ? ms + 70 : Math.max(0, ms - early);
        early = 0;
        return Promise.resolve();
      },
    };
    await sendOnGrid(
      [...gridTimes(3, 20, 5, 5)],
      () => sent.push(now),
      clock,
      () => undefined,
    );
    expect(sent).toEqual([5, 55, 175, 175, 205]);
    expect(sleeps).toEqual([2, 0.5, 50, 50, 30]);
    let aborted = 0;
    const stop = () => {
      if (++aborted === 2) throw new Error('aborted');
    };
    await expect(sendOnGrid([1, 2, 3], () => undefined, clock, stop)).rejects.toThrow('aborted');
  });

  it("streams the prompt's count, never before an event's instant", async () => {
    const sim = await SimClient.start({ args: ['--event-rate', '50', '--event-bytes', '300', '--event-duration-ms', '600'] });
    const sessionId = await sim.openSession();
    const before = monotonicMs();
    await sim.prompt(sessionId, 'bench rate=40 bytes=150 ms=300 slot=12.5');
    const deltas = sim.events(sessionId, 'model.streaming').filter((e) => e.payload.kind === 'text_delta');
    expect(deltas).toHaveLength(12);
    // The stream's first instant is at or after the earliest one the prompt could have met.
    const earliest = [...gridTimes(before, 40, 12.5, 12)];
    deltas.forEach((d, n) => {
      expect(d.payload.delta.length).toBe(150);
      expect(d.payload.simSentAt).toBeGreaterThanOrEqual(earliest[n]!);
    });
    await sim.close();
  });
});
