/**
 * The per-event micro-harness: what the hub allocates and spends for each event of the child,
 * from the child's stdout line to the one serialized frame, in figures that barely move with the
 * machine's load (bytes and scavenges per event).
 *
 * One process holds the real daemon (`startDaemon`, the simulator child on its bench stream, as
 * the daemon builds it: backend link, ndjson framing, envelope, event schema, translation,
 * journal, the turn record, the fan-out); a load process (bench/load-client.ts) holds `--clients`
 * ACP clients attached to one session (one by default: the per-event work, not the per-delivery
 * work of bench/fanout-micro.ts). A round is one prompt: the simulator streams `--events`
 * `text_delta` events of `--bytes` bytes at `--rate` per second inside a running turn, and the
 * round ends when every client has the turn's last update (checked gap-free, FAN-01).
 *
 * Per round, per journaled update (the stream's events plus the turn's few own updates):
 * - the JS heap bytes allocated: the heap's growth between collections, summed over the round
 *   (`v8.GCProfiler` reports the heap before and after each one), so a round with scavenges is
 *   counted whole;
 * - scavenges (per 1,000 events) and their pause (V8's own cost figure, µs per event);
 * - what survived: new-space bytes left after each scavenge (median) and bytes promoted to the
 *   old generation per event;
 * - process CPU (user + system) per event: this one moves with the load, so compare it only
 *   between runs taken in turn (two checkouts, alternating).
 *
 *   npm run build && node --max-semi-space-size=2 --import tsx bench/event-micro.ts \
 *     [--rounds 8] [--warmup 2] [--events 3560] [--rate 1780] [--bytes 300] [--clients 1] \
 *     [--alloc-prof file [--alloc-survivors]] [--json file]
 *
 * The semi-space is the daemon's own (src/daemon/node-flags.ts), so the scavenge counts are those
 * the daemon would see. For before/after, copy this file and bench/lib/scenario.ts into the other
 * checkout and run the two in turn.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { startDaemon } from '../src/daemon/daemon.js';
import type { HubCore } from '../src/domain/hub-core.js';
import { createLogger } from '../src/logger.js';
import { testConfig } from '../test/domain/helpers.js';
import { attachedSchema, promptDoneSchema, sessionOpenedSchema, waitDoneSchema } from './lib/ipc-schema.js';
import { LoadDriver } from './lib/load-driver.js';
import { median, positiveInt, round, spread } from './lib/scenario.js';

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    events: { type: 'string', default: '3560' },
    rate: { type: 'string', default: '1780' },
    bytes: { type: 'string', default: '300' },
    clients: { type: 'string', default: '1' },
    json: { type: 'string' },
    'alloc-prof': { type: 'string' },
    'alloc-survivors': { type: 'boolean', default: false },
  },
});
const int = (name: keyof typeof opts): number => positiveInt(opts[name], name);
const ROUNDS = int('rounds');
const WARMUP = int('warmup');
const EVENTS = int('events');
const RATE = int('rate');
const BYTES = int('bytes');
const CLIENTS = int('clients');
/** The stream's length in ms; the simulator sends floor(ms / 1000 × rate) events. */
const STREAM_MS = Math.ceil((EVENTS / RATE) * 1000);

interface RoundResult {
  events: number;
  bytesPerEvent: number;
  scavengesPer1k: number;
  scavengeUsPerEvent: number;
  survivedPerScavenge: number;
  promotedPerEvent: number;
  fullGcs: number;
  cpuUsPerEvent: number;
}

type GcStat = ReturnType<v8.GCProfiler['stop']>['statistics'][number];
const spaceUsed = (s: GcStat['beforeGC'], name: string): number =>
  s.heapSpaceStatistics.find((x) => x.spaceName === name)?.spaceUsedSize ?? 0;

/** The heap's figures over a span from the collections `GCProfiler` saw in it. */
function heapFigures(used0: number, used1: number, stats: GcStat[]) {
  let allocated = 0;
  let after = used0;
  let scavenges = 0;
  let scavengeUs = 0;
  let promoted = 0;
  let fullGcs = 0;
  const survived: number[] = [];
  for (const s of stats) {
    allocated += s.beforeGC.heapStatistics.usedHeapSize - after;
    after = s.afterGC.heapStatistics.usedHeapSize;
    if (s.gcType === 'Scavenge') {
      scavenges++;
      scavengeUs += s.cost;
      survived.push(spaceUsed(s.afterGC, 'new_space'));
      promoted += spaceUsed(s.afterGC, 'old_space') - spaceUsed(s.beforeGC, 'old_space');
    } else fullGcs++;
  }
  allocated += used1 - after;
  return { allocated, scavenges, scavengeUs, promoted, fullGcs, survived: survived.length > 0 ? median(survived) : 0 };
}

