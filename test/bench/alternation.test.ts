import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alternationMarkdown, figureOf, parseArms, roundOrder, summariseArms } from '../../bench/lib/alternation.js';
import { runToExit } from '../helpers/run-to-exit.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `node --import tsx bench/alternate.ts <args>` from the repository, to its end. */
const alternate = (...args: string[]) => runToExit(process.execPath, ['--import', 'tsx', 'bench/alternate.ts', ...args], { cwd: repoRoot });

describe('alternation: arms, their order and their summary (bench/lib/alternation.ts)', () => {
  it('reads arms in the order first named; a repeated name adds a variable, values keep spaces and =', () => {
    const arms = parseArms(['flag:BENCH_DAEMON_NODE_ARGS=--a=1 --b', 'plain', 'flag:ZCODE_X=1']);
    expect(arms).toEqual([
      { name: 'flag', env: { BENCH_DAEMON_NODE_ARGS: '--a=1 --b', ZCODE_X: '1' } },
      { name: 'plain', env: {} },
    ]);
  });

  it('refuses one arm, a bad name, an assignment without =, and a variable set twice', () => {
    expect(() => parseArms(['only'])).toThrow(/at least two arms/);
    expect(() => parseArms(['a b', 'c'])).toThrow(/a name is/);
    expect(() => parseArms(['a:NOEQUALS', 'b'])).toThrow(/<VAR>=<value>/);
    expect(() => parseArms(['a:1X=2', 'b'])).toThrow(/<VAR>=<value>/);
    expect(() => parseArms(['a:X=1', 'a:X=2', 'b'])).toThrow(/sets X twice/);
  });

  it('rotates the arms by one each round, so each goes first as often', () => {
    expect([0, 1, 2, 3].map((r) => roundOrder(['a', 'b'], r).join(''))).toEqual(['ab', 'ba', 'ab', 'ba']);
    expect([0, 1, 2].map((r) => roundOrder(['a', 'b', 'c'], r).join(''))).toEqual(['abc', 'bca', 'cab']);
  });

  it("takes a run's ratio when it has one, else its value, and refuses a run that produced none", () => {
    expect(figureOf({ id: 'B-COST', unit: 'ns per update', runs: 1, value: 1_032, ratio: 1.027 })).toEqual({
      figure: 1.027,
      unit: 'ratio',
    });
    expect(figureOf({ id: 'B-START', unit: 'ms', runs: 1, value: 581 })).toEqual({ figure: 581, unit: 'ms' });
    expect(() => figureOf({ id: 'B-COST', unit: 'ns', runs: 0, value: null, errors: ['daemon not healthy'] })).toThrow(
      /produced no figure: daemon not healthy/,
    );
    expect(() => figureOf({ unit: 'ms' })).toThrow();
  });

  it('summarises each arm: figures in round order, median, spread, rounds lowest in (a tie counts for none)', () => {
    const rounds = [
      { flag: 0.998, plain: 1.027 },
      { flag: 1.1, plain: 1.05 },
      { flag: 1.0, plain: 1.0 },
    ];
    const [flag, plain] = summariseArms(['flag', 'plain'], rounds);
    expect(flag).toEqual({ name: 'flag', figures: [0.998, 1.1, 1.0], median: 1.0, low: 0.998, high: 1.1, lowestIn: 1 });
    expect(plain).toEqual({ name: 'plain', figures: [1.027, 1.05, 1.0], median: 1.027, low: 1.0, high: 1.05, lowestIn: 1 });
    const table = alternationMarkdown('B-COST', 'ratio', parseArms(['flag:F=1', 'plain']), [flag!, plain!]);
    expect(table).toContain('B-COST, 3 round(s)');
    expect(table).toContain('| flag | `F=1` | 0.998 · 1.1 · 1 | 1 | 0.998–1.1 | 1 of 3 |');
    expect(table).toContain('| plain | (as given) |');
  });
});

describe('bench/alternate.ts, run for real', () => {
  it('runs a scenario once per arm per round with the arm’s variables, and leaves bench/results alone', async () => {
    const recorded = path.join(repoRoot, 'bench', 'results', 'B-START.json');
    const before = fs.existsSync(recorded) ? fs.readFileSync(recorded, 'utf8') : undefined;
    // Two arms that differ in the daemon's node flags: both start, each gives its own start time.
    const run = await alternate(
      'B-START',
      '--rounds',
      '1',
      '--arm',
      'semi4:BENCH_DAEMON_NODE_ARGS=--max-semi-space-size=4',
      '--arm',
      'plain',
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    // B-START has a baseline (a bare node process started the same way): each figure is its ratio.
    const figures = [...run.stdout.matchAll(/^round 1\/1, (\w+): ([\d.]+) \(ratio\)$/gm)].map((m) => [m[1], Number(m[2])] as const);
    expect(figures.map(([name]) => name)).toEqual(['semi4', 'plain']);
    for (const [, ms] of figures) expect(ms).toBeGreaterThan(0);
    expect(run.stdout).toMatch(
      /\| semi4 \| `BENCH_DAEMON_NODE_ARGS=--max-semi-space-size=4` \| [\d.]+ \| [\d.]+ \| [\d.]+–[\d.]+ \| [01] of 1 \|/,
    );
    // The runs' own tables name where they wrote: the temporary directory, not bench/results.
    expect(run.stdout).toMatch(/\[plain\] total \d+ s; results in \/.*zcode-bench-alternate-/);
    expect(fs.existsSync(recorded) ? fs.readFileSync(recorded, 'utf8') : undefined).toBe(before);
  }, 120_000);

  it("gives each run its arm's variables: a daemon flag node refuses fails that arm's run, and the tool says so", async () => {
    const run = await alternate('B-START', '--rounds', '1', '--arm', 'plain', '--arm', 'broken:BENCH_DAEMON_NODE_ARGS=--no-such-flag');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^round 1\/1, plain: [\d.]+ \(ratio\)$/m);
    expect(run.stdout).toMatch(/^alternate: B-START produced no figure: daemon exited/m);
    // No summary of a round cut short.
    expect(run.stdout).not.toContain('| arm |');
  }, 120_000);

  it('refuses a call without two arms, with its usage, before running anything', async () => {
    const run = await alternate('B-START', '--arm', 'one');
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('alternate: give at least two arms');
    expect(run.stdout).toContain('usage: bench/alternate.ts');
  });
});
