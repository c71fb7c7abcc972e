/**
 * Nesting depth of parsed JSON (issue 11 item 5). `JSON.parse` is iterative in V8, but almost
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

/**
 * `exceedsJsonDepth` for a value parsed from `text`, without the walk when the text cannot be that
 * deep: every level opens with `{` or `[`, so text with at most `maxDepth` of them (counted
 * inside strings too, which only overestimates) is within the bound. Nearly every line the child
 * writes and every client frame is decided by this allocation-free count (the hot paths).
 */
export function textExceedsJsonDepth(text: string, value: unknown, maxDepth: number): boolean {
  let opens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x7b || c === 0x5b) && ++opens > maxDepth) return exceedsJsonDepth(value, maxDepth);
  }
  return false;
}

/** The message every entry uses when it refuses such input. */
export function depthMessage(maxDepth: number): string {
  return `JSON nested deeper than ${maxDepth} levels`;
}
