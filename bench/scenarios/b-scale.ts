import path from 'node:path';
import { DaemonProcess, repoRoot } from '../lib/daemon-process.js';
import { CLIENTS_PER_TOKEN, hubTeamGaps, openHubTeam, settleHubTeam, streamHubTeam, teamHeads, teamOf } from '../lib/hub-team.js';
import { waitDoneSchema } from '../lib/ipc-schema.js';
import { LoadDriver } from '../lib/load-driver.js';
import { childPids, CpuMeter } from '../lib/proc-cpu.js';
import { gcBetween, hubLoopDelayMs, promSum } from '../lib/prom-text.js';
import { phaseMsFromEnv, round, type Scenario } from '../lib/scenario.js';
import { baselineTeamStream, steadyCpu } from '../lib/team-baseline.js';
import { GRID, gridFromEnv } from '../lib/bench-prompt.js';

/**
 * B-SCALE (requirement B-SCALE): a 1,000-client team on the default limits (connectionsTotal 1,024;
 * connectionsPerToken 32, so 25 clients per minted token). 10 sessions × 100 team clients, plus
 * one prompting client per session (1,010 sockets). Its figures, each with its goal:
 *
 * - marginal RSS per idle client between 500 and 1,000 attached team clients (after forced full
 *   GCs, as B-MEM) < 30 KiB;
 * - the hub's CPU with all of them idle (heartbeats only) over one heartbeat interval < 2 % of a core;
 * - p99 child stdout → client at a team's rate (every session streaming `rate` events/s —
 *   what coalesced streams of an active team look like), FAN-01 held: ≤ 1.25× the fair bare
 *   baseline's on the same stream (the sessions on the shared grid, `grid`), and under 10 ms;
 * - the hub's CPU over that stream's steady part ≤ 1.1× the baseline's (each measured once a run,
 *   minutes apart: B-COST-TEAM reads the same ratio in alternating legs, the careful figure);
 * - a reconnect storm: all 1,000 team clients drop mid-stream and come back with `afterSeq`;
 *   time until every one holds its session's head seq at reconnect, gap-free, < 3 s.
 *
 * The prompting clients stay connected (a turn belongs to whoever started it). A real team's
 * storm comes from many addresses: the clients come back from `stormAddresses` loopback source
 * addresses, `stormConcurrency` reconnects in flight at once — under both pre-auth caps
 * (LIMITS.unauthConnectionsPerAddress 64, unauthConnectionsTotal 256), which would otherwise
 * close the oldest upgrades (a storm from one address could keep only 64 in flight).
 */
export const TEAM = {
  sessions: 10,
  perSession: 100,
  /** Events/s per session while streaming. */
  rate: 20,
  bytes: 300,
  streamMs: 20_000,
  warmupMs: 2_000,
  /** The storm starts this long into its stream and the clients stay away this long. */
  stormAfterMs: 3_000,
  awayMs: 1_000,
  stormConcurrency: 200,
  stormAddresses: 50,
  /** Session k starts streaming k × phaseMs after session 0 (`BENCH_PHASE_MS`, read when the scenario runs). */
  phaseMs: 0,
  /**
   * Where the sessions stream on the shared grid (bench/lib/bench-prompt.ts `GRID`), the hub's and the
   * baseline's alike, so both sides carry the same stream: 1 (even, the default) puts session k's events
   * k × 5 ms into each 50-ms period; 2 (together) all ten at once, the worst arrangement; 0: each session
   * ticks from its own prompt — the baseline's ten together, the hub's wherever the prompts' few ms apart
   * put them, as every figure before the thirty-seventh session's was (`BENCH_SCALE_GRID`).
   */
  grid: GRID.even,
  /** Idle CPU is measured over one heartbeat interval (LIMITS.heartbeatIntervalMs). */
  idleMs: 30_000,
  /** RSS is the lowest of this many samples, each taken this long after the last and 500 ms after a forced GC. */
  rssSamples: 3,
  rssSettleMs: 1_500,
} as const;
export type TeamSetup = { -readonly [K in keyof typeof TEAM]: number };

