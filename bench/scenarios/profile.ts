import fs from 'node:fs';
import path from 'node:path';
import { profileMarkdown, summariseProfile } from '../lib/cpuprofile.js';
import { repoRoot } from '../lib/daemon-process.js';
import { round, type Scenario } from '../lib/scenario.js';
import { LOAD_L, openStreamSession, runStream } from '../lib/stream-session.js';

/**
 * PROFILE (not a TEST-PLAN id): one load-L run with the daemon under `--cpu-prof`; the profile's
 * self time by area and by function goes to bench/results/profile-load-l.md for BENCHMARKS.md.
 * The figure is the daemon's busy share of the profiled time.
 */
export const profileLoadL: Scenario = {
  id: 'PROFILE',
  proves: [],
  goal: 'where the hub spends its time at load L (daemon --cpu-prof, one run)',
  unit: '% busy',
  runs: 1,
  passes: () => true,
  async run(_i, log) {
    const dir = fs.mkdtempSync(path.join(repoRoot, 'bench', 'results', '.prof-'));
    const setup = { ...LOAD_L, daemon: { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] } };
    const s = await openStreamSession(setup);
    let p99 = Number.NaN;
    try {
      const o = await runStream(s, setup, [...Array(setup.clients).keys()]);
      p99 = o.report.latency.p99;
    } finally {
      await s.close();
    }
    const pid = s.daemon.pid;
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && f.includes(`.${pid}.`));
    if (!file) throw new Error(`no profile of daemon pid ${pid} in ${dir} (did it exit cleanly?)`);
    const summary = summariseProfile(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    const md = `# Daemon CPU profile at load L\n\np99 under the profiler: ${round(p99, 2)} ms.\n\n${profileMarkdown(summary)}\n`;
    fs.writeFileSync(path.join(repoRoot, 'bench', 'results', 'profile-load-l.md'), md);
    fs.rmSync(dir, { recursive: true, force: true });
    log(`busy ${summary.busyPercent}%; top: ${summary.top.slice(0, 5).map((r) => `${r.name} ${r.percent}%`).join(', ')}`);
    return { value: summary.busyPercent, extra: { p99UnderProfilerMs: round(p99, 3), areas: summary.areas, top: summary.top.slice(0, 15) } };
  },
};
