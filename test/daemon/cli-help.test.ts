import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { argumentCount } from '../../src/cli/command-args.js';
import { COMMAND_SPECS, commandSpec } from '../../src/cli/commands.js';
import { COMMAND_NAMES } from '../../src/cli/main.js';
import { runToExit, type Exited } from '../helpers/run-to-exit.js';

/**
 * `zcode-hub … --help`, through the real CLI (the bundle of the sources the suite builds): the
 * command tree is walked from the top-level usage, and every command and sub-command it lists
 * answers with its own usage on stdout and exit 0, touching nothing.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');

function run(args: string[]): Promise<Exited> {
  // A state dir that does not exist: a help that started work would create it or fail on it.
  return runToExit(process.execPath, [bin, ...args], {
    env: { ...process.env, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_STATE_DIR: '/nonexistent/zcode-hub-help' },
  });
}

/** Runs every line, `width` at a time: thirty CLI starts at once would starve two busy cores. */
async function runAll(lines: readonly string[][], width = 3): Promise<Array<{ line: string; r: Exited }>> {
  const out: Array<{ line: string; r: Exited }> = [];
  for (let i = 0; i < lines.length; i += width)
    out.push(...(await Promise.all(lines.slice(i, i + width).map(async (l) => ({ line: l.join(' '), r: await run(l) })))));
  return out;
}

/** The commands and sub-commands `zcode-hub --help` lists: `  zcode-hub token create|list|revoke`. */
function listedTree(topHelp: string): Map<string, string[]> {
  const tree = new Map<string, string[]>();
  for (const m of topHelp.matchAll(/^ {2}zcode-hub ([a-z][a-z-]*)(?: ([a-z|]+))?/gm)) tree.set(m[1]!, m[2]?.split('|') ?? []);
  return tree;
}