const MiB = 1024 * 1024;
/** The test plan's goals against the fair bare baseline on the same stream: p99 and server CPU. */
const P99_RATIO_GOAL = 1.25;
const CPU_RATIO_GOAL = 1.1;
const GC_ARGS = ['--expose-gc', '--require', path.join(repoRoot, 'bench', 'lib', 'gc-preload.cjs')];

/** RSS after forced full GCs: the lowest of `rssSamples` samples (V8 returns pages to the OS late, never early). */
async function settledRss(d: DaemonProcess, t: TeamSetup): Promise<number> {
  let low = Number.POSITIVE_INFINITY;
  for (let i = 0; i < t.rssSamples; i++) {
    await new Promise((r) => setTimeout(r, t.rssSettleMs));
    process.kill(d.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 500));
    low = Math.min(low, d.rss());
  }
  return low;
}

const roundAll = (d: { p99: number; max: number }) => ({ p99: round(d.p99, 2), max: round(d.max, 2) });
/** `slow@ms` per window of slow samples, for the run's log line. */
const windows = (ws: Array<{ atMs: number; slow: number }>) => ws.map((w) => `${w.slow}@${w.atMs}`).join(' ');

/**
 * One team run: the hub's four figures (the value is the streaming p99), then the same stream on
 * the fair bare baseline (its p99 is the run's baseline: what this machine and load client give a
 * broadcaster that only writes the frames).
 */
export async function runTeam(
  t: TeamSetup,
  log: (line: string) => void,
): Promise<{ value: number; baseline: number; extra: Record<string, unknown> }> {
  const hub = await runHubTeam(t, log);
  const bare = await baselineTeamStream(t);
  log(
    `baseline streaming, same shape: p50 ${round(bare.latency.p50, 2)} p99 ${round(bare.latency.p99, 2)} ms; ` +
      `load client loop delay p99 ${bare.loadClientLoopDelayMs.p99} max ${bare.loadClientLoopDelayMs.max} ms; ` +
      `slow samples by window ${windows(bare.slowWindows)}; ` +
      `CPU ${Object.entries(bare.cpuPercent)
        .map(([k, v]) => `${k} ${v} %`)
        .join(' ')} of a core (steady part: baseline ${bare.steadyCpuPercent?.['baseline'] ?? 'n/a'} %)`,
  );
  // The hub's CPU against the baseline's for the same stream: the whole window, and its steady part.
  const cpuRatio = {
    whole: round(hub.cpuPercent.hub / (bare.cpuPercent['baseline'] ?? Number.NaN), 3),
    steady: round((hub.steadyCpuPercent?.['hub'] ?? Number.NaN) / (bare.steadyCpuPercent?.['baseline'] ?? Number.NaN), 3),
  };
  log(`CPU hub/baseline while streaming: whole window ${cpuRatio.whole}, steady part ${cpuRatio.steady}`);
  const goals = {
    ...hub.goals,
    p99Within125OfBaseline: hub.value <= P99_RATIO_GOAL * bare.latency.p99,
    cpuWithin110OfBaseline: cpuRatio.steady <= CPU_RATIO_GOAL,
  };
  return { value: hub.value, baseline: round(bare.latency.p99, 3), extra: { ...hub.extra, baselineStream: bare, cpuRatio, goals } };
}

