/**
 * Nesting depth of parsed JSON. `JSON.parse` is iterative in V8, but almost
 * everything after it recurses (`JSON.stringify`, zod, ajv, our own walkers), so a message
 * nested thousands of levels deep must be refused at the door. The walk is iterative and stops
 * as soon as the bound is crossed, so the check itself can neither overflow nor run long.
 */

/** True when `value` has arrays/objects nested more than `maxDepth` levels (a scalar is depth 0). */
export function exceedsJsonDepth(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ v: unknown; d: number }> = [{ v: value, d: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { v, d } = item;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > maxDepth) return true;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push({ v: child, d: d + 1 });
  }
  return false;
}

/** Occurrences of `ch` in `text`, counting stops once past `limit` (native `indexOf` jumps, no per-character loop in JS). */
function countUpTo(text: string, ch: string, limit: number): number {
  let n = 0;
  for (let i = text.indexOf(ch); i !== -1 && n <= limit; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/**
 * `exceedsJsonDepth` for a value parsed from `text`, without the walk when the text cannot be that
 * deep: every level opens with `{` or `[`, so text with at most `maxDepth` of them (counted
 * inside strings too, which only overestimates) is within the bound. Nearly every line the child
 * writes and every client frame is decided by this count (the hot paths). It counts with
 * `indexOf`, which skips the text between brackets natively: a 700-byte child line costs a few
 * calls instead of a JS loop over every character (≈3 µs per line at the ceiling).
 */
export function textExceedsJsonDepth(text: string, value: unknown, maxDepth: number): boolean {
  const braces = countUpTo(text, '{', maxDepth);
  if (braces <= maxDepth && braces + countUpTo(text, '[', maxDepth - braces) <= maxDepth) return false;
  return exceedsJsonDepth(value, maxDepth);
}

/** The message every entry uses when it refuses such input. */
export function depthMessage(maxDepth: number): string {
  return `JSON nested deeper than ${maxDepth} levels`;
}
