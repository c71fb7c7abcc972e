import type { DiffRow } from './numbered-diff.js';

/**
 * git's unified diff of one file (`GET /api/sessions/:id/git/diff`) as the rows the Changes view
 * draws (numbered-diff.ts): numbered context, removed and added lines, a gap between hunks.
 * Headers are dropped; a binary file or a mode-only change gives no rows.
 */
export function parseUnifiedDiff(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  let lastOld = 0;
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      const nextOld = Number(hunk[1]);
      const nextNew = Number(hunk[2]);
      const skipped = (nextOld === 0 ? nextNew : nextOld) - 1 - lastOld;
      if (skipped > 0) rows.push({ op: '…', count: skipped });
      oldNo = nextOld === 0 ? 0 : nextOld;
      newNo = nextNew === 0 ? 0 : nextNew;
      if (nextOld === 0) oldNo = 1;
      if (nextNew === 0) newNo = 1;
      inHunk = true;
      continue;
    }
    if (!inHunk) continue;
    const op = line[0];
    const text = line.slice(1);
    if (op === ' ') {
      rows.push({ op: ' ', text, oldNo, newNo });
      lastOld = oldNo++;
      newNo++;
    } else if (op === '-') {
      rows.push({ op: '-', text, oldNo });
      lastOld = oldNo++;
    } else if (op === '+') rows.push({ op: '+', text, newNo: newNo++ });
    else if (op === '\\') continue;
    else inHunk = false;
  }
  return rows;
}
