/**
 * The heartbeat spread over its interval (issue 16): every connection is beaten once per
 * interval, a tick beats only its slot, slots stay even as connections come and go, and a
 * connection that leaves (or is terminated by its own beat) is beaten no more.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeartbeatWheel } from '../../src/gateway/heartbeat-wheel.js';

class Conn {
  beats = 0;
  constructor(private readonly onBeat?: (c: Conn) => void) {}
  heartbeat(): void {
    this.beats += 1;
    this.onBeat?.(this);
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('HeartbeatWheel', () => {
  it('beats each of 1,000 connections once per interval, a thirtieth of them per tick', () => {
    vi.useFakeTimers();
    const wheel = new HeartbeatWheel<Conn>(30_000);
    expect(wheel.slotCount).toBe(30);
    const conns = Array.from({ length: 1_000 }, () => new Conn());
    for (const c of conns) wheel.add(c);
    wheel.start();
    const perTick: number[] = [];
    for (let t = 0; t < 30; t++) {
      const before = conns.reduce((n, c) => n + c.beats, 0);
      vi.advanceTimersByTime(1_000);
      perTick.push(conns.reduce((n, c) => n + c.beats, 0) - before);
    }
    expect(conns.every((c) => c.beats === 1)).toBe(true);
    expect(Math.max(...perTick)).toBeLessThanOrEqual(34);
    vi.advanceTimersByTime(30_000);
    expect(conns.every((c) => c.beats === 2)).toBe(true);
    wheel.stop();
    vi.advanceTimersByTime(60_000);
    expect(conns.every((c) => c.beats === 2)).toBe(true);
  });

  it('an interval shorter than a tick is one slot: every connection on every tick', () => {
    vi.useFakeTimers();
    const wheel = new HeartbeatWheel<Conn>(300);
    expect(wheel.slotCount).toBe(1);
    const a = new Conn();
    const b = new Conn();
    wheel.add(a);
    wheel.add(b);
    wheel.start();
    vi.advanceTimersByTime(300);
    expect([a.beats, b.beats]).toEqual([1, 1]);
    wheel.stop();
  });

  it('a removed connection is not beaten, and newcomers fill the emptied slot first', () => {
    const wheel = new HeartbeatWheel<Conn>(4_000);
    const conns = Array.from({ length: 8 }, () => new Conn());
    for (const c of conns) wheel.add(c);
    // Slot 0 holds the first and fifth; both leave.
    wheel.remove(conns[0] as Conn);
    wheel.remove(conns[4] as Conn);
    const late = [new Conn(), new Conn()];
    for (const c of late) wheel.add(c);
    wheel.tick();
    expect(late.map((c) => c.beats)).toEqual([1, 1]);
    expect(conns[0]?.beats).toBe(0);
    expect(conns[4]?.beats).toBe(0);
    // Adding twice does not beat twice.
    wheel.add(late[0] as Conn);
    for (let i = 0; i < 4; i++) wheel.tick();
    expect(late.map((c) => c.beats)).toEqual([2, 2]);
    expect(conns.filter((c) => c.beats === 1)).toHaveLength(6);
  });

  it('a beat that removes its own connection (a missed pong) leaves the rest of the slot beaten', () => {
    const wheel = new HeartbeatWheel<Conn>(1_000);
    const survivors: Conn[] = [];
    for (let i = 0; i < 5; i++) {
      const c = new Conn(i % 2 === 0 ? (self) => wheel.remove(self) : undefined);
      wheel.add(c);
      if (i % 2 === 1) survivors.push(c);
    }
    wheel.tick();
    wheel.tick();
    expect(survivors.map((c) => c.beats)).toEqual([2, 2]);
  });
});
