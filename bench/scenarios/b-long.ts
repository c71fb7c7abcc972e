import path from 'node:path';
import { AcpProbe } from '../lib/acp-probe.js';
import { DaemonProcess, repoRoot } from '../lib/daemon-process.js';
import { recordOneTurn, seedHubState, seedSessions } from '../lib/long-history.js';
import { countFromEnv, median, round, type Scenario } from '../lib/scenario.js';

/** Sessions the hub holds (`BENCH_LONG_SESSIONS`) and turns in each long one (`BENCH_LONG_TURNS`). */
const sessionsOf = () => countFromEnv('BENCH_LONG_SESSIONS', 100);
const longTurnsOf = () => countFromEnv('BENCH_LONG_TURNS', 1_000);
const SHORT_TURNS = 10;
/**
 * A page of history as the web app asks for one as a chat is scrolled up (web/src/limits.ts
 * `historyPage`); its first page on opening a chat is smaller now (`firstHistoryPage`, 12). Kept
 * at 30 for both so the figures compare with those recorded in BENCHMARKS.md.
 */
const WEB_PAGE = 30;
/** Repeats of each list request; the median is reported (the first is also reported alone: it is the cold one). */
const LIST_REPEATS = 9;
const MiB = 1024 * 1024;
/** How long the warm lists wait after the first, cold one (`BENCH_LONG_SETTLE_MS`, below). */
const settleMsOf = () => countFromEnv('BENCH_LONG_SETTLE_MS', 5_000, 0);

const GC_ARGS = ['--expose-gc', '--require', path.join(repoRoot, 'bench', 'lib', 'gc-preload.cjs')];

