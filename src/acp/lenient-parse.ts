/**
 * Lenient parsing of the app-server's output (APP-SERVER.md §5.6): payloads are internal
 * objects the server never validates, so a field may be `null` or of a drifted type (`startedAt`
 * as a string, §5.5.7). One such field must not drop the whole event or message: the offending
 * fields are removed and the rest parsed again, and the caller is told what was dropped so it
 * can log it. Only when a required field is itself broken does the parse fail.
 */
import type { z } from 'zod';

/** Repair rounds: each removes the fields one parse reported (nested drift can need a second). */
const MAX_REPAIR_ROUNDS = 4;

export type LenientResult<T> = { success: true; data: T; dropped: string[] } | { success: false; error: z.ZodError; dropped: string[] };

/** Parses `value`; on failure removes each failing field (by issue path) and tries again. */
export function parseLenient<T>(schema: z.ZodType<T>, value: unknown): LenientResult<T> {
  let r = schema.safeParse(value);
  if (r.success) return { success: true, data: r.data, dropped: [] };
  const dropped: string[] = [];
  let current: unknown = value;
  for (let round = 0; round < MAX_REPAIR_ROUNDS && !r.success; round++) {
    const next = cloneForRepair(current);
    let removed = 0;
    // Deepest and highest array index first, so removing one element does not shift another's path.
    const paths = r.error.issues.map((i) => i.path.filter((k): k is string | number => typeof k !== 'symbol')).sort(comparePathsDescending);
    for (const issuePath of paths) {
      // A missing required field inside an optional object: drop that object instead.
      const path = valueAt(next, issuePath) === undefined && issuePath.length > 1 ? issuePath.slice(0, -1) : issuePath;
      if (path.length > 0 && removeAt(next, path)) {
        removed++;
        dropped.push(`${path.join('.')} (${describe(valueAt(current, path))})`);
      }
    }
    if (removed === 0) break;
    current = next;
    r = schema.safeParse(current);
  }
  return r.success ? { success: true, data: r.data, dropped } : { success: false, error: r.error, dropped };
}

/** A copy deep enough to delete fields without touching the caller's object (JSON data only). */
function cloneForRepair(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneForRepair);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = v !== null && typeof v === 'object' ? cloneForRepair(v) : v;
    return out;
  }
  return value;
}

function valueAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

/** Deletes the field at `path` (an array element is removed); false when nothing was there. */
function removeAt(root: unknown, path: ReadonlyArray<string | number>): boolean {
  const parent = valueAt(root, path.slice(0, -1));
  const key = path[path.length - 1];
  if (parent === null || typeof parent !== 'object' || key === undefined) return false;
  if (Array.isArray(parent) && typeof key === 'number') {
    if (key >= parent.length) return false;
    parent.splice(key, 1);
    return true;
  }
  if (!Object.hasOwn(parent, key)) return false;
  delete (parent as Record<string | number, unknown>)[key];
  return true;
}

function comparePathsDescending(a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(y) < String(x) ? -1 : 1;
  }
  return b.length - a.length;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
