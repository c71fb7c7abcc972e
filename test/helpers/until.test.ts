import { describe, expect, it } from 'vitest';
import { until } from './until.js';

/** until()'s contract: false, null and undefined mean "not yet"; anything else is the answer. */

/** A probe that says "not yet" with `notYet` on its first calls, then `answer`; counts its calls. */
function probe<T>(notYet: readonly unknown[], answer: T): { fn: () => unknown; calls: () => number } {
  let calls = 0;
  return {
    fn: () => {
      calls += 1;
      return calls <= notYet.length ? notYet[calls - 1] : answer;
    },
    calls: () => calls,
  };
}

describe('until', () => {
  it('a predicate that is false waits: false, null and undefined are "not yet"', async () => {
    const p = probe([false, null, undefined, false], 'ready');
    expect(await until(p.fn, 'ready')).toBe('ready');
    expect(p.calls()).toBe(5);
  });

  it('0, an empty string and true are answers, returned at once', async () => {
    for (const answer of [0, '', true]) {
      const p = probe([], answer);
      expect(await until(p.fn, String(answer))).toBe(answer);
      expect(p.calls()).toBe(1);
    }
  });

  it('an async probe is awaited; its "not yet" waits as well', async () => {
    let calls = 0;
    const answer = await until(async () => (++calls < 3 ? false : { calls }), 'the third call');
    expect(answer).toEqual({ calls: 3 });
  });

  it('a state that never comes fails, naming what was awaited', async () => {
    await expect(until(() => false, 'the moon', 0)).rejects.toThrow('timed out waiting for the moon');
  });

  it('a predicate waits at the type level too: the answer of `() => x === y` is typed true', async () => {
    let ready = false;
    const answer = await until(() => {
      const was = ready;
      ready = true;
      return was;
    }, 'the flag');
    const typed: true = answer;
    expect(typed).toBe(true);
  });
});
