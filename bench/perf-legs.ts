/**
 * `node --import tsx bench/perf-legs.ts <perf.data> [--by js|self|syscall] [--top N] [--audience K] [--result <file>]`:
 * where the hub's and the baseline's CPU went in a B-COST-TEAM run, leg by leg (bench/lib/perf-legs.ts),
 * as the Markdown table BENCHMARKS.md quotes. The legs come from the run's result
 * (bench/results/B-COST-TEAM.json unless `--result`; `--audience` picks one audience size, 0 the first).
 *
 * Recording a run (root; `perf` from Debian's linux-perf), hosted so one process serves both sides:
 *
 *     BENCH_COST_TEAM_HOSTED=1 BENCH_COST_TEAM_AUDIENCE=100,0 \
 *       BENCH_DAEMON_NODE_ARGS="--perf-prof --interpreted-frames-native-stack" npm run bench -- B-COST-TEAM &
 *     perf record -e cpu-clock -c 250000 -g -k mono -p <the baseline process's pid> -o perf.data   # Ctrl-C after the run
 *     perf inject --jit -i perf.data -o perf.jit.data
 *     node --import tsx bench/perf-legs.ts perf.jit.data --by js
 *
 * `--perf-prof` makes node write `jit-<pid>.dump` in its working directory and `perf inject` writes a
 * `jitted-<pid>-<n>.so` per compiled function beside it (both ignored by git; delete them after).
 * `-k mono` is what jitdump needs and what the run's windows are in.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { z } from 'zod';
import { LegSplit, legProfileTable, PERF_KEYS, PerfScriptReader, type PerfKey } from './lib/perf-legs.js';

const windowSchema = z.object({ from: z.number(), to: z.number() });
const resultSchema = z.object({
  details: z
    .array(z.object({ audiences: z.array(z.object({ perSession: z.number(), windows: z.record(z.string(), z.array(windowSchema)) })) }))
    .min(1),
});

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? '');
}

async function main(): Promise<void> {
  const file = process.argv[2];
  const by = option('by', 'js') as PerfKey;
  const top = Number(option('top', '30'));
  const audience = Number(option('audience', '0'));
  if (!file || file.startsWith('--') || !PERF_KEYS.includes(by) || !Number.isInteger(top) || !Number.isInteger(audience)) {
    process.stderr.write('usage: perf-legs <perf.data> [--by js|self|syscall] [--top N] [--audience K] [--result <file>]\n');
    process.exitCode = 2;
    return;
  }
  const resultFile = option('result', 'bench/results/B-COST-TEAM.json');
  const result = resultSchema.parse(JSON.parse(fs.readFileSync(resultFile, 'utf8')));
  const legs = result.details[0]?.audiences[audience];
  if (!legs) throw new Error(`${resultFile} has no audience ${audience}`);
  const perf = spawn('perf', ['script', '-i', file, '-F', 'time,period,ip,sym,dso'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<number | null>((resolve, reject) => {
    perf.once('error', reject);
    perf.once('close', resolve);
  });
  const reader = new PerfScriptReader();
  const split = new LegSplit(legs.windows, by);
  for await (const line of readline.createInterface({ input: perf.stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
    const sample = reader.line(line);
    if (sample) split.add(sample);
  }
  const last = reader.end();
  if (last) split.add(last);
  const code = await exited;
  if (code !== 0) throw new Error(`perf script exited ${code}`);
  const profile = split.profile();
  const secs = Object.entries(profile.seconds).map(([side, s]) => `${side} ${s.toFixed(1)} s`);
  process.stdout.write(`${legs.perSession} per session, by ${by}; legs: ${secs.join(', ')}\n\n`);
  process.stdout.write(`${legProfileTable(profile, ['hub', 'baseline'], top)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
