/**
 * Smoke run of the issue-16 benchmark scenarios at a toy size: they start their processes, drive
 * them and produce every figure. No timing is asserted (benchmarks live in `npm run bench`,
 * BENCHMARKS.md); only that the machinery works and FAN-01 holds at a load any machine carries.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CEIL, ceilingFigures, climb } from '../../bench/scenarios/b-ceil.js';
import { COST, measureCost } from '../../bench/scenarios/b-cost.js';
import { COST_TEAM, costSplit, measureTeamCost, type LegCpu } from '../../bench/scenarios/b-cost-team.js';
import { bLong } from '../../bench/scenarios/b-long.js';
import { runTeam, TEAM } from '../../bench/scenarios/b-scale.js';
import { runToExit } from '../helpers/run-to-exit.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs a bench harness (`node [nodeFlags] --import tsx <script> [args]`) to its end and answers the JSON it printed; a failed run fails the test with its stderr. */
async function runHarness(nodeFlags: string[], script: string, args: string[]): Promise<unknown> {
  const run = await runToExit(process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args], { cwd: repoRoot });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as unknown;
}

/** One side's B-COST-TEAM legs: `count` of them, each with every CPU figure measured. */
function expectLegs(side: LegCpu[], count: number): void {
  expect(side.length).toBe(count);
  for (const leg of side) {
    for (const v of [leg.user, leg.system, leg.total, leg.load]) expect(Number.isFinite(v)).toBe(true);
    expect(leg.frames).toBeGreaterThan(0);
    // The steady part's moments on the monotonic clock (what a perf recording is split by): a leg's worth apart.
    expect(leg.window.to - leg.window.from).toBeGreaterThan(0);
  }
}

