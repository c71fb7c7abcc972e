import { execFile } from 'node:child_process';
import { HubError } from '../errors.js';

/**
 * Runs one read-only git command in a workspace: `execFile` (no shell), the environment without
 * any inherited `GIT_*` variable (a `GIT_DIR` of the daemon's must not point git elsewhere), no
 * pager, no prompt, no optional locks, `core.quotepath=off`, no fsmonitor, hooks or external diff
 * programs, a time limit and an output cap. Output past the cap is cut (`truncated`), not an error.
 */

export interface GitRunLimits {
  timeoutMs: number;
  maxBytes: number;
}

export interface GitOutput {
  stdout: Buffer;
  truncated: boolean;
  /** Exit status; git answers 1 for "differences found" in some commands, 128 for "not a repository". */
  code: number;
  stderr: string;
}

/** Options that make git read-only and self-contained whatever the user's or the repository's config says. */
const FIXED_ARGS = [
  '--no-optional-locks',
  '-c',
  'core.quotepath=off',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.pager=cat',
  '-c',
  'color.ui=false',
];

/** The daemon's environment without git's own variables, plus the ones that keep git quiet and local. */
export function gitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('GIT_') && k !== 'PAGER') out[k] = v;
  return { ...out, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
}

export function runGit(cwd: string, args: readonly string[], limits: GitRunLimits, binary = 'git'): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      [...FIXED_ARGS, ...args],
      {
        cwd,
        env: gitEnv(),
        encoding: 'buffer',
        timeout: limits.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: limits.maxBytes,
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        const errText = stderr.toString('utf8').slice(0, 2_000);
        if (!err) return resolve({ stdout, truncated: false, code: 0, stderr: errText });
        const e = err as NodeJS.ErrnoException & { code?: string | number; killed?: boolean; signal?: string };
        if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return resolve({ stdout: stdout.subarray(0, limits.maxBytes), truncated: true, code: 0, stderr: errText });
        if (e.code === 'ENOENT' || e.code === 'EACCES')
          return reject(new HubError('HUB_ERR_NOT_SUPPORTED', "git is not installed on the hub's machine (or not on its PATH)"));
        if (e.killed || e.signal)
          return reject(
            new HubError('HUB_ERR_BACKEND_TIMEOUT', `git did not answer within ${limits.timeoutMs} ms`, { limit: limits.timeoutMs }),
          );
        if (typeof e.code === 'number') return resolve({ stdout, truncated: false, code: e.code, stderr: errText });
        reject(new HubError('HUB_ERR_INTERNAL', 'git could not be run'));
      },
    );
  });
}
