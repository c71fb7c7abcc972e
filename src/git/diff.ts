import { runGit, type GitRunLimits } from './run.js';

/**
 * One file's unified diff against HEAD (staged and unstaged changes together), or against the
 * empty tree before the first commit. `rel` is relative to `cwd` and already confined by the
 * caller; it goes to git as a literal pathspec, so `*` or `:` in a name mean nothing.
 */

export interface GitDiff {
  diff: string;
  truncated: boolean;
}

const spec = (rel: string): string => `:(literal)${rel}`;

/** True when `rel` is in the index (tracked or staged), false for an untracked file. */
export async function isTracked(cwd: string, rel: string, limits: GitRunLimits, binary?: string): Promise<boolean> {
  const out = await runGit(cwd, ['ls-files', '-z', '--', spec(rel)], limits, binary);
  return out.code === 0 && out.stdout.length > 0;
}

export async function trackedDiff(cwd: string, rel: string, limits: GitRunLimits, binary?: string): Promise<GitDiff> {
  const head = await runGit(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD'], limits, binary);
  let base = 'HEAD';
  if (head.code !== 0) {
    const empty = await runGit(cwd, ['hash-object', '-t', 'tree', '/dev/null'], limits, binary);
    base = empty.stdout.toString('utf8').trim();
  }
  const out = await runGit(cwd, ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '-M', base, '--', spec(rel)], limits, binary);
  return { diff: out.stdout.toString('utf8'), truncated: out.truncated };
}

/** An untracked file's content as a whole-file addition, in git's own format; cut at `maxBytes`. */
export function untrackedDiff(rel: string, data: Buffer, maxBytes: number): GitDiff {
  const head = `diff --git a/${rel} b/${rel}\nnew file mode 100644\n`;
  if (data.includes(0)) return { diff: `${head}Binary files /dev/null and b/${rel} differ\n`, truncated: false };
  const text = data.toString('utf8');
  const lines = text.length === 0 ? [] : text.replace(/\n$/, '').split('\n');
  let diff = `${head}--- /dev/null\n+++ b/${rel}\n`;
  if (lines.length > 0) diff += `@@ -0,0 +1${lines.length === 1 ? '' : `,${lines.length}`} @@\n${lines.map((l) => `+${l}`).join('\n')}\n`;
  if (lines.length > 0 && !text.endsWith('\n')) diff += '\\ No newline at end of file\n';
  if (Buffer.byteLength(diff) <= maxBytes) return { diff, truncated: false };
  return { diff: Buffer.from(diff).subarray(0, maxBytes).toString('utf8'), truncated: true };
}
