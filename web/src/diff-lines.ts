/** Line diff for tool-card diffs (ACP `diff` content: oldText → newText). Pure; unit-tested. */

export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Lines beyond which the LCS table would be too big for a phone: show removed then added. */
const MAX_LCS_LINES = 600;

/** A unified line diff; `oldText` null/undefined = a new file (every line added). */
export function diffLines(oldText: string | null | undefined, newText: string): DiffLine[] {
  const b = newText.split('\n');
  if (oldText === null || oldText === undefined) return b.map((text) => ({ op: '+', text }));
  const a = oldText.split('\n');
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
