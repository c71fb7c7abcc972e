import { execFileSync } from 'node:child_process';
import { gitEnv } from '../../src/git/run.js';

/**
 * Runs git in `cwd` the way the tests build their repositories: a fixed author, `main` as the
 * first branch, and the hub's own git environment (no user or system config, no prompts), so a
 * developer's settings cannot change what a test sees. Returns stdout; throws on a non-zero exit.
 */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: gitEnv(),
    encoding: 'utf8',
  });
}
