import fs from 'node:fs';
import path from 'node:path';
import { BaselineProcess } from '../lib/baseline-process.js';
import { GRID, gridFromEnv } from '../lib/bench-prompt.js';
import { DaemonProcess } from '../lib/daemon-process.js';
import { hubTeamGaps, openHubTeam, settleHubTeam, streamHubTeam, teamOf } from '../lib/hub-team.js';
import { LoadDriver } from '../lib/load-driver.js';
import { median, phaseMsFromEnv, round, switchFromEnv, type Scenario } from '../lib/scenario.js';
import { measureInTurn, measureTogether, type LegCpu, type Side } from '../lib/team-legs.js';
import { baselineGroup, baselinePrompter, baselineTeamGaps, connectBaselineTeam, streamBaselineTeam } from '../lib/team-baseline.js';

/**
 * B-COST-TEAM: the server CPU per delivered update in a team's shape — B-SCALE's team stream, 10
 * sessions × 100 clients, each client sent one frame per event-loop turn — hub against the fair bare
 * baseline (bench/baseline-server.ts), taking turns within one run.
 *
 * B-SCALE measures this once a run, the hub's stream and then the baseline's minutes later, each
 * from its own load process; on a shared 2-core machine the two CPU figures moved 16–26 % between
 * runs of the same code, more than what was measured. Here both servers hold their teams at once
 * on one load process, and stream in alternating legs (hub first in even pairs, baseline first in odd
 * ones), so every pair shares the same minutes, the same load client and its warmed-up sockets. Each
 * leg's CPU is the serving process's over the stream's steady part (after `warmupMs`, until a second
 * before the stream ends), split into user and system time; both sides deliver the same frames at the
 * same rate, so CPU % compares cost per delivered update. Every leg must stay gap-free (FAN-01).
 *
 * `BENCH_COST_TEAM_AGAINST=<checkout>` puts a second hub, that checkout's (built), in the baseline's
 * place, with a team of its own on the same load process: the hub's own code before and after a
 * change, measured as the baseline is (the "baseline" figures are then that hub's).
 * `BENCH_COST_TEAM_HOSTED=1` starts the hub inside the baseline's process (bench/lib/hosted-hub.ts)
 * instead of as its own: both sides' legs are then one process's CPU, so what is left of the ratio is
 * what the hub's code and its clients cost, without what a process running a hub costs everything in it.
 * `BENCH_COST_TEAM_AUDIENCE=<per session>,<then>` sets the two audience sizes (default 100,50): `2,1` measures
 * the event stream itself, with almost no fan-out. `BENCH_PHASE_MS=<ms>` staggers the sessions' streams (below).
 * `BENCH_COST_TEAM_TOGETHER=1` streams both sides at once in every pair, each process's CPU read over the same
 * window: what the machine does meanwhile (another tenant, the load process's own pace) falls on both alike,
 * where alternating legs, 12 s apart, each meet their own minutes. It is the instrument for a hub against a hub
 * (with `BENCH_COST_TEAM_AGAINST`), not for the goal: beside the hub the bare baseline costs more than alone (most
 * likely from sharing the cores' caches with a larger working set) and the ratio reads low (BENCHMARKS.md, thirty-second session).
 */
export const COST_TEAM = {
  sessions: 10,
  perSession: 100,
  /**
   * Then each session keeps this many clients (the rest disconnect) for as many pairs again: the
   * CPU at two audience sizes splits each side's cost into a part per event and a part per delivery.
   * 0: one audience only.
   */
  shrinkTo: 50,
  /** Events/s per session while streaming (B-SCALE's team rate). */
  rate: 20,
  bytes: 300,
  /** One leg's stream. */
  legMs: 12_000,
  warmupMs: 2_000,
  phaseMs: 0,
  /**
   * Where the sessions stream on the shared grid (bench/lib/bench-prompt.ts `GRID`), both sides alike: 1 (even,
   * the default) session k's events k × 5 ms into each 50-ms period, as B-SCALE streams; 2 all at once; 0 each
   * from its own prompt — the baseline's ten in lockstep, the hub's a few ms apart — as every figure before the
   * thirty-seventh session's (`BENCH_COST_TEAM_GRID`).
   */
  grid: GRID.even,
  /** Hub/baseline pairs of legs per audience size. */
  pairs: 4,
  /** 1: the hub runs inside the baseline's process (`BENCH_COST_TEAM_HOSTED`); 0: each in its own. */
  hosted: 0,
  /** 1: both sides stream at once in every pair (`BENCH_COST_TEAM_TOGETHER`); 0: in alternating legs. */
  together: 0,
} as const;

export type CostTeamSetup = { -readonly [K in keyof typeof COST_TEAM]: number };

