import fs from 'node:fs';
import path from 'node:path';
import { profileMarkdown, summariseProfile } from '../lib/cpuprofile.js';
import { repoRoot } from '../lib/daemon-process.js';
import { round, type Scenario } from '../lib/scenario.js';
import { LOAD_L, openStreamSession, runStream } from '../lib/stream-session.js';

/** How long the profiled stream runs at the ceiling rate. */
const CEILING_STREAM_MS = 15_000;

/**
 * The rate to profile at: the hub's ceiling from the last B-CEIL result (where
 * the time goes at the ceiling), else load L's rate.
 */
export function profileRate(): { rate: number; source: string } {
  try {
    const r = JSON.parse(fs.readFileSync(path.join(repoRoot, 'bench', 'results', 'B-CEIL.json'), 'utf8')) as {
      value?: unknown;
      recordedAt?: unknown;
    };
    if (typeof r.value === 'number' && r.value > 0)
      return { rate: r.value, source: `the hub's ceiling in bench/results/B-CEIL.json (${String(r.recordedAt)})` };
  } catch {
    // No ceiling measured yet.
  }
  return { rate: LOAD_L.rate, source: 'load L (no B-CEIL result yet)' };
}

/**
 * PROFILE (not a requirement id): one run with the daemon under `--cpu-prof` at the hub's ceiling
 * rate (100 clients); the profile's self time by area and by function goes to
 * bench/results/profile-ceiling.md for BENCHMARKS.md. The figure is the daemon's busy share of
 * the profiled time; details add the CPU ns per delivered update.
 */
export const profileLoadL: Scenario = {
  id: 'PROFILE',
  proves: [],
  goal: 'where the hub spends its time at its ceiling rate (daemon --cpu-prof, one run)',
  unit: '% busy',
  runs: 1,
  passes: () => true,
  async run(_i, log) {
    const dir = fs.mkdtempSync(path.join(repoRoot, 'bench', 'results', '.prof-'));
    const { rate, source } = profileRate();
    const setup = { ...LOAD_L, rate, durationMs: CEILING_STREAM_MS, daemon: { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] } };
    const s = await openStreamSession(setup);
    let p99 = Number.NaN;
    let delivered = 0;
    try {
      const o = await runStream(s, setup, [...Array(setup.clients).keys()]);
      p99 = o.report.latency.p99;
      delivered = o.finalSeq * setup.clients;
    } finally {
      await s.close();
    }
    const pid = s.daemon.pid;
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${pid}.`));
    if (!file) throw new Error(`no profile of daemon pid ${pid} in ${dir} (did it exit cleanly?)`);
    const summary = summariseProfile(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    const busyMs = (summary.totalMs * summary.busyPercent) / 100;
    const nsPerUpdate = delivered > 0 ? round((busyMs * 1e6) / delivered, 0) : Number.NaN;
    const md = `# Daemon CPU profile at ${rate} events/s × ${setup.clients} clients\n\nRate: ${source}. p99 under the profiler: ${round(p99, 2)} ms; busy CPU per delivered update: ${nsPerUpdate} ns (${delivered} updates, whole profile).\n\n${profileMarkdown(summary)}\n`;
    fs.writeFileSync(path.join(repoRoot, 'bench', 'results', 'profile-ceiling.md'), md);
    fs.rmSync(dir, { recursive: true, force: true });
    log(
      `busy ${summary.busyPercent}%; top: ${summary.top
        .slice(0, 5)
        .map((r) => `${r.name} ${r.percent}%`)
        .join(', ')}`,
    );
    return {
      value: summary.busyPercent,
      extra: {
        rate,
        clients: setup.clients,
        rateSource: source,
        p99UnderProfilerMs: round(p99, 3),
        busyNsPerUpdate: nsPerUpdate,
        areas: summary.areas,
        top: summary.top.slice(0, 15),
      },
    };
  },
};
