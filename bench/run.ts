/**
 * `npm run bench [-- <id>…] [--runs N]`: runs the benchmark scenarios (the B-* requirements of docs/TESTING.md),
 * prints a table of medians and writes bench/results/<id>.json. Every scenario starts its own
 * daemon and load processes and stops them by pid; nothing here runs forever.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chooseEntry } from '../bin/entry.js';
import { daemonRoot, repoRoot } from './lib/daemon-process.js';
import { machineInfo, median, round, spread, type RunResult, type Scenario, type Summary } from './lib/scenario.js';
import { SCENARIOS } from './scenarios/index.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

function parseArgs(argv: string[]): { ids: string[]; runs: number | undefined } {
  const ids: string[] = [];
  let runs: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--runs') runs = Number(argv[++i]);
    else if (a.startsWith('--runs=')) runs = Number(a.slice('--runs='.length));
    else ids.push(a.toUpperCase());
  }
  return { ids, runs: runs !== undefined && Number.isInteger(runs) && runs > 0 ? runs : undefined };
}

function summarise(results: RunResult[]): Summary {
  const values = results.map((r) => r.value);
  const baselines = results.flatMap((r) => (r.baseline === undefined ? [] : [r.baseline]));
  const value = median(values);
  const baseline = baselines.length > 0 ? median(baselines) : undefined;
  // Ratios are taken per run (hub and baseline measured side by side), then the median.
  const ratios = results.flatMap((r) => (r.baseline ? [round(r.value / r.baseline, 3)] : []));
  return {
    value,
    values,
    baselines,
    ratios,
    details: results.map((r) => r.extra ?? {}),
    ...(baseline === undefined ? {} : { baseline }),
    ...(ratios.length > 0 ? { ratio: round(median(ratios), 3) } : {}),
  };
}

/**
 * Where results are written: bench/results, or `BENCH_RESULTS_DIR` (bench/alternate.ts points its runs
 * elsewhere, so taking settings in turn never overwrites a recorded figure).
 */
function resultsDir(): string {
  return process.env.BENCH_RESULTS_DIR ? path.resolve(process.env.BENCH_RESULTS_DIR) : path.join(repoRoot, 'bench', 'results');
}

/** What the daemon runs (bin/entry.js: dist/ when built and up to date, else the sources), so a figure says which. */
function daemonEntry(): string {
  const entry = chooseEntry(daemonRoot);
  const where = daemonRoot === repoRoot ? '' : ` of the checkout BENCH_DAEMON_ROOT names (…/${path.basename(daemonRoot)})`;
  return entry.kind === 'dist' ? `dist${where} (${entry.reason})` : `source${where} (tsx; ${entry.reason})`;
}

async function runScenario(s: Scenario, runsOverride: number | undefined, command: string): Promise<Record<string, unknown>> {
  const runs = runsOverride ?? s.runs;
  const results: RunResult[] = [];
  const errors: string[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = Date.now();
    try {
      const r = await s.run(i, (line) => out(`  ${s.id} run ${i + 1}: ${line}`));
      results.push(r);
      out(
        `  ${s.id} run ${i + 1}/${runs}: ${r.value} ${s.unit}${r.baseline === undefined ? '' : ` (baseline ${r.baseline})`} [${((Date.now() - t0) / 1000).toFixed(1)} s]`,
      );
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      errors.push(msg);
      out(`  ${s.id} run ${i + 1}/${runs}: FAILED ${msg}`);
    }
  }
  const summary = summarise(results);
  const pass = results.length > 0 && s.passes(summary);
  const record = {
    id: s.id,
    goal: s.goal,
    value: round(summary.value, 3),
    unit: s.unit,
    runs: results.length,
    ...(summary.ratio === undefined ? {} : { ratio: summary.ratio }),
    ...(summary.baseline === undefined ? {} : { baseline: round(summary.baseline, 3) }),
    pass,
    values: summary.values,
    ...(summary.baselines.length > 0 ? { baselines: summary.baselines } : {}),
    ...(summary.ratios.length > 0 ? { ratios: summary.ratios } : {}),
    // What one noisy run can move: the lowest and highest of each figure over the runs.
    ...(results.length > 1
      ? { spread: { value: spread(summary.values), baseline: spread(summary.baselines), ratio: spread(summary.ratios) } }
      : {}),
    details: results.map((r) => r.extra ?? {}),
    ...(errors.length > 0 ? { errors } : {}),
    machine: machineInfo(),
    daemonEntry: daemonEntry(),
    command,
    recordedAt: new Date().toISOString(),
  };
  const dir = resultsDir();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${s.id}.json`), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

async function main(): Promise<void> {
  const { ids, runs } = parseArgs(process.argv.slice(2));
  const unknown = ids.filter((id) => !SCENARIOS.some((s) => s.id === id));
  if (unknown.length > 0) {
    out(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const chosen = ids.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => ids.includes(s.id));
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const m = machineInfo();
  out(
    `zcode-hub bench — ${String(m.cores)} cores, ${String(m.memoryMiB)} MiB, Node ${String(m.node)}, load ${JSON.stringify(m.loadavg)}; daemon from ${daemonEntry()}`,
  );
  const started = Date.now();
  const rows: Array<Record<string, unknown>> = [];
  for (const s of chosen) {
    out(`${s.id}: ${s.goal}`);
    rows.push(await runScenario(s, runs, command));
  }
  out('');
  out('| id | goal | median (spread) | unit | runs | ratio / baseline (spread) | pass |');
  out('| --- | --- | --- | --- | --- | --- | --- |');
  const range = (r: Record<string, unknown>, key: string): string => {
    const s = (r['spread'] as Record<string, [number, number] | undefined> | undefined)?.[key];
    return s ? ` (${String(s[0])}–${String(s[1])})` : '';
  };
  for (const r of rows) {
    const cmp =
      r.ratio !== undefined
        ? `ratio ${String(r.ratio)}${range(r, 'ratio')}`
        : r.baseline !== undefined
          ? `baseline ${String(r.baseline)}${range(r, 'baseline')}`
          : '';
    out(
      `| ${String(r.id)} | ${String(r.goal)} | ${String(r.value)}${range(r, 'value')} | ${String(r.unit)} | ${String(r.runs)} | ${cmp} | ${r.pass ? 'yes' : 'NO'} |`,
    );
  }
  const rel = path.relative(repoRoot, resultsDir());
  out(`total ${((Date.now() - started) / 1000).toFixed(0)} s; results in ${rel.startsWith('..') ? resultsDir() : rel}/`);
}

await main();