/** The cursor a paged answer carries (`_meta.zcode.replayMeta.cursor` or a top-level `cursor`). */
function cursorOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v['cursor'] === 'string') return v['cursor'];
  for (const key of ['_meta', 'zcode', 'replayMeta']) {
    const found = cursorOf(v[key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

async function timedGet(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': 'identity' },
  });
  const body = await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${Buffer.from(body).toString('utf8').slice(0, 200)}`);
  return { ms, bytes: body.byteLength };
}

type Figures = Record<string, number>;

/** Prompts a teammate sends while the prober asks. */
const STALL_PROMPTS = 5;
/** The prober's pause between an answer and its next request. */
const PROBE_GAP_MS = 2;

/**
 * `prompter` prompts `sessionId` {@link STALL_PROMPTS} times, one turn after another, while
 * `prober` asks `_zcode/interactions/list` (answered from the hub's memory) every
 * {@link PROBE_GAP_MS} after its last answer: the slowest answers are how long the hub's event
 * loop, and so every client, waited on what a prompt made it do (the author and marks writes).
 */
async function promptStall(
  prober: AcpProbe,
  prompter: AcpProbe,
  sessionId: string,
  cwd: string,
): Promise<{ p99: number; max: number; probes: number }> {
  await prompter.request('session/resume', { sessionId, cwd, mcpServers: [] });
  const answers: number[] = [];
  let prompting = true;
  const probing = (async () => {
    while (prompting) {
      answers.push((await prober.timed('_zcode/interactions/list', {})).ms);
      await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
    }
  })();
  try {
    for (let k = 0; k < STALL_PROMPTS; k++)
      await prompter.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `hello from a teammate, turn ${k}` }] });
    // The last prompt's author is written up to turnRecordFlushMs after its turn started.
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    prompting = false;
    await probing;
  }
  const sorted = [...answers].sort((a, b) => a - b);
  return { p99: sorted[Math.floor(0.99 * (sorted.length - 1))] ?? Number.NaN, max: sorted.at(-1) ?? Number.NaN, probes: answers.length };
}

/** One daemon holding `BENCH_LONG_SESSIONS` sessions of `turns` turns: memory, list, open and catch-up. */
async function measure(turns: number, template: Awaited<ReturnType<typeof recordOneTurn>>, log: (l: string) => void): Promise<Figures> {
  const sessions = sessionsOf();
  const settleMs = settleMsOf();
  let ids: string[] = [];
  const d = await DaemonProcess.spawn({
    nodeArgs: GC_ARGS,
    limits: { connectionsPerToken: 64 },
    seed: (root) => {
      ids = seedSessions(root, template, sessions, turns);
      seedHubState(root, ids, turns);
    },
  });
  const probes: AcpProbe[] = [];
  const probe = async () => {
    const p = await AcpProbe.open(d.wsUrl, d.adminToken);
    probes.push(p);
    return p;
  };
  try {
    await d.waitHealthy(true);
    const f: Figures = {};
    const idle = await d.memoryAfterGc();
    f.rssIdleMiB = round(idle.rss / MiB, 1);
    f.heapIdleMiB = round(idle.heapUsed / MiB, 1);

    const lister = await probe();
    const acpList: number[] = [];
    const restList: number[] = [];
    for (let i = 0; i < LIST_REPEATS; i++) {
      // After the first (cold) list the agent has read every file; what it does after that
      // (collecting what it parsed) is not what a later list costs, so the warm lists start later.
      if (i === 1) await new Promise((r) => setTimeout(r, settleMs));
      const a = await lister.timed('session/list', {});
      // The app-server lists its newest 50 by default (APP-SERVER.md §4.3), so the list is bounded there.
      const listed = (a.result as { sessions?: unknown[] }).sessions?.length ?? 0;
      if (listed < Math.min(sessions, 50)) throw new Error(`session/list: ${listed} of ${sessions} sessions`);
      f.listed = listed;
      acpList.push(a.ms);
      f.acpListBytes = a.bytes;
      const r = await timedGet(`${d.httpUrl}/api/sessions`, d.adminToken);
      restList.push(r.ms);
      f.restListBytes = r.bytes;
    }
    log(
      `${turns} turns: session/list ${acpList.map((m) => round(m, 1)).join(' ')} ms; GET /api/sessions ${restList.map((m) => round(m, 1)).join(' ')} ms`,
    );
    f.acpListFirstMs = round(acpList[0]!, 1);
    f.acpListMs = round(median(acpList.slice(1)), 1);
    f.restListFirstMs = round(restList[0]!, 1);
    f.restListMs = round(median(restList.slice(1)), 1);

    // An editor joining: `session/load` with no limit replays what the hub allows (LIMITS replayMaxMessages).
    const editorSession = ids[10]!;
    const cold = await (await probe()).timed('session/load', { sessionId: editorSession, cwd: d.workspace, mcpServers: [] });
    const warm = await (await probe()).timed('session/load', { sessionId: editorSession, cwd: d.workspace, mcpServers: [] });
    f.acpLoadColdMs = round(cold.ms, 1);
    f.acpLoadWarmMs = round(warm.ms, 1);
    f.acpLoadBytes = warm.bytes;

    // The web app opening a chat: the newest page, then one page further back, on the same socket.
    const webSession = ids[20]!;
    const web = await probe();
    const params = { sessionId: webSession, cwd: d.workspace, mcpServers: [], _meta: { zcode: { limit: WEB_PAGE } } };
    const webCold = await web.timed('session/load', params);
    const webWarm = await (await probe()).timed('session/load', params);
    f.webOpenColdMs = round(webCold.ms, 1);
    f.webOpenWarmMs = round(webWarm.ms, 1);
    f.webOpenBytes = webWarm.bytes;
    const cursor = cursorOf(webWarm.result);
    if (turns > WEB_PAGE && cursor === undefined) throw new Error('session/load with a limit answered no cursor for older history');
    if (cursor !== undefined) {
      const earlier = await web.timed('_zcode/load_earlier', { sessionId: webSession, cursor, limit: WEB_PAGE });
      f.webEarlierMs = round(earlier.ms, 1);
      f.webEarlierBytes = earlier.bytes;
    }
    // The paged history route (a session no one has loaded: the hub opens it first).
    const history = await timedGet(`${d.httpUrl}/api/sessions/${ids[30]!}/history?limit=${WEB_PAGE}`, d.adminToken);
    const historyAgain = await timedGet(`${d.httpUrl}/api/sessions/${ids[30]!}/history?limit=${WEB_PAGE}`, d.adminToken);
    f.historyRouteColdMs = round(history.ms, 1);
    f.historyRouteWarmMs = round(historyAgain.ms, 1);
    f.historyRouteBytes = historyAgain.bytes;

    // A teammate prompting while others use the hub: each prompt's author is written to a book that
    // holds one per turn the hub served (up to authorsMax), the session's mark at the turn's end.
    const stall = await promptStall(await probe(), await probe(), ids[40 % ids.length]!, d.workspace);
    log(
      `${turns} turns: ${stall.probes} probes during ${STALL_PROMPTS} prompts, p99 ${round(stall.p99, 1)} ms, max ${round(stall.max, 1)} ms`,
    );
    f.promptProbeP99Ms = round(stall.p99, 1);
    f.promptProbeMaxMs = round(stall.max, 1);

    const after = await d.memoryAfterGc();
    f.rssAfterMiB = round(after.rss / MiB, 1);
    f.heapAfterMiB = round(after.heapUsed / MiB, 1);
    log(`${sessions} × ${turns} turns: ${JSON.stringify(f)}`);
    return f;
  } finally {
    for (const p of probes) p.close();
    await d.stop();
  }
}

/** Where a user waits: these must not grow with the length of the sessions (bytes, and the warm times beside them). */
const WAIT_BYTES = ['acpListBytes', 'restListBytes', 'webOpenBytes', 'historyRouteBytes'] as const;
const WAIT_TIMES = ['acpListMs', 'restListMs', 'webOpenWarmMs', 'historyRouteWarmMs'] as const;
/** What every client waits while a teammate prompts (the slowest answer to a request answered from memory). */
const STALL_TIMES = ['promptProbeMaxMs'] as const;

/**
 * B-LONG: a hub holding 100 sessions of 1,000 turns each against one holding 100 sessions of 10
 * turns, in the same run (the two daemons one after the other, the order alternating between
 * runs). The sessions are written to the simulator's store before the daemon starts (one real
 * default-scenario turn copied; bench/lib/long-history.ts), so the hub meets them as a restarted
 * hub would. Figures per size: the daemon's RSS and heap after forced GCs (idle, and after the
 * loads), `session/list` over ACP and `GET /api/sessions` (median of 8 after a first), an
 * editor's `session/load` with no limit (cold: the hub resumes the session; warm: a second
 * joiner), the web app's open (`session/load` with a 30-message limit) and its next page
 * (`_zcode/load_earlier`), and `GET /api/sessions/:id/history?limit=30`, with the bytes each
 * sends. The value is the largest long/short ratio of the bytes a user waits for (WAIT_BYTES:
 * the lists, the web app's open, the history page); the goal is that none doubles when the
 * sessions are 100 times longer. The same ratio of the warm times (WAIT_TIMES) is recorded as
 * `timeRatio`: on a busy machine it moves with the machine more than with the sessions. Each hub
 * also holds what it would keep of those turns itself (an author per prompt up to authorsMax, a
 * mark per session; `seedHubState`), and a teammate prompts five times while a prober asks a
 * request answered from memory back to back: the long/short ratio of its slowest answer is
 * `stallRatio` (what a prompt's writes hold every client for).
 */
export const bLong: Scenario = {
  id: 'B-LONG',
  proves: ['B-LONG'],
  get goal() {
    return `${sessionsOf()} sessions × ${longTurnsOf()} turns vs × ${SHORT_TURNS}: bytes of list, open and history page grow < 2× (largest long/short ratio; times beside)`;
  },
  unit: '× (long/short)',
  runs: 3,
  passes: (s) => s.value < 2,
  async run(i, log) {
    const longTurns = longTurnsOf();
    const template = await recordOneTurn();
    const order = i % 2 === 0 ? [SHORT_TURNS, longTurns] : [longTurns, SHORT_TURNS];
    const figures = new Map<number, Figures>();
    for (const turns of order) figures.set(turns, await measure(turns, template, log));
    const short = figures.get(SHORT_TURNS)!;
    const long = figures.get(longTurns)!;
    const ratios: Figures = {};
    for (const key of Object.keys(long)) if ((short[key] ?? 0) > 0) ratios[key] = round(long[key]! / short[key]!, 2);
    const largest = (keys: readonly string[]) => Math.max(...keys.filter((k) => ratios[k] !== undefined).map((k) => ratios[k]!));
    return {
      value: largest(WAIT_BYTES),
      extra: { order, short, long, ratios, timeRatio: largest(WAIT_TIMES), stallRatio: largest(STALL_TIMES) },
    };
  },
};
