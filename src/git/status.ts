import { runGit, type GitRunLimits } from './run.js';

/**
 * A workspace's git state: branch, upstream, ahead/behind and the changed files under the
 * workspace (paths relative to it), from `git status --porcelain=v2 -z --branch`. A workspace that
 * is not in a repository answers `isRepo: false`.
 */

export type GitFileStatus = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'typechange' | 'untracked' | 'conflicted';

export interface GitFile {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  status: GitFileStatus;
  /** True when the change (or part of it) is in the index. */
  staged: boolean;
  /** A rename's or copy's source, relative to the workspace. */
  from?: string;
}

export interface GitState {
  isRepo: boolean;
  branch?: string;
  /** True when HEAD is detached (`branch` is then absent). */
  detached?: boolean;
  upstream?: string;
  ahead?: number;
  behind?: number;
  files: GitFile[];
  truncated: boolean;
}

export interface GitStatusLimits extends GitRunLimits {
  maxFiles: number;
}

const LETTER: Readonly<Record<string, GitFileStatus>> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  T: 'typechange',
  R: 'renamed',
  C: 'copied',
};

/** The repository-relative prefix of `cwd` (`sub/dir/`), or undefined when `cwd` is in no repository. */
export async function repoPrefix(cwd: string, limits: GitRunLimits, binary?: string): Promise<string | undefined> {
  const out = await runGit(cwd, ['rev-parse', '--show-prefix'], limits, binary);
  if (out.code !== 0) return undefined;
  return out.stdout.toString('utf8').trim();
}

export async function gitState(cwd: string, limits: GitStatusLimits, binary?: string): Promise<GitState> {
  const prefix = await repoPrefix(cwd, limits, binary);
  if (prefix === undefined) return { isRepo: false, files: [], truncated: false };
  const out = await runGit(
    cwd,
    ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all', '--ignore-submodules=dirty', '--', '.'],
    { timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes },
    binary,
  );
  if (out.code !== 0) return { isRepo: false, files: [], truncated: false };
  return parseStatus(out.stdout.toString('utf8'), prefix, out.truncated, limits.maxFiles);
}

/** Parses porcelain v2 `-z` output; paths outside `prefix` are left out, the rest made relative to it. */
export function parseStatus(text: string, prefix: string, cut: boolean, maxFiles: number): GitState {
  const state: GitState = { isRepo: true, files: [], truncated: cut };
  const fields = text.split('\0');
  // A cut output may end inside a record: the last field is dropped (and a rename's pair with it).
  if (cut) fields.pop();
  else if (fields.at(-1) === '') fields.pop();
  const rel = (p: string): string | undefined => (p.startsWith(prefix) ? p.slice(prefix.length) : undefined);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as string;
    if (f.startsWith('# ')) {
      const [key, ...rest] = f.slice(2).split(' ');
      const value = rest.join(' ');
      if (key === 'branch.head') {
        if (value === '(detached)') state.detached = true;
        else state.branch = value;
      } else if (key === 'branch.upstream') state.upstream = value;
      else if (key === 'branch.ab') {
        const m = /^\+(\d+) -(\d+)$/.exec(value);
        if (m) {
          state.ahead = Number(m[1]);
          state.behind = Number(m[2]);
        }
      }
      continue;
    }
    let file: GitFile | undefined;
    if (f.startsWith('? ')) {
      const p = rel(f.slice(2));
      if (p !== undefined) file = { path: p, status: 'untracked', staged: false };
    } else if (f.startsWith('1 ') || f.startsWith('2 ') || f.startsWith('u ')) {
      const kind = f[0];
      const before = kind === '1' ? 8 : kind === '2' ? 9 : 10;
      const parts = f.split(' ');
      const xy = parts[1] ?? '..';
      const p = rel(parts.slice(before).join(' '));
      let from: string | undefined;
      if (kind === '2') {
        i++;
        if (i >= fields.length) {
          state.truncated = true;
          break;
        }
        from = rel(fields[i] as string);
      }
      if (p === undefined) continue;
      const [x, y] = [xy[0] ?? '.', xy[1] ?? '.'];
      const status: GitFileStatus =
        kind === 'u'
          ? 'conflicted'
          : kind === '2'
            ? x === 'C' || y === 'C'
              ? 'copied'
              : 'renamed'
            : (LETTER[y !== '.' ? y : x] ?? 'modified');
      file = { path: p, status, staged: kind !== 'u' && x !== '.', ...(from === undefined ? {} : { from }) };
    }
    if (!file) continue;
    if (state.files.length >= maxFiles) {
      state.truncated = true;
      break;
    }
    state.files.push(file);
  }
  return state;
}