/**
 * `BENCH_PHASE_MS` (bench/lib/scenario.ts): the sessions' streams staggered (default 0: all at once; the hub's
 * prompts reach the agent a few ms apart, the baseline's together), the last starting within the warm-up.
 */
function phaseFromEnv(): Partial<CostTeamSetup> {
  const phaseMs = phaseMsFromEnv();
  if (phaseMs === 0) return {};
  // Every session must be streaming through a leg's steady part, which starts warmupMs in.
  if ((COST_TEAM.sessions - 1) * phaseMs > COST_TEAM.warmupMs)
    throw new Error(
      `BENCH_PHASE_MS is at most ${Math.floor(COST_TEAM.warmupMs / (COST_TEAM.sessions - 1))} ms (the last session starts within the warm-up)`,
    );
  return { phaseMs };
}

/** `BENCH_COST_TEAM_AUDIENCE`: `perSession,shrinkTo` instead of the defaults. */
function audienceFromEnv(): Partial<CostTeamSetup> {
  const text = process.env.BENCH_COST_TEAM_AUDIENCE;
  if (!text) return {};
  const m = /^(\d+),(\d+)$/.exec(text);
  if (!m) throw new Error('BENCH_COST_TEAM_AUDIENCE is <clients per session>,<then> (e.g. 2,1)');
  return { perSession: Number(m[1]), shrinkTo: Number(m[2]) };
}

/** `BENCH_COST_TEAM_HOSTED=1`: the hub in the baseline's process. */
function hostedFromEnv(): Partial<CostTeamSetup> {
  return switchFromEnv('BENCH_COST_TEAM_HOSTED', "the hub in the baseline's process") ? { hosted: 1 } : {};
}

export type { LegCpu } from '../lib/team-legs.js';

/** `BENCH_COST_TEAM_TOGETHER=1`: both sides stream at once. */
function togetherFromEnv(): Partial<CostTeamSetup> {
  return switchFromEnv('BENCH_COST_TEAM_TOGETHER', 'both sides stream at once') ? { together: 1 } : {};
}

/** The legs of both sides at one audience size (clients per session). */
export interface AudienceLegs {
  perSession: number;
  hub: LegCpu[];
  baseline: LegCpu[];
}

type TeamCostShape = CostTeamSetup & { streamMs: number };

/** A hub's side: its team opened on the load client's slots from `first` on. */
async function hubSide(d: DaemonProcess, load: LoadDriver, shape: TeamCostShape, first: number, name: string): Promise<Side> {
  await d.waitHealthy(true);
  const team = await openHubTeam(d, load, shape, undefined, first);
  const side: Side = {
    name,
    pid: d.pid,
    groups: Array.from({ length: shape.sessions }, (_, k) => teamOf(shape, k, undefined, first)),
    prompters: Array.from({ length: shape.sessions }, (_, k) => team.first + k),
    stream: async () => {
      await streamHubTeam(load, team, shape);
      await settleHubTeam(load, shape, side.groups, team.first);
    },
    gaps: () => hubTeamGaps(load, shape, side.groups),
  };
  return side;
}

/** The bare baseline's side: its team on the load client's next slots, from `first` on. */
async function baselineSide(server: BaselineProcess, load: LoadDriver, shape: TeamCostShape, first: number): Promise<Side> {
  await connectBaselineTeam(server, load, shape);
  const side: Side = {
    name: 'baseline',
    pid: server.pid,
    groups: Array.from({ length: shape.sessions }, (_, k) => baselineGroup(shape, k, first)),
    prompters: Array.from({ length: shape.sessions }, (_, k) => baselinePrompter(k, first)),
    stream: () => streamBaselineTeam(server, load, shape, side.groups),
    gaps: () => baselineTeamGaps(load, shape, side.groups, first),
  };
  return side;
}