describe('bench scenarios (smoke)', () => {
  it('B-CEIL climbs on both sides, hub and fair baseline, and reports rates, latency and CPU per update', async () => {
    const steps = await climb({ ...CEIL, clients: 3, stepMs: 600, warmupMs: 150, firstRate: 50, factor: 2, maxRate: 60 }, () => undefined);
    for (const side of [steps.hub, steps.baseline]) {
      expect(side.map((s) => s.rate)).toEqual([50]);
      for (const s of side) {
        expect(s.complete).toBe(true);
        expect(s.delivered).toBeGreaterThan(0);
        expect(Number.isFinite(s.p99)).toBe(true);
        expect(Number.isFinite(s.serverNsPerUpdate)).toBe(true);
      }
    }
    const f = ceilingFigures(steps);
    expect(f.extra['steps']).toBeDefined();
  }, 120_000);

  it('B-COST alternates hub and fair baseline at one rate and reports server CPU per delivered update, every step complete', async () => {
    const steps = await measureCost({ ...COST, clients: 3, rate: 50, stepMs: 600, warmupMs: 150, steps: 2 }, () => undefined);
    for (const side of [steps.hub, steps.baseline]) {
      expect(side.length).toBe(2);
      for (const s of side) {
        expect(s.complete).toBe(true);
        expect(s.delivered).toBeGreaterThan(0);
        expect(Number.isFinite(s.serverNsPerUpdate)).toBe(true);
      }
    }
  }, 120_000);

  it('B-COST-TEAM holds a team on the hub and on the fair baseline at once, alternates their streams at two audience sizes, every leg gap-free', async () => {
    const lines: string[] = [];
    const setup = { ...COST_TEAM, sessions: 2, perSession: 4, shrinkTo: 2, legMs: 2_600, warmupMs: 500, pairs: 2 };
    const audiences = await measureTeamCost(setup, (l) => lines.push(l));
    expect(audiences.map((a) => a.perSession)).toEqual([4, 2]);
    for (const a of audiences) for (const side of [a.hub, a.baseline]) expectLegs(side, 2);
    // The second pair starts with the baseline: both sides see the same minutes.
    expect(lines.map((l) => l.split(':')[0]).slice(0, 4)).toEqual([
      '4 per session, pair 1 hub',
      '4 per session, pair 1 baseline',
      '4 per session, pair 2 baseline',
      '4 per session, pair 2 hub',
    ]);
    // Each leg says what the load process spent reading that side's frames.
    expect(lines.filter((l) => / pair \d (hub|baseline): .*; load process [\d.]+ %$/.test(l))).toHaveLength(8);
    for (const side of ['hub', 'baseline'] as const) {
      const split = costSplit(setup, audiences[0]!, audiences[1]!, side);
      expect(Number.isFinite(split.perEventUs) && Number.isFinite(split.perDeliveryUs)).toBe(true);
    }
  }, 120_000);

  it("B-COST-TEAM against another checkout puts a second hub in the baseline's place, with a team of its own, every leg gap-free", async () => {
    vi.stubEnv('BENCH_COST_TEAM_AGAINST', repoRoot);
    try {
      const lines: string[] = [];
      const setup = { ...COST_TEAM, sessions: 2, perSession: 3, shrinkTo: 0, legMs: 2_600, warmupMs: 500, pairs: 1 };
      const audiences = await measureTeamCost(setup, (l) => lines.push(l));
      expect(audiences.map((a) => a.perSession)).toEqual([3]);
      for (const side of [audiences[0]!.hub, audiences[0]!.baseline]) expectLegs(side, 1);
      // The other side is named by its checkout: a hub's legs, not the bare baseline's.
      expect(lines.map((l) => l.split(':')[0])).toEqual(['3 per session, pair 1 hub', `3 per session, pair 1 hub of ${repoRoot}`]);
    } finally {
      vi.unstubAllEnvs();
    }
  }, 120_000);

  it("B-COST-TEAM with the hub hosted in the baseline's process measures both sides in that one process, every leg gap-free", async () => {
    const lines: string[] = [];
    const setup = { ...COST_TEAM, sessions: 2, perSession: 3, shrinkTo: 0, legMs: 2_600, warmupMs: 500, pairs: 1, hosted: 1 };
    const audiences = await measureTeamCost(setup, (l) => lines.push(l));
    expect(lines[0]).toMatch(/^the hub runs inside the baseline's process \(pid \d+\)$/);
    expect(audiences.map((a) => a.perSession)).toEqual([3]);
    for (const side of [audiences[0]!.hub, audiences[0]!.baseline]) expectLegs(side, 1);
  }, 120_000);

  it('B-COST-TEAM with both sides streaming together reads both over the same windows, every leg gap-free, the same frames', async () => {
    const lines: string[] = [];
    const setup = { ...COST_TEAM, sessions: 2, perSession: 3, shrinkTo: 2, legMs: 2_600, warmupMs: 500, pairs: 2, together: 1 };
    const audiences = await measureTeamCost(setup, (l) => lines.push(l));
    expect(audiences.map((a) => a.perSession)).toEqual([3, 2]);
    for (const a of audiences) {
      for (const side of [a.hub, a.baseline]) expectLegs(side, 2);
      // One window per pair: both sides' CPU was read over the same seconds.
      a.hub.forEach((leg, k) => expect(leg.window).toEqual(a.baseline[k]!.window));
    }
    expect(lines.map((l) => l.split(':')[0]).slice(0, 2)).toEqual([
      '3 per session, pair 1 hub (together)',
      '3 per session, pair 1 baseline (together)',
    ]);
  }, 120_000);

  it('the fan-out micro-harness pushes rounds through the hub, its gateway alone and the baseline, every round complete, and reports each figure', async () => {
    const events = 8;
    const burst = 2;
    // A round that is not complete (FAN-01) or a side that fails ends the harness with an error.
    const out = (await runHarness([], 'bench/fanout-micro.ts', [
      ...['--rounds', '2', '--warmup', '1', '--clients', '3', '--events', String(events), '--burst', String(burst)],
      ...['--sides', 'hub,gateway,baseline'],
    ])) as Record<string, { nsPerUpdate?: { median: number }; writesPerClient?: { min: number } }>;
    for (const side of ['hub', 'gateway', 'baseline']) {
      expect(out[side]?.nsPerUpdate?.median).toBeGreaterThan(0);
      // At least one write per client per turn: the batches reached the sockets.
      expect(out[side]?.writesPerClient?.min).toBeGreaterThanOrEqual(events / burst);
    }
    expect(out['hub/baseline']).toBeDefined();
    expect(out['gateway/baseline']).toBeDefined();
  }, 120_000);

  it('the per-event micro-harness streams turns through the daemon, every round complete, and reports each figure', async () => {
    // A turn that does not end, or a client short of its last update (FAN-01), ends the harness with an error.
    const out = (await runHarness(['--max-semi-space-size=2'], 'bench/event-micro.ts', [
      '--rounds',
      '2',
      '--warmup',
      '1',
      '--clients',
      '2',
      '--events',
      '60',
      '--rate',
      '200',
    ])) as Record<string, { median: number } | undefined>;
    // The stream's events and the turn's own few updates, every round.
    expect(out['updatesPerRound']?.median).toBeGreaterThanOrEqual(60);
    for (const key of ['bytesPerEvent', 'cpuUsPerEvent']) expect(out[key]?.median, key).toBeGreaterThan(0);
    for (const key of [
      'scavengesPer1kEvents',
      'scavengeUsPerEvent',
      'survivedBytesPerScavenge',
      'promotedBytesPerEvent',
      'fullGcsPerRound',
    ])
      expect(Number.isFinite(out[key]?.median), key).toBe(true);
  }, 120_000);

  it('the journal-heap harness fills journals and reports what they hold on the heap and outside it', async () => {
    const out = (await runHarness(['--expose-gc'], 'bench/journal-heap.ts', ['--sessions', '2', '--updates', '300'])) as Record<
      string,
      number | undefined
    >;
    expect([out['sessions'], out['updatesPerSession']]).toEqual([2, 300]);
    // 600 frames of about 400 bytes are stored outside the heap.
    expect(out['outsideHeapMiB']).toBeGreaterThan(0);
    for (const key of ['heapMiB', 'heapBytesPerUpdate', 'fullGcMs']) expect(Number.isFinite(out[key]), key).toBe(true);
  }, 60_000);

  it('the state-stores harness fills the author book, the session marks and the audit log at two sizes and times their writes and reads', async () => {
    const sized = z.object({ entries: z.number(), changeMs: z.number(), deleteMs: z.number(), fileKiB: z.number() });
    const store = z.object({ small: sized, full: sized, changeFullOverSmall: z.number() });
    const auditLog = z.object({
      entries: z.number(),
      startMs: z.number(),
      coldPageMs: z.number(),
      firstPageMs: z.number(),
      lastPageMs: z.number(),
    });
    const out = z
      .object({ authors: store, marks: store, audit: z.object({ small: auditLog, full: auditLog, lastOverFirstPage: z.number() }) })
      .parse(
        await runHarness([], 'bench/state-stores.ts', [
          '--full-authors',
          '60',
          '--full-marks',
          '30',
          '--full-audit',
          '700',
          '--small',
          '5',
          '--reps',
          '4',
        ]),
      );
    expect([out.authors.small.entries, out.authors.full.entries, out.marks.small.entries, out.marks.full.entries]).toEqual([5, 60, 5, 30]);
    expect([out.audit.small.entries, out.audit.full.entries]).toEqual([5, 700]);
  }, 60_000);

  it('B-LONG seeds two histories with the hub state their turns would leave, measures both and times a teammate’s prompts', async () => {
    // 31 sessions: the scenario opens the 11th, 21st and 31st; 12 turns stay under one web page (no cursor asked).
    vi.stubEnv('BENCH_LONG_SESSIONS', '31');
    vi.stubEnv('BENCH_LONG_TURNS', '12');
    vi.stubEnv('BENCH_LONG_SETTLE_MS', '0');
    try {
      const r = await bLong.run(0, () => undefined);
      const extra = z
        .object({
          short: z.object({ promptProbeMaxMs: z.number(), acpListBytes: z.number() }),
          long: z.object({ promptProbeMaxMs: z.number(), acpListBytes: z.number() }),
          stallRatio: z.number(),
        })
        .parse(r.extra);
      expect(Number.isFinite(r.value)).toBe(true);
      for (const size of [extra.short, extra.long]) expect(size.promptProbeMaxMs).toBeGreaterThan(0);
      expect(extra.stallRatio).toBeGreaterThan(0);
    } finally {
      vi.unstubAllEnvs();
    }
  }, 180_000);

  it('B-SCALE attaches a team over several sessions, streams on the shared grid, storms, reports its figures and the same stream on the fair baseline', async () => {
    const r = await runTeam(
      // One RSS sample a short settle after its GC: the figure is only checked to be a number here.
      {
        ...TEAM,
        sessions: 2,
        perSession: 4,
        streamMs: 1_500,
        warmupMs: 300,
        stormAfterMs: 500,
        awayMs: 200,
        idleMs: 1_000,
        rssSamples: 1,
        rssSettleMs: 100,
      },
      () => undefined,
    );
    expect(r.extra['clients']).toBe(10);
    for (const key of ['stormMs', 'marginalIdleClientKiB', 'idleHubCpuPercent']) expect(Number.isFinite(r.extra[key])).toBe(true);
    // The storm's CPU, each process's (read in clock ticks: a storm of eight may take none).
    const stormCpu = r.extra['stormCpuMs'] as Record<string, number>;
    for (const who of ['hub', 'load']) expect(stormCpu[who]).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(r.value)).toBe(true);
    // The same team stream on the bare baseline, gap-free (it throws otherwise), and where the hub's tail came from.
    expect(Number.isFinite(r.baseline)).toBe(true);
    const tail = r.extra['streamTail'] as {
      cpuPercent: Record<string, number>;
      hubLoopDelayMs: { p99: number };
      hubFramesPerUpdate: number;
    };
    for (const v of [...Object.values(tail.cpuPercent), tail.hubLoopDelayMs.p99, tail.hubFramesPerUpdate])
      expect(Number.isFinite(v)).toBe(true);
    // Every goal judged, the two against the baseline's same stream among them.
    const goals = r.extra['goals'] as Record<string, unknown>;
    expect(Object.keys(goals).sort()).toEqual([
      'cpuWithin110OfBaseline',
      'idleUnder2Percent',
      'marginalUnder30KiB',
      'p99Under10ms',
      'p99Within125OfBaseline',
      'stormUnder3s',
    ]);
    for (const v of Object.values(goals)) expect(typeof v).toBe('boolean');
  }, 120_000);
});