/** One round: one bench turn, until every client has its last update. */
async function runRound(load: LoadDriver, core: HubCore, sessionId: string, clients: number[]): Promise<RoundResult> {
  const journal = core.session(sessionId).journal;
  const seq0 = journal.lastSeq;
  const profiler = new v8.GCProfiler();
  profiler.start();
  const used0 = v8.getHeapStatistics().used_heap_size;
  const cpu0 = process.cpuUsage();
  const done = await load.call(
    promptDoneSchema,
    { op: 'prompt', client: 0, sessionId, text: `bench stream rate=${RATE} bytes=${BYTES} ms=${STREAM_MS}` },
    STREAM_MS + 120_000,
  );
  if (done.stopReason !== 'end_turn') throw new Error(`the bench turn ended ${done.stopReason}`);
  const last = journal.lastSeq;
  const reached = await load.call(waitDoneSchema, { op: 'waitSeq', seq: last, clients, timeoutMs: 60_000 }, 90_000);
  const cpu = process.cpuUsage(cpu0);
  const used1 = v8.getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  if (!reached.reached) throw new Error(`not every client reached seq ${last}`);
  const report = await load.report(clients);
  if (!report.complete) throw new Error(`not complete (FAN-01): ${report.problems.join('; ')}`);
  const events = last - seq0;
  const heap = heapFigures(used0, used1, statistics);
  return {
    events,
    bytesPerEvent: heap.allocated / events,
    scavengesPer1k: (heap.scavenges * 1000) / events,
    scavengeUsPerEvent: heap.scavengeUs / events,
    survivedPerScavenge: heap.survived,
    promotedPerEvent: heap.promoted / events,
    fullGcs: heap.fullGcs,
    cpuUsPerEvent: (cpu.user + cpu.system) / events,
  };
}

/**
 * `--alloc-prof file`: V8's sampling heap profiler over the measured rounds, keeping the samples
 * of objects a collection freed too (`--heap-prof` keeps only what is alive at exit), so the
 * profile shows what each function *allocates*; `bench/summarise-heap-profile.ts` reads it. With
 * `--alloc-survivors`, the samples a scavenge freed are left out: what is left is what outlived
 * the young generation (promoted, the old generation's garbage) or is still alive.
 */
async function startAllocationProfile(survivors: boolean): Promise<{ stop: () => Promise<unknown> }> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: !survivors,
  });
  return {
    async stop() {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      session.disconnect();
      return profile;
    },
  };
}

/** Median and range of a list. */
function summary(values: number[], digits = 0) {
  const [min, max] = spread(values) ?? [Number.NaN, Number.NaN];
  return { median: round(median(values), digits), min: round(min, digits), max: round(max, digits) };
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'event-micro-'));
const config = testConfig(root, { connectionsPerToken: 4 * CLIENTS, clientOutboundBudgetBytes: 1024 * 1024 * 1024 }, [
  '--event-rate',
  String(RATE),
  '--event-bytes',
  String(BYTES),
  '--event-duration-ms',
  String(STREAM_MS),
]);
const daemon = await startDaemon(config, createLogger({ level: 'silent' }));
const load = await LoadDriver.start();
try {
  await load.send({
    op: 'connect',
    wsUrl: `${daemon.url.replace(/^http/, 'ws')}/acp`,
    tokens: [daemon.adminToken],
    count: CLIENTS,
    protocol: 'acp',
  });
  const opened = sessionOpenedSchema.parse(await load.send({ op: 'newSession', client: 0, cwd: path.join(root, 'workspace') }));
  const clients = Array.from({ length: CLIENTS }, (_, i) => i);
  if (CLIENTS > 1)
    await load.call(attachedSchema, { op: 'attach', sessionId: opened.sessionId, method: 'session/resume', clients: clients.slice(1) });
  // The domain object the daemon built, read only for the journal's last seq.
  const core = (daemon.hub as unknown as { core: HubCore }).core;
  const results: RoundResult[] = [];
  for (let k = 0; k < WARMUP; k++) await runRound(load, core, opened.sessionId, clients);
  const profiler = opts['alloc-prof'] === undefined ? undefined : await startAllocationProfile(opts['alloc-survivors']);
  for (let k = 0; k < ROUNDS; k++) results.push(await runRound(load, core, opened.sessionId, clients));
  if (profiler) fs.writeFileSync(opts['alloc-prof'] ?? '', JSON.stringify(await profiler.stop()));
  const pick = (key: keyof RoundResult, digits = 0) =>
    summary(
      results.map((r) => r[key]),
      digits,
    );
  const out = {
    command: process.argv.slice(1).join(' '),
    execArgv: process.execArgv,
    setup: { rounds: ROUNDS, events: EVENTS, rate: RATE, bytes: BYTES, clients: CLIENTS },
    loadAverage: os.loadavg().map((x) => round(x, 1)),
    updatesPerRound: pick('events'),
    bytesPerEvent: pick('bytesPerEvent'),
    scavengesPer1kEvents: pick('scavengesPer1k', 2),
    scavengeUsPerEvent: pick('scavengeUsPerEvent', 3),
    survivedBytesPerScavenge: pick('survivedPerScavenge'),
    promotedBytesPerEvent: pick('promotedPerEvent', 1),
    fullGcsPerRound: pick('fullGcs'),
    cpuUsPerEvent: pick('cpuUsPerEvent', 2),
  };
  const json = JSON.stringify(out, null, 2);
  process.stdout.write(`${json}\n`);
  if (opts.json) fs.writeFileSync(opts.json, `${json}\n`);
} finally {
  await load.stop();
  await daemon.close().catch(() => undefined);
  fs.rmSync(root, { recursive: true, force: true });
}