/** A baseline process that also runs the hub (`BENCH_COST_TEAM_HOSTED`): both sides answer to its one pid. */
async function hubInBaseline(simArgs: string[]): Promise<{ server: BaselineProcess; hub: DaemonProcess }> {
  const launch = DaemonProcess.prepare({ simArgs });
  const server = await BaselineProcess.start({ hub: launch });
  try {
    const hub = await DaemonProcess.adopt(launch.root, server.process);
    if (hub.pid !== server.pid) throw new Error(`the hosted hub names pid ${hub.pid}, the baseline's process is ${server.pid}`);
    return { server, hub };
  } catch (err) {
    await server.stop();
    fs.rmSync(launch.root, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Runs `pairs` alternating legs on each side with the whole team, then (when `shrinkTo` > 0) as many
 * again with `shrinkTo` clients per session; throws when a side was not gap-free.
 */
export async function measureTeamCost(s: CostTeamSetup, log: (line: string) => void): Promise<AudienceLegs[]> {
  if (s.legMs - 1_000 - s.warmupMs < 1_000) throw new Error('legMs leaves no steady part after warmupMs');
  if (s.shrinkTo < 0 || s.shrinkTo >= s.perSession) throw new Error('shrinkTo must be 0 or fewer than perSession');
  const shape = { ...s, streamMs: s.legMs };
  const simArgs = ['--event-rate', String(s.rate), '--event-bytes', String(s.bytes), '--event-duration-ms', String(s.legMs)];
  const against = process.env.BENCH_COST_TEAM_AGAINST;
  if (against && s.hosted)
    throw new Error("BENCH_COST_TEAM_HOSTED puts the hub in the baseline's process: not with BENCH_COST_TEAM_AGAINST");
  if (s.together && s.hosted) throw new Error("BENCH_COST_TEAM_TOGETHER reads each side's process: not with BENCH_COST_TEAM_HOSTED");
  let server: BaselineProcess | undefined;
  let d: DaemonProcess;
  if (s.hosted) {
    ({ server, hub: d } = await hubInBaseline(simArgs));
    log(`the hub runs inside the baseline's process (pid ${d.pid})`);
  } else d = await DaemonProcess.spawn({ simArgs });
  const out: AudienceLegs[] = [];
  let other: DaemonProcess | undefined;
  let load: LoadDriver | undefined;
  try {
    if (against) other = await DaemonProcess.spawn({ simArgs, checkout: path.resolve(against) });
    else server ??= await BaselineProcess.start();
    load = await LoadDriver.start();
    const hub = await hubSide(d, load, shape, 0, 'hub');
    // The other side's clients take the slots after the hub's prompters and team.
    const first = s.sessions * (s.perSession + 1);
    const sides = {
      hub,
      baseline: other ? await hubSide(other, load, shape, first, `hub of ${against}`) : await baselineSide(server!, load, shape, first),
    };
    for (const perSession of s.shrinkTo > 0 ? [s.perSession, s.shrinkTo] : [s.perSession]) {
      if (perSession < s.perSession) {
        const both = [sides.hub, sides.baseline];
        await load.send({ op: 'close', clients: both.flatMap((side) => side.groups.flatMap((g) => g.slice(perSession))) });
        for (const side of both) side.groups = side.groups.map((g) => g.slice(0, perSession));
      }
      const legs: AudienceLegs = { perSession, hub: [], baseline: [] };
      for (let k = 0; k < s.pairs; k++) {
        const pair = s.together ? await measureTogether(sides, load, s) : await measureInTurn(sides, load, s, k % 2 === 0);
        for (const key of pair.order) {
          const cpu = pair[key];
          legs[key].push(cpu);
          log(
            `${perSession} per session, pair ${k + 1} ${sides[key].name}${s.together ? ' (together)' : ''}: ${cpu.total} % of a core (user ${cpu.user}, system ${cpu.system}); load process ${cpu.load} %`,
          );
        }
      }
      const gaps = [...(await sides.hub.gaps()), ...(await sides.baseline.gaps())];
      if (gaps.length > 0) throw new Error(`FAN-01 failed: ${gaps.slice(0, 3).join('; ')}`);
      sameFrames(legs);
      out.push(legs);
    }
  } finally {
    await load?.stop();
    await server?.stop();
    await other?.stop();
    await d.stop();
  }
  return out;
}

/**
 * Throws unless every leg of both sides delivered the same number of stream frames: each leg streams
 * the same events, so a difference means one side's events reach more sockets than the other's, and
 * the CPU per delivered update would not compare (the baseline was once a client short per session:
 * BENCHMARKS.md, twenty-ninth session).
 */
export function sameFrames(a: Pick<AudienceLegs, 'perSession' | 'hub' | 'baseline'>): void {
  const counts = [...a.hub, ...a.baseline].map((l) => l.frames);
  if (counts.every((n) => n === counts[0])) return;
  throw new Error(
    `${a.perSession} per session: the sides' clients were not sent the same frames (hub ${of(a.hub, 'frames').join(' ')}, baseline ${of(a.baseline, 'frames').join(' ')} per leg)`,
  );
}

const of = (legs: LegCpu[], k: Exclude<keyof LegCpu, 'window'>) => legs.map((l) => l[k]);

/** One audience's figures: each side's median leg, and the ratio of medians and per pair. */
function audienceFigures(a: AudienceLegs) {
  const hub = median(of(a.hub, 'total'));
  const baseline = median(of(a.baseline, 'total'));
  return {
    perSession: a.perSession,
    ratio: round(hub / baseline, 3),
    // Per pair (the same minutes): the spread the noise leaves.
    pairRatios: a.hub.map((h, k) => round(h.total / (a.baseline[k]?.total ?? Number.NaN), 3)),
    hub: { total: of(a.hub, 'total'), user: of(a.hub, 'user'), system: of(a.hub, 'system') },
    baseline: { total: of(a.baseline, 'total'), user: of(a.baseline, 'user'), system: of(a.baseline, 'system') },
    medians: { hub: round(hub, 2), baseline: round(baseline, 2) },
    load: { hub: round(median(of(a.hub, 'load')), 2), baseline: round(median(of(a.baseline, 'load')), 2) },
    // Stream frames delivered per leg: equal on both sides (sameFrames).
    frames: { hub: of(a.hub, 'frames'), baseline: of(a.baseline, 'frames') },
    // Each leg's steady part on the monotonic clock, for splitting a profile of the run (bench/perf-legs.ts).
    windows: { hub: a.hub.map((l) => l.window), baseline: a.baseline.map((l) => l.window) },
  };
}

/**
 * Each side's cost split from two audience sizes: CPU (ms/s) = events/s × (per event + clients ×
 * per delivery), solved for both parts, in µs. A session's clients are its team and its prompter
 * (the baseline's stand-in for it). Medians of a few legs each, so a rough split.
 */
export function costSplit(s: CostTeamSetup, big: AudienceLegs, small: AudienceLegs, side: 'hub' | 'baseline') {
  const eventsPerS = s.sessions * s.rate;
  const msPerS = (a: AudienceLegs) => median(of(a[side], 'total')) * 10;
  const perDeliveryMs = (msPerS(big) - msPerS(small)) / (eventsPerS * (big.perSession - small.perSession));
  const perEventMs = msPerS(big) / eventsPerS - (big.perSession + 1) * perDeliveryMs;
  return { perEventUs: round(perEventMs * 1000, 1), perDeliveryUs: round(perDeliveryMs * 1000, 2) };
}

/**
 * Why a run's ratio is no reading of the goal (the hub against the bare baseline, each streaming alone in its own
 * process), or undefined when it is one. Such a run still reports its figures; it just never passes.
 */
export function notTheGoal(s: Pick<CostTeamSetup, 'together' | 'hosted'>, against: string | undefined): string | undefined {
  if (against) return 'a hub against another hub';
  if (s.together) return 'both sides at once: beside the hub the baseline costs more than alone';
  if (s.hosted) return "the hub inside the baseline's process";
  return undefined;
}

/** B-COST-TEAM: passes when the hub's median steady CPU with the whole team is ≤ 1.1× the baseline's (alternating legs). */
export const bCostTeam: Scenario = {
  id: 'B-COST-TEAM',
  proves: [],
  goal: `server CPU per delivered update in a team's stream (${COST_TEAM.sessions} × ${COST_TEAM.perSession} clients, ${COST_TEAM.rate} ev/s each), hub ≤ 1.1× the fair bare baseline (alternating legs)`,
  unit: '% of a core',
  runs: 1,
  passes: (s) => s.details.every((d) => d['notTheGoal'] === undefined) && (s.ratio ?? Number.POSITIVE_INFINITY) <= 1.1,
  async run(_i, log) {
    const setup = {
      ...COST_TEAM,
      ...audienceFromEnv(),
      ...phaseFromEnv(),
      ...hostedFromEnv(),
      ...togetherFromEnv(),
      grid: gridFromEnv('BENCH_COST_TEAM_GRID', COST_TEAM.grid),
    };
    const method = notTheGoal(setup, process.env.BENCH_COST_TEAM_AGAINST);
    if (method !== undefined) log(`not a reading of the goal (${method}): the ratio is reported, never passed`);
    const audiences = await measureTeamCost(setup, log);
    const figures = audiences.map(audienceFigures);
    for (const f of figures)
      log(
        `${f.perSession} per session: hub/baseline ${f.ratio} (medians ${f.medians.hub} / ${f.medians.baseline} %); per pair ${f.pairRatios.join(' ')}; ` +
          `load process ${f.load.hub} / ${f.load.baseline} %`,
      );
    const [big, small] = audiences;
    const split =
      big !== undefined && small !== undefined
        ? { hub: costSplit(setup, big, small, 'hub'), baseline: costSplit(setup, big, small, 'baseline') }
        : undefined;
    if (split)
      log(
        `per event: hub ${split.hub.perEventUs} µs, baseline ${split.baseline.perEventUs} µs; ` +
          `per delivery: hub ${split.hub.perDeliveryUs} µs, baseline ${split.baseline.perDeliveryUs} µs`,
      );
    const whole = figures[0]!;
    return {
      value: whole.medians.hub,
      baseline: whole.medians.baseline,
      extra: {
        audiences: figures,
        split,
        hubInBaselineProcess: setup.hosted === 1,
        together: setup.together === 1,
        ...(method === undefined ? {} : { notTheGoal: method }),
      },
    };
  },
};
