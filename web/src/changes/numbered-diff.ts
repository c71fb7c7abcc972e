/** A unified diff with old/new line numbers and collapsed unchanged runs, for the Changes view. Pure. */
import { diffLines } from '../diff-lines.js';

export interface NumberedLine {
  op: ' ' | '-' | '+';
  text: string;
  /** Line number in the old text (context and removed lines). */
  oldNo?: number;
  /** Line number in the new text (context and added lines). */
  newNo?: number;
}
/** Unchanged lines left out between two kept ones. */
export interface Gap {
  op: '…';
  count: number;
}
export type DiffRow = NumberedLine | Gap;

/**
 * The diff of `oldText` → `newText` with line numbers starting at `start` (the first line of
 * the hunk in the file, 1 when unknown), keeping `context` unchanged lines around each change.
 */
export function numberedDiff(oldText: string | null, newText: string, start = 1, context = 3): DiffRow[] {
  const lines: NumberedLine[] = [];
  let o = start;
  let n = start;
  for (const l of diffLines(oldText, newText)) {
    if (l.op === ' ') lines.push({ op: ' ', text: l.text, oldNo: o++, newNo: n++ });
    else if (l.op === '-') lines.push({ op: '-', text: l.text, oldNo: o++ });
    else lines.push({ op: '+', text: l.text, newNo: n++ });
  }
  const keep = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.op === ' ') return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
  });
  if (!keep.includes(true)) return lines;
  const out: DiffRow[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (!keep[i]) {
      skipped++;
      return;
    }
    if (skipped) out.push({ op: '…', count: skipped });
    skipped = 0;
    out.push(l);
  });
  if (skipped) out.push({ op: '…', count: skipped });
  return out;
}

/**
 * Where a hunk sits in the file as it is now: the 1-based line at which `newText` starts in
 * `current`, or undefined when it is not found exactly once (the file changed since).
 */
export function hunkStart(current: string, newText: string): number | undefined {
  if (!newText) return undefined;
  const at = current.indexOf(newText);
  if (at < 0 || current.indexOf(newText, at + 1) >= 0) return undefined;
  let line = 1;
  for (let i = 0; i < at; i++) if (current.charCodeAt(i) === 10) line++;
  return line;
}