async function runHubTeam(
  t: TeamSetup,
  log: (line: string) => void,
): Promise<{
  value: number;
  cpuPercent: { hub: number };
  steadyCpuPercent: Record<string, number> | undefined;
  goals: Record<string, boolean>;
  extra: Record<string, unknown>;
}> {
  const d = await DaemonProcess.spawn({
    nodeArgs: GC_ARGS,
    simArgs: ['--event-rate', String(t.rate), '--event-bytes', String(t.bytes), '--event-duration-ms', String(t.streamMs)],
  });
  const load = await LoadDriver.start().catch(async (err: unknown) => {
    await d.stop();
    throw err;
  });
  try {
    await d.waitHealthy(true);
    const team = t.sessions * t.perSession;
    let rssHalf = 0;
    const opened = await openHubTeam(d, load, t, async () => {
      rssHalf = await settledRss(d, t);
    });
    const { sessions, epoch, tokens } = opened;
    const rssFull = await settledRss(d, t);
    const marginalKiB = (rssFull - rssHalf) / (team / 2) / 1024;
    log(`RSS ${round(rssHalf / MiB, 1)} → ${round(rssFull / MiB, 1)} MiB: ${round(marginalKiB, 1)} KiB per idle client`);

    const simPid = childPids(d.pid)[0];
    const idle = new CpuMeter({ hub: d.pid, sim: simPid });
    await new Promise((r) => setTimeout(r, t.idleMs));
    const idleCpu = idle.take();
    const idlePercent = ((idleCpu['hub'] ?? Number.NaN) / t.idleMs) * 100;
    log(`idle CPU with ${team + t.sessions} clients: hub ${round(idlePercent, 2)} % of a core over ${t.idleMs / 1000} s`);

    const everyone = [...Array(team + t.sessions).keys()];
    const teamClients = everyone.slice(t.sessions);

    // Streaming p99 at the team's rate.
    const meter = new CpuMeter({ hub: d.pid, sim: simPid, load: load.pid });
    const meterStarted = Date.now();
    const turns = streamHubTeam(load, opened, t);
    const steady = steadyCpu({ hub: d.pid }, t, meterStarted);
    await new Promise((r) => setTimeout(r, t.warmupMs));
    // Scraped before sampling starts: rendering /metrics holds the hub's loop for several ms.
    const scrapeStarted = Date.now();
    const scrapeBefore = await d.metrics();
    const scrapeMs = Date.now() - scrapeStarted;
    await load.send({ op: 'resetLatency' });
    await turns;
    await settleHubTeam(load, t);
    const streamCpu = meter.take();
    const streamWallMs = Date.now() - meterStarted;
    const steadyCpuPercent = await steady;
    const scrapeAfter = await d.metrics();
    const streamed = await load.report(teamClients);
    // Where the tail is: who used the cores, the hub's own loop delay and GC pauses, the load client's loop delay.
    const percentOfCore = (k: string) => round(((streamCpu[k] ?? Number.NaN) / streamWallMs) * 100, 1);
    const where = {
      cpuPercent: { hub: percentOfCore('hub'), sim: percentOfCore('sim'), loadClient: percentOfCore('load') },
      steadyCpuPercent,
      hubLoopDelayMs: roundAll(hubLoopDelayMs(scrapeAfter)),
      hubGc: gcBetween(scrapeBefore, scrapeAfter),
      // Every frame the hub wrote while streaming, per session/update the team received (1 = nothing else).
      hubFramesPerUpdate: round(
        (promSum(scrapeAfter, 'zcode_hub_updates_sent_total') - promSum(scrapeBefore, 'zcode_hub_updates_sent_total')) /
          streamed.benchFrames,
        3,
      ),
      loadClientLoopDelayMs: roundAll(streamed.loopDelay),
      scrapeMs,
      otherFrames: streamed.otherFrames,
      slowWindows: streamed.slowWindows,
    };
    const gaps = await hubTeamGaps(load, t);
    if (gaps.length > 0) throw new Error(`FAN-01 failed while streaming: ${gaps.slice(0, 3).join('; ')}`);
    log(
      `streaming ${t.sessions} × ${t.rate} ev/s to ${team} clients: p50 ${round(streamed.latency.p50, 2)} p99 ${round(streamed.latency.p99, 2)} ms; ` +
        `hub frames per update ${where.hubFramesPerUpdate}, hub loop delay p99 ${where.hubLoopDelayMs.p99} max ${where.hubLoopDelayMs.max} ms, GC ${where.hubGc.count} pauses (${where.hubGc.totalMs} ms, ${where.hubGc.over10ms} over 10 ms); ` +
        `load client loop delay p99 ${where.loadClientLoopDelayMs.p99} max ${where.loadClientLoopDelayMs.max} ms; ` +
        `CPU hub ${where.cpuPercent.hub} % sim ${where.cpuPercent.sim} % load client ${where.cpuPercent.loadClient} % of a core` +
        ` (steady part: hub ${steadyCpuPercent?.['hub'] ?? 'n/a'} %); ` +
        `one /metrics scrape ${scrapeMs} ms; other frames ${JSON.stringify(where.otherFrames)}; slow samples by window ${windows(where.slowWindows)}`,
    );

    // Reconnect storm mid-stream.
    const turns2 = streamHubTeam(load, opened, t);
    await new Promise((r) => setTimeout(r, t.stormAfterMs));
    await load.send({ op: 'close', clients: teamClients });
    await new Promise((r) => setTimeout(r, t.awayMs));
    const h = await teamHeads(load, t);
    const groups = sessions.map((sessionId, k) => ({ sessionId, clients: teamOf(t, k), targetSeq: h[k]! }));
    // The storm's CPU (the streams go on meanwhile): whether a slow storm worked more or was given less.
    const stormMeter = new CpuMeter({ hub: d.pid, load: load.pid });
    const storm = await load.call(
      waitDoneSchema,
      { op: 'reconnectMany', groups, epoch, concurrency: t.stormConcurrency, addresses: t.stormAddresses, timeoutMs: 30_000 },
      120_000,
    );
    const stormCpu = stormMeter.take();
    await turns2;
    await settleHubTeam(load, t);
    if (!storm.reached) throw new Error('not every client caught up within 30 s of the storm');
    const stormGaps = await hubTeamGaps(load, t);
    if (stormGaps.length > 0) throw new Error(`storm catch-up not gap-free: ${stormGaps.slice(0, 3).join('; ')}`);
    log(
      `reconnect storm of ${team}: all caught up in ${round(storm.ms, 0)} ms; CPU meanwhile hub ${stormCpu['hub']} ms, load client ${stormCpu['load']} ms`,
    );

    return {
      value: round(streamed.latency.p99, 3),
      cpuPercent: { hub: where.cpuPercent.hub },
      steadyCpuPercent,
      extra: {
        clients: team + t.sessions,
        auth: `${tokens.length} minted operate tokens, ${CLIENTS_PER_TOKEN} clients each`,
        streamLatencyMs: streamed.latency,
        streamTail: where,
        stormMs: round(storm.ms, 1),
        stormCpuMs: stormCpu,
        stormConcurrency: t.stormConcurrency,
        stormAddresses: t.stormAddresses,
        rssHalfMiB: round(rssHalf / MiB, 1),
        rssFullMiB: round(rssFull / MiB, 1),
        marginalIdleClientKiB: round(marginalKiB, 1),
        idleHubCpuPercent: round(idlePercent, 2),
        idleSimCpuPercent: round(((idleCpu['sim'] ?? Number.NaN) / t.idleMs) * 100, 2),
      },
      goals: {
        p99Under10ms: streamed.latency.p99 < 10,
        stormUnder3s: storm.ms < 3_000,
        marginalUnder30KiB: marginalKiB < 30,
        idleUnder2Percent: idlePercent < 2,
      },
    };
  } finally {
    await load.stop();
    await d.stop();
  }
}

/** B-SCALE: passes when every run met all its goals. */
export const bScale: Scenario = {
  id: 'B-SCALE',
  proves: ['B-SCALE'],
  goal: "1,000 clients over 10 sessions at a team rate: p99 ≤ 1.25× the fair baseline's on the same stream and < 10 ms; server CPU ≤ 1.1× the baseline's; storm of 1,000 caught up < 3 s; < 30 KiB per idle client; idle CPU < 2 % of a core",
  unit: 'ms p99',
  runs: 1,
  passes: (s) => s.details.every((d) => Object.values((d.goals ?? {}) as Record<string, boolean>).every(Boolean) && d.goals !== undefined),
  run: (_i, log) =>
    runTeam(
      {
        ...TEAM,
        phaseMs: phaseMsFromEnv(),
        grid: gridFromEnv('BENCH_SCALE_GRID', TEAM.grid),
      },
      log,
    ),
};