describe('zcode-hub <command> [<sub-command>] --help', () => {
  it('walks the tree from the top-level usage: each command and sub-command prints its own usage, options and an example, exit 0', async () => {
    const top = await run(['--help']);
    expect({ status: top.status, stderr: top.stderr }).toEqual({ status: 0, stderr: '' });
    const tree = listedTree(top.stdout);
    // The top-level usage lists exactly the commands the CLI runs and the table describes.
    expect([...tree.keys()]).toEqual(COMMAND_SPECS.map((c) => c.name));
    expect([...tree.keys()]).toEqual(COMMAND_NAMES);

    const lines: string[][] = [];
    for (const [command, subs] of tree) {
      lines.push([command, '--help']);
      for (const [i, sub] of subs.entries()) lines.push([command, sub, i % 2 === 0 ? '--help' : '-h']);
    }
    for (const { line, r } of await runAll(lines)) {
      const [command, sub] = line.split(' ') as [string, string];
      expect({ line, status: r.status, stderr: r.stderr }).toEqual({ line, status: 0, stderr: '' });
      const spec = COMMAND_SPECS.find((c) => c.name === command)!;
      const subSpec = spec.subs?.find((s) => s.name === sub);
      if (subSpec) {
        // Its own usage, not its command's: it names the sub-command, its arguments, every option
        // it takes (with the default the table gives) and an example of itself.
        expect(r.stdout, line).toMatch(new RegExp(`^Usage: zcode-hub ${command} ${sub}\\b`));
        // Its arguments, in the synopsis (the lines before the summary sentence).
        if (subSpec.args !== undefined) expect(r.stdout.split(/\n(?! )/)[0], line).toContain(subSpec.args);
        for (const o of subSpec.options) {
          expect(r.stdout, `${line}: --${o}`).toMatch(new RegExp(`^ {2}--${o}\\b`, 'm'));
          const byDefault = spec.options[o]?.default;
          if (byDefault !== undefined) expect(r.stdout.replace(/\s+/g, ' '), `${line}: --${o}`).toContain(`default: ${byDefault}`);
        }
        for (const other of spec.subs!.filter((s) => s !== subSpec))
          expect(r.stdout, line).not.toContain(`zcode-hub ${command} ${other.name}`);
        expect(r.stdout, line).toMatch(new RegExp(`Example:\\n {2}zcode-hub ${command} ${sub}\\b`));
      } else if (spec.subs) {
        // A command with sub-commands: each one's usage line, and where its own help is.
        expect(r.stdout, line).toMatch(/^Usage:\n/);
        for (const s of spec.subs) expect(r.stdout, line).toMatch(new RegExp(`^ {2}zcode-hub ${command} ${s.name}\\b`, 'm'));
      } else {
        expect(r.stdout, line).toMatch(new RegExp(`^Usage: zcode-hub (\\[)?${command}\\b`));
        for (const o of Object.keys(spec.options)) expect(r.stdout, `${line}: --${o}`).toMatch(new RegExp(`^ {2}--${o}\\b`, 'm'));
        expect(r.stdout, line).toMatch(new RegExp(`Example:\\n {2}zcode-hub ${command}\\b`));
      }
    }
  }, 180_000);

  it('help anywhere before -- (or `help` first), even where an option lacks its value, names the sub-command asked about', async () => {
    const lines = [
      ['token', '--state-dir', '/x', 'create', '--scope', '--help'],
      ['policy', 'check', '--tool', '-h'],
      ['pair', '--into', '--help'],
      ['people', '--help', 'set'],
      ['sim', '--replay', '--help'],
      ['help', 'token', 'create'],
      ['help', 'service', 'install', '--', '--workspace', '/x'],
    ];
    const expected = [
      'zcode-hub token create',
      'zcode-hub policy check',
      'zcode-hub pair',
      'zcode-hub people set',
      'zcode-hub sim',
      'zcode-hub token create',
      'zcode-hub service install',
    ];
    for (const [i, { line, r }] of (await runAll(lines)).entries()) {
      expect({ line, status: r.status, stderr: r.stderr }).toEqual({ line, status: 0, stderr: '' });
      expect(r.stdout, line).toMatch(new RegExp(`^Usage: ${expected[i]!}\\b`));
    }
  }, 90_000);

  it('an unknown option names the sub-command and points at its --help, exit 2', async () => {
    const lines = [
      ['token', 'create', '--colour', 'red'],
      ['token', 'list', '--scope', 'view'],
      ['service', 'status', '--no-activate'],
      ['acp', '--bogus'],
      ['doctor', '--probe', '--colour'],
      ['doctor', '--json', 'out.json'],
      ['frob'],
    ];
    const expected = [
      "zcode-hub token create: unknown option '--colour' (see `zcode-hub token create --help`)\n",
      'zcode-hub token list: --scope is not an option of token list (see `zcode-hub token list --help`)\n',
      'zcode-hub service status: --no-activate is not an option of service status (see `zcode-hub service status --help`)\n',
      "zcode-hub acp: unknown option '--bogus' (see `zcode-hub acp --help`)\n",
      "zcode-hub doctor: unknown option '--colour' (see `zcode-hub doctor --help`)\n",
      'zcode-hub doctor: --json takes a FILE only with --probe; without it the report goes to stdout (see `zcode-hub doctor --help`)\n',
      "zcode-hub: unknown command 'frob' (see `zcode-hub --help`)\n",
    ];
    for (const [i, { line, r }] of (await runAll(lines)).entries())
      expect({ line, status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ line, status: 2, stdout: '', stderr: expected[i] });
  }, 90_000);

  it('walks the table: an argument past those a command or sub-command takes is refused by name, exit 2, touching nothing', async () => {
    const lines: string[][] = [];
    for (const spec of COMMAND_SPECS) {
      // Each (sub-)command gets the arguments its usage names, then one more.
      const placeholders = (args: string | undefined) => Array.from({ length: argumentCount(args) }, (_, i) => `arg${i}`);
      if (spec.subs) for (const sub of spec.subs) lines.push([spec.name, sub.name, ...placeholders(sub.args), 'extra']);
      else lines.push([spec.name, ...placeholders(spec.args), 'extra']);
    }
    expect(lines).toContainEqual(['peers', 'add', 'arg0', 'extra']);
    expect(lines).toContainEqual(['people', 'set', 'arg0', 'arg1', 'extra']);
    for (const { line, r } of await runAll(lines)) {
      const [command, sub] = line.split(' ') as [string, string];
      const named = commandSpec(command)!.subs?.some((s) => s.name === sub) ? `${command} ${sub}` : command;
      expect({ line, status: r.status, stdout: r.stdout }).toEqual({ line, status: 2, stdout: '' });
      // The simulator answers from its own flag table (its usage follows); every other names the line's --help.
      if (command === 'sim') expect(r.stderr, line).toMatch(/^zcode-sim: Unexpected argument: extra\n/);
      else
        expect(r.stderr, line).toMatch(
          new RegExp(`^zcode-hub( ${named})?: unexpected argument 'extra' \\(see \`zcode-hub ${named} --help\`\\)\n$`),
        );
    }
  }, 180_000);

  it('a --help after -- belongs to the start flags of service, not to service itself', async () => {
    const r = await run(['service', 'bogus', '--', '--help']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });
});
