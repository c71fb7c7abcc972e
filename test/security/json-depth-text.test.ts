import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, textExceedsJsonDepth } from '../../src/json-depth.js';

/** The text pre-check must agree with the walk; it may only skip the walk where the walk says no. */
const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const agree = (text: string, max: number): boolean => {
  const value: unknown = JSON.parse(text);
  const fast = textExceedsJsonDepth(text, value, max);
  expect(fast).toBe(exceedsJsonDepth(value, max));
  return fast;
};

describe('textExceedsJsonDepth', () => {
  it('decides at the bound exactly as the walk does', () => {
    expect(agree(nested(8), 8)).toBe(false);
    expect(agree(nested(9), 8)).toBe(true);
  });

  it('brackets inside strings only send it to the walk, never to a wrong answer', () => {
    expect(agree(JSON.stringify({ text: '[[[[[[[[[[{{{{{{{{' }), 4)).toBe(false);
    expect(agree(JSON.stringify([[[{ a: '[[[[' }]]]), 3)).toBe(true);
  });

  it('many shallow siblings stay within the bound', () => {
    expect(agree(JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ i, xs: [i] }))), 3)).toBe(false);
  });

  it('counts braces and brackets together: neither alone over the bound still sends it to the walk', () => {
    const text = JSON.stringify({ a: [{ b: [1] }] });
    expect(agree(text, 3)).toBe(true);
    expect(agree(text, 4)).toBe(false);
    expect(agree(JSON.stringify({ a: { b: { c: {} } } }), 3)).toBe(true);
    expect(agree(JSON.stringify([[[[]]]]), 3)).toBe(true);
    expect(agree('{}', 1)).toBe(false);
    expect(agree('1', 0)).toBe(false);
  });
});
