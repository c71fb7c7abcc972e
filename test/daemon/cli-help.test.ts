import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/main.js';
import { runToExit, type Exited } from '../helpers/run-to-exit.js';

/** Every command answers `--help` and `-h` with its own usage on stdout and exit 0, touching nothing. */

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');

function run(args: string[]): Promise<Exited> {
  // A state dir that does not exist: a help that started work would create it or fail on it.
  return runToExit(process.execPath, [bin, ...args], {
    env: { ...process.env, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_STATE_DIR: '/nonexistent/zcode-hub-help' },
  });
}

describe('zcode-hub <command> --help', () => {
  it('every command, asked with --help or -h, prints its usage on stdout and exits 0', async () => {
    expect(COMMAND_NAMES).toEqual(expect.arrayContaining(['start', 'token', 'pair', 'acp', 'doctor', 'service', 'sim']));
    // --help for every command, -h for every other one: both spellings are covered without
    // spawning each command twice. Eleven tsx start-ups at once take more than the default 30 s
    // on two busy cores.
    const runs = COMMAND_NAMES.map(async (name, i) => {
      const flag = i % 2 === 0 ? '--help' : '-h';
      return { name, flag, r: await run([name, flag]) };
    });
    for (const { name, flag, r } of await Promise.all(runs)) {
      expect({ name, flag, status: r.status, stderr: r.stderr }).toEqual({ name, flag, status: 0, stderr: '' });
      expect(r.stdout, `${name} ${flag}`).toMatch(new RegExp(`^usage:\\s+zcode-hub (\\[)?${name}`, 'i'));
    }
  }, 90_000);

  it('a nested sub-command, or one whose option lacks its value, answers --help with the usage of its command', async () => {
    // main.ts answers for every command alike; these are the shapes a command's own parser would
    // trip on (a nested sub-command, an option that takes a value). Each spawn compiles the
    // sources with tsx, so a few lines suffice and the test gets room on a busy machine.
    const lines = [
      ['token', 'create', '--help'],
      ['policy', 'grants', '--help'],
      ['policy', 'check', '--tool', '-h'],
      ['pair', '--into', '--help'],
      ['sim', '--replay', '--help'],
    ];
    const runs = await Promise.all(lines.map(async (line) => ({ line: line.join(' '), r: await run(line) })));
    for (const { line, r } of runs) {
      const name = line.split(' ')[0] ?? '';
      expect({ line, status: r.status, stderr: r.stderr }).toEqual({ line, status: 0, stderr: '' });
      expect(r.stdout, line).toMatch(new RegExp(`^usage:\\s+zcode-hub (\\[)?${name}`, 'i'));
    }
  }, 90_000);

  it('a --help after -- belongs to the start flags of service, not to service itself', async () => {
    const r = await run(['service', 'bogus', '--', '--help']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('the top-level help lists every command', async () => {
    const r = await run(['--help']);
    expect(r.status).toBe(0);
    for (const name of COMMAND_NAMES) expect(r.stdout).toMatch(new RegExp(`zcode-hub \\[?${name}\\b`));
  });
});
