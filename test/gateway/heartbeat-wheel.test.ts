/**
 * The heartbeat wheel (src/gateway/heartbeat-wheel.ts): every connection pinged once an interval,
 * a slice of them per tick instead of all at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeartbeatWheel, sliceCount } from '../../src/gateway/heartbeat-wheel.js';

/** A connection that counts its pings; `onBeat` runs inside a ping (a terminate, say). */
class Member {
  beats = 0;
  onBeat: (() => void) | undefined;
  heartbeat(): void {
    this.beats += 1;
    this.onBeat?.();
  }
}

const members = (n: number) => Array.from({ length: n }, () => new Member());

afterEach(() => {
  vi.useRealTimers();
});

describe('heartbeat wheel', () => {
  it('cuts an interval into ticks of at least 100 ms, thirty at most', () => {
    expect(sliceCount(30_000)).toBe(30);
    expect(sliceCount(600_000)).toBe(30);
    expect(sliceCount(300)).toBe(3);
    expect(sliceCount(150)).toBe(1);
    expect(sliceCount(10)).toBe(1);
  });

  it('pings every connection once a revolution, a thirtieth of a thousand a tick', () => {
    const wheel = new HeartbeatWheel<Member>(30_000);
    const team = members(1_000);
    for (const m of team) wheel.add(m);
    const perTick: number[] = [];
    for (let t = 0; t < 30; t++) {
      const before = team.reduce((n, m) => n + m.beats, 0);
      wheel.tick();
      perTick.push(team.reduce((n, m) => n + m.beats, 0) - before);
    }
    expect(team.every((m) => m.beats === 1)).toBe(true);
    expect(Math.max(...perTick)).toBe(34);
    expect(Math.min(...perTick)).toBe(33);
    // The next revolution pings each once more.
    for (let t = 0; t < 30; t++) wheel.tick();
    expect(team.every((m) => m.beats === 2)).toBe(true);
  });

  it('a connection that leaves, even inside its own ping, is pinged no more; the others of its slice still are', () => {
    const wheel = new HeartbeatWheel<Member>(300);
    const team = members(6);
    for (const m of team) wheel.add(m);
    // Each slice holds two; the first of slice 0 terminates when pinged and leaves the wheel.
    team[0]!.onBeat = () => wheel.remove(team[0]!);
    wheel.remove(team[1]!);
    for (let t = 0; t < 6; t++) wheel.tick();
    expect(team.map((m) => m.beats)).toEqual([1, 0, 2, 2, 2, 2]);
    expect(wheel.size).toBe(4);
  });

  it('a reconnect storm lands evenly: newcomers fill the emptiest slices', () => {
    const wheel = new HeartbeatWheel<Member>(3_000);
    const first = members(300);
    for (const m of first) wheel.add(m);
    // The first third of the team leaves (dealt round the slices in turn: slices 0–9 lose four, the rest three) …
    for (const m of first.slice(0, 100)) wheel.remove(m);
    // … and comes back, with 30 more.
    const back = members(130);
    for (const m of back) wheel.add(m);
    const perTick: number[] = [];
    const all = [...first.slice(100), ...back];
    for (let t = 0; t < 30; t++) {
      const before = all.reduce((n, m) => n + m.beats, 0);
      wheel.tick();
      perTick.push(all.reduce((n, m) => n + m.beats, 0) - before);
    }
    expect(Math.max(...perTick) - Math.min(...perTick)).toBeLessThanOrEqual(1);
    expect(all.every((m) => m.beats === 1)).toBe(true);
  });

  it('ticks on its own once started, a slice every interval / slices, and stops', () => {
    vi.useFakeTimers();
    const wheel = new HeartbeatWheel<Member>(3_000);
    const team = members(60);
    for (const m of team) wheel.add(m);
    wheel.start();
    wheel.start();
    vi.advanceTimersByTime(100);
    expect(team.filter((m) => m.beats === 1)).toHaveLength(2);
    vi.advanceTimersByTime(2_900);
    expect(team.every((m) => m.beats === 1)).toBe(true);
    wheel.stop();
    vi.advanceTimersByTime(10_000);
    expect(team.every((m) => m.beats === 1)).toBe(true);
  });
});
