import { describe, expect, it } from 'vitest';
import { LineRing, LineSplitter } from '../../src/backend/stderr-ring.js';
import { LogBudget } from '../../src/backend/rate-limit.js';

describe('stderr handling', () => {
  it('splits lines across chunks, drops blank ones, strips CR', () => {
    const out: string[] = [];
    const s = new LineSplitter(100, 1000);
    s.push('one\r\ntw', (l) => out.push(l));
    s.push('o\n\n  \nthree', (l) => out.push(l));
    s.end((l) => out.push(l));
    expect(out).toEqual(['one', 'two', 'three']);
  });

  it('cuts long lines and flushes an unterminated tail past its bound', () => {
    const out: string[] = [];
    const s = new LineSplitter(10, 50);
    s.push(`${'a'.repeat(25)}\n`, (l) => out.push(l));
    expect(out[0]).toBe(`${'a'.repeat(10)}… [15 chars cut]`);
    s.push('b'.repeat(60), (l) => out.push(l));
    expect(out).toHaveLength(2);
  });

  it('the ring keeps the last N lines, oldest first', () => {
    const r = new LineRing(3);
    for (const l of ['1', '2', '3', '4', '5']) r.push(l);
    expect(r.toArray()).toEqual(['3', '4', '5']);
    r.clear();
    expect(r.toArray()).toEqual([]);
    const empty = new LineRing(0);
    empty.push('x');
    expect(empty.toArray()).toEqual([]);
  });

  it('the log budget allows N per second and reports the rest once', () => {
    let now = 0;
    const reported: number[] = [];
    const b = new LogBudget(
      2,
      (n) => reported.push(n),
      () => now,
    );
    expect([b.allow(), b.allow(), b.allow(), b.allow()]).toEqual([true, true, false, false]);
    now = 1000;
    expect(b.allow()).toBe(true);
    expect(reported).toEqual([2]);
    b.flush();
    expect(reported).toEqual([2]);
  });
});
