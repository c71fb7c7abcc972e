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

/** The message every entry uses when it refuses such input. */
export function depthMessage(maxDepth: number): string {
  return `JSON nested deeper than ${maxDepth} levels`;
}
