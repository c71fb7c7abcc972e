/** Line diff for tool-card diffs (ACP `diff` content: oldText → newText). Pure; unit-tested. */

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Lines beyond which the LCS table would be too big for a phone: show removed then added. */
const MAX_LCS_LINES = 600;

/**
 * The lines of a text as `wc -l` and `git diff --stat` see them: a final newline ends the last
 * line, it does not start a new one; a last line without one is still a line; an empty text has
 * none.
 */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** How many lines `text` has (see splitLines): every count of a file's lines uses this. */
export function lineCount(text: string): number {
  return splitLines(text).length;
}

/** The first `n` lines of `text`. */
export function firstLines(text: string, n: number): string {
  return splitLines(text).slice(0, n).join('\n');
}

/**
 * A unified line diff; `oldText` null/undefined = a new file (every line added). Lines are
 * compared by their text: an Edit's old and new text are often pieces of a file, where a missing
 * final newline does not mean the end of the file, so gaining or losing one is no changed line.
 */
export function diffLines(oldText: string | null | undefined, newText: string): DiffLine[] {
  const b = splitLines(newText);
  if (oldText === null || oldText === undefined) return b.map((text) => ({ op: '+', text }));
  const a = splitLines(oldText);
  if (a.length * b.length > MAX_LCS_LINES * MAX_LCS_LINES)
    return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
  const n = a.length;
  const m = b.length;
  // lcs[i][j] = length of the LCS of a[i..] and b[j..], in one flat array.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * (m + 1) + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * (m + 1) + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * (m + 1) + j] ?? 0, lcs[i * (m + 1) + j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] ?? '' });
      i++;
      j++;
    } else if ((lcs[(i + 1) * (m + 1) + j] ?? 0) >= (lcs[i * (m + 1) + j + 1] ?? 0)) out.push({ op: '-', text: a[i++] ?? '' });
    else out.push({ op: '+', text: b[j++] ?? '' });
  }
  while (i < n) out.push({ op: '-', text: a[i++] ?? '' });
  while (j < m) out.push({ op: '+', text: b[j++] ?? '' });
  return out;
}

/** Keeps changed lines with `context` unchanged lines around them; gaps become one `…` line. */
export function trimContext(lines: DiffLine[], context = 3): Array<DiffLine | { op: '…'; text: string }> {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((l, idx) => {
    if (l.op === ' ') return;
    for (let k = Math.max(0, idx - context); k <= Math.min(lines.length - 1, idx + context); k++) keep[k] = true;
  });
  const out: Array<DiffLine | { op: '…'; text: string }> = [];
  let skipped = 0;
  lines.forEach((l, idx) => {
    if (keep[idx]) {
      if (skipped) out.push({ op: '…', text: `${skipped}` });
      skipped = 0;
      out.push(l);
    } else skipped++;
  });
  if (skipped && out.length) out.push({ op: '…', text: `${skipped}` });
  return out.length ? out : lines;
}
