/**
 * `node --import tsx bench/alternate.ts <ID> --arm <name>[:<VAR>=<value>] --arm … [--rounds N]`:
 * one scenario, one run per arm per round, the arms taken in turn (rotated each round so each goes
 * first as often), every run its own `npm run bench -- <ID> --runs 1` with the arm's variables
 * added. Prints each run's figure (its ratio to the baseline of the same run when the scenario has
 * one, else its value), then a Markdown table: per arm its figures, median, spread and the rounds it
 * came out lowest in. The runs write their results to a temporary directory (`BENCH_RESULTS_DIR`),
 * never over bench/results.
 *
 * What it is for: a setting that changes a figure by a few per cent shows only over several runs of
 * each, taken in the same minutes (BENCHMARKS.md). For example a V8 flag on both servers:
 *
 *   node --import tsx bench/alternate.ts B-COST --rounds 5 \
 *     --arm flag:BENCH_DAEMON_NODE_ARGS=--max-valid-polymorphic-map-count=8 --arm plain
 *
 * or two builds of the hub (`BENCH_DAEMON_ROOT=<a built checkout>` in one arm). An arm may repeat its
 * name to set more variables; `BENCH_COST_TEAM_AUDIENCE=100,0` and the like go in the caller's environment.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './lib/daemon-process.js';
import { alternationMarkdown, figureOf, parseArms, roundOrder, summariseArms, type Arm } from './lib/alternation.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

interface Options {
  scenario: string;
  arms: Arm[];
  rounds: number;
}

function parseOptions(argv: readonly string[]): Options {
  const armSpecs: string[] = [];
  const ids: string[] = [];
  let rounds = 3;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--arm') armSpecs.push(value());
    else if (a === '--rounds') rounds = Number(value());
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else ids.push(a.toUpperCase());
  }
  if (ids.length !== 1) throw new Error('name one scenario (e.g. B-COST)');
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds is a whole number ≥ 1');
  return { scenario: ids[0]!, arms: parseArms(armSpecs), rounds };
}

/** One `bench/run.ts <id> --runs 1` with the arm's variables; its lines are printed with the arm's name. */
function runOnce(scenario: string, arm: Arm, resultsDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'run.ts'), scenario, '--runs', '1'], {
      cwd: repoRoot,
      env: { ...process.env, ...arm.env, BENCH_RESULTS_DIR: resultsDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let partial = '';
    // Decoded across chunks: a character split between two reads (the tables' dashes) stays whole.
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) out(`[${arm.name}] ${line}`);
    });
    child.once('error', reject);
    child.once('close', (status) => {
      if (partial) out(`[${arm.name}] ${partial}`);
      if (status === 0) resolve();
      else reject(new Error(`the ${arm.name} run of ${scenario} exited with ${String(status)}`));
    });
  });
}

async function main(): Promise<void> {
  let opts: Options;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (err) {
    out(`alternate: ${(err as Error).message}`);
    out('usage: bench/alternate.ts <ID> --arm <name>[:<VAR>=<value>] --arm … [--rounds N]');
    process.exitCode = 2;
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-bench-alternate-'));
  const resultFile = path.join(dir, `${opts.scenario}.json`);
  const rounds: Array<Record<string, number>> = [];
  let unit = '';
  try {
    for (let r = 0; r < opts.rounds; r++) {
      const figures: Record<string, number> = {};
      for (const arm of roundOrder(opts.arms, r)) {
        fs.rmSync(resultFile, { force: true });
        await runOnce(opts.scenario, arm, dir);
        if (!fs.existsSync(resultFile)) throw new Error(`the ${arm.name} run wrote no result (is ${opts.scenario} a scenario?)`);
        const f = figureOf(JSON.parse(fs.readFileSync(resultFile, 'utf8')));
        figures[arm.name] = f.figure;
        unit = f.unit;
        out(`round ${r + 1}/${opts.rounds}, ${arm.name}: ${f.figure} (${f.unit})`);
      }
      rounds.push(figures);
    }
  } catch (err) {
    // What the finished rounds showed is still printed; a round cut short is left out.
    out(`alternate: ${(err as Error).message}`);
    process.exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (rounds.length === 0) return;
  out('');
  out(
    alternationMarkdown(
      opts.scenario,
      unit,
      opts.arms,
      summariseArms(
        opts.arms.map((a) => a.name),
        rounds,
      ),
    ),
  );
}

await main();
