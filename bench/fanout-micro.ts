/**
 * The fan-out micro-harness: the CPU and the bytes the hub spends per delivered update on its
 * per-client path, against the bare baseline's, in one process and the same minutes.
 *
 * One process holds both servers: the real daemon (`startDaemon`, simulator backend, as the
 * daemon builds it: gateway, domain, journal) and the bare baseline's send path
 * (bench/lib/bare-fanout.ts, the code of bench/baseline-server.ts). A separate load process
 * (bench/load-client.ts) holds N ACP clients attached to one hub session and N bare clients, on
 * real sockets. A round pushes E updates of B bytes through one side, `burst` per event-loop turn:
 * on the hub through `HubCore.emitUpdate` (journal, seq, serialization, fan-out, each client's
 * `sendFrame`, the write batcher), on the baseline as bench/baseline-server.ts does for each
 * streamed event. A round ends when every client of that side has the round's last seq (checked
 * gap-free by the load process, FAN-01). The two sides take turns round by round, the first of
 * each round turning the order by one.
 *
 * Per round: process CPU (user + system, `process.cpuUsage`) per delivered update; the wall time
 * of the emit calls and of the end of their turns (the uncork) per update, median burst; the
 * write system calls per client; and the bytes allocated per delivered update: the JS heap's and
 * the array buffers' growth over the round. That is all that was allocated when no collection ran
 * in the round, so run it with a large young generation (the command below); it says how many
 * rounds saw one. The two sides' rounds being in one process, the per-round ratio is what counts.
 * The reading of the child's events, which the per-event path does, is left out on purpose: it is
 * not the per-delivery path (BENCHMARKS.md, eighth session); bench/event-micro.ts measures it.
 *
 *   node --max-semi-space-size=64 --import tsx bench/fanout-micro.ts \
 *     [--rounds 30] [--events 200] [--burst 4] [--clients 100] [--bytes 300] [--sides hub,gateway,baseline] [--json file]
 *
 * `--sides` picks the sides (default `hub,baseline`; one alone for a `--cpu-prof` / `--heap-prof`
 * of it). `gateway` is the hub's clients sent the journal's frame by each `ClientConnection.sendFrame`
 * directly: the gateway's per-client part without the domain's fan-out around it.
 */
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { WebSocketServer, type WebSocket } from 'ws';
import { startDaemon } from '../src/daemon/daemon.js';
import { Frame } from '../src/domain/delivery/frame.js';
import type { HubCore } from '../src/domain/hub-core.js';
import type { SessionState } from '../src/domain/sessions/session-state.js';
import { wsTextFrame } from '../src/gateway/ws-text-frame.js';
import { createLogger } from '../src/logger.js';
import { testConfig } from '../test/domain/helpers.js';
import { bareSend, type BareClient } from './lib/bare-fanout.js';
import { attachedSchema, sessionOpenedSchema, waitDoneSchema } from './lib/ipc-schema.js';
import { LoadDriver } from './lib/load-driver.js';
import { median, positiveInt, round } from './lib/scenario.js';

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '4' },
    events: { type: 'string', default: '200' },
    burst: { type: 'string', default: '4' },
    clients: { type: 'string', default: '100' },
    bytes: { type: 'string', default: '300' },
    sides: { type: 'string', default: 'hub,baseline' },
    json: { type: 'string' },
  },
});
const int = (name: keyof typeof opts): number => positiveInt(opts[name], name);
const ROUNDS = int('rounds');
const WARMUP = int('warmup');
const EVENTS = int('events');
const BURST = int('burst');
const CLIENTS = int('clients');
const BYTES = int('bytes');
const SIDE_NAMES = ['hub', 'gateway', 'baseline'] as const;
type SideName = (typeof SIDE_NAMES)[number];
const isSideName = (x: string): x is SideName => (SIDE_NAMES as readonly string[]).includes(x);
const SIDES = (opts.sides ?? '').split(',').filter(isSideName);
if (SIDES.length === 0 || SIDES.length !== (opts.sides ?? '').split(',').length)
  throw new Error(`--sides lists some of ${SIDE_NAMES.join(', ')}`);

interface RoundResult {
  nsPerUpdate: number;
  /** The emit calls' wall time per update, median burst (see runRound). */
  emitNsPerUpdate: number;
  /** The end of each burst's turn (the uncork of its batches), wall time per update, median burst. */
  flushNsPerUpdate: number;
  bytesPerUpdate: number;
  gcs: number;
  /** Write system calls in the round per client (the batches: EVENTS / BURST when every turn is one write). */
  writesPerClient: number;
}
interface SideOf {
  name: SideName;
  /** Client indices in the load process. */
  clients: number[];
  /** Sends one update; answers its seq. */
  emit(text: string, messageId: string): number;
}

const text = 'x'.repeat(BYTES);
let gcs = 0;
new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

/** Write system calls of this process so far (Linux: /proc/self/io `syscw`; NaN elsewhere). */
function writeCalls(): number {
  try {
    return Number(/^syscw: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

const allocated = (): number => v8.getHeapStatistics().used_heap_size + process.memoryUsage().arrayBuffers;

/** One round of one side: EVENTS updates, BURST per event-loop turn, until every client has the last. */
async function runRound(load: LoadDriver, side: SideOf): Promise<RoundResult> {
  // No collection is forced between rounds: a full one deoptimizes the hot path's compiled code
  // (V8: "weak objects") on both sides, and every round would start re-optimizing it. The bytes
  // are the heap's growth over a round without a collection (most of them, with the young
  // generation below); a round with one is counted for its CPU and left out of the bytes. The
  // observer hears of a collection a little after it: the pauses around a round let it.
  await new Promise((r) => setTimeout(r, 5));
  const gcBefore = gcs;
  const mem0 = allocated();
  const writes0 = writeCalls();
  const cpu0 = process.cpuUsage();
  let last = 0;
  // The emit calls alone: the fan-out's own code up to the corked sockets' buffers, without the
  // uncork (the writes to the kernel) at the end of each turn. Timed by the clock per burst (the
  // process CPU clock is too coarse for a burst); the median burst leaves out those the machine
  // descheduled.
  // The turn's end is timed the same way: mostly the uncork of every socket (one writev each).
  const bursts: number[] = [];
  const flushes: number[] = [];
  for (let sent = 0; sent < EVENTS; ) {
    const e0 = process.hrtime.bigint();
    let n = 0;
    for (; n < BURST && sent < EVENTS; n++, sent++) last = side.emit(text, `m-${sent}`);
    const e1 = process.hrtime.bigint();
    bursts.push(Number(e1 - e0) / n);
    await new Promise<void>((r) => setImmediate(r));
    flushes.push(Number(process.hrtime.bigint() - e1) / n);
  }
  const done = await load.call(waitDoneSchema, { op: 'waitSeq', seq: last, clients: side.clients, timeoutMs: 60_000 }, 90_000);
  const cpu = process.cpuUsage(cpu0);
  const writes = writeCalls() - writes0;
  const mem1 = allocated();
  await new Promise((r) => setTimeout(r, 5));
  const gcsInRound = gcs - gcBefore;
  if (!done.reached) throw new Error(`${side.name}: not every client reached seq ${last}`);
  const report = await load.report(side.clients);
  if (!report.complete) throw new Error(`${side.name}: not complete (FAN-01): ${report.problems.join('; ')}`);
  const delivered = EVENTS * side.clients.length;
  return {
    nsPerUpdate: ((cpu.user + cpu.system) * 1000) / delivered,
    emitNsPerUpdate: median(bursts) / side.clients.length,
    flushNsPerUpdate: median(flushes) / side.clients.length,
    bytesPerUpdate: (mem1 - mem0) / delivered,
    gcs: gcsInRound,
    writesPerClient: writes / side.clients.length,
  };
}

async function hubSide(
  load: LoadDriver,
  root: string,
): Promise<{ side: SideOf; gateway: SideOf; sessionId: string; close: () => Promise<void> }> {
  // As B-COST's daemon (bench/lib/stream-session.ts, ceiling.ts): every socket shares the admin
  // token, and the outbound budget is out of the way (it is never reached here either).
  const config = testConfig(root, { connectionsPerToken: 4 * CLIENTS, clientOutboundBudgetBytes: 1024 * 1024 * 1024 });
  const workspace = path.join(root, 'workspace');
  const daemon = await startDaemon(config, createLogger({ level: 'silent' }));
  const base = 0;
  await load.send({
    op: 'connect',
    wsUrl: `${daemon.url.replace(/^http/, 'ws')}/acp`,
    tokens: [daemon.adminToken],
    count: CLIENTS,
    protocol: 'acp',
  });
  const opened = sessionOpenedSchema.parse(await load.send({ op: 'newSession', client: base, cwd: workspace }));
  const others = Array.from({ length: CLIENTS - 1 }, (_, i) => base + 1 + i);
  if (others.length > 0) {
    await load.call(attachedSchema, { op: 'attach', sessionId: opened.sessionId, method: 'session/resume', clients: others });
  }
  // The domain object the daemon built: the bench drives its own emit path, nothing replaced.
  const core = (daemon.hub as unknown as { core: HubCore }).core;
  const session: SessionState = core.session(opened.sessionId);
  if (session.attachments.size !== CLIENTS) throw new Error(`hub: ${session.attachments.size} attachments, expected ${CLIENTS}`);
  const clients = Array.from({ length: CLIENTS }, (_, i) => base + i);
  return {
    // The gateway's part alone: the journal's seq and frame, then each client's own send
    // (ClientConnection.sendFrame and the write batcher), without the domain's fan-out around it.
    gateway: {
      name: 'gateway',
      clients,
      emit(delta, messageId) {
        const update = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta }, messageId };
        const frame = session.journal.append(
          (seq, epoch) =>
            new Frame(
              JSON.stringify({
                jsonrpc: '2.0',
                method: 'session/update',
                params: { sessionId: session.sessionId, update, _meta: { zcode: { seq, epoch } } },
              }),
              'session/update',
              'agent_message_chunk',
            ),
        );
        for (const a of session.attachments.values()) a.client.sendFrame(frame);
        return session.journal.lastSeq;
      },
    },
    side: {
      name: 'hub',
      clients,
      emit(delta, messageId) {
        core.emitUpdate(session, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta }, messageId });
        return session.journal.lastSeq;
      },
    },
    sessionId: opened.sessionId,
    close: () => daemon.close(),
  };
}

async function baselineSide(load: LoadDriver, sessionId: string): Promise<{ side: SideOf; close: () => Promise<void> }> {
  const audience = new Set<BareClient>();
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    const c: BareClient = { ws, tcp: req.socket as Socket, corked: false, batchedBytes: 0, session: 0 };
    audience.add(c);
    ws.on('close', () => audience.delete(c));
    ws.on('error', () => undefined);
  });
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const { clients: before } = (await load.send({
    op: 'connect',
    wsUrl: `ws://127.0.0.1:${port}/?session=0`,
    tokens: [],
    count: CLIENTS,
    protocol: 'bare',
  })) as {
    clients: number;
  };
  let seq = 0;
  return {
    side: {
      name: 'baseline',
      clients: Array.from({ length: CLIENTS }, (_, i) => before - CLIENTS + i),
      // What bench/baseline-server.ts does for each streamed event.
      emit(delta, messageId) {
        seq += 1;
        const update = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: delta }, messageId };
        const frame = new Frame(
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'session/update',
            params: { sessionId, update, _meta: { zcode: { seq, epoch: 'baseline-1' } } },
          }),
        );
        const wire = wsTextFrame(frame);
        for (const c of audience) bareSend(c, wire);
        return seq;
      },
    },
    close: () => new Promise<void>((r) => wss.close(() => r())),
  };
}

/** Median, quartiles and range of a list. */
function spread(values: number[], digits = 0) {
  const v = [...values].sort((a, b) => a - b);
  const q = (p: number) => round(v[Math.min(v.length - 1, Math.floor(p * v.length))] ?? Number.NaN, digits);
  return { median: round(median(v), digits), p25: q(0.25), p75: q(0.75), min: q(0), max: q(1) };
}

function summary(list: RoundResult[]) {
  const clean = list.filter((r) => r.gcs === 0).map((r) => r.bytesPerUpdate);
  return {
    nsPerUpdate: spread(list.map((r) => r.nsPerUpdate)),
    emitNsPerUpdate: spread(list.map((r) => r.emitNsPerUpdate)),
    flushNsPerUpdate: spread(list.map((r) => r.flushNsPerUpdate)),
    bytesPerUpdate: {
      median: round(median(clean), 1),
      min: round(Math.min(...clean), 1),
      max: round(Math.max(...clean), 1),
      rounds: clean.length,
    },
    roundsWithGc: list.length - clean.length,
    writesPerClient: spread(
      list.map((r) => r.writesPerClient),
      1,
    ),
  };
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fanout-micro-'));
const load = await LoadDriver.start();
const closers: Array<() => Promise<void>> = [];
try {
  // Both servers exist whatever `--sides` says, so the process holds the same objects either way.
  const hub = await hubSide(load, root);
  closers.push(hub.close);
  // The same session id as the hub's frames carry (bench/baseline-server.ts uses the child's), so the frames are as long.
  const bare = await baselineSide(load, hub.sessionId);
  closers.push(bare.close);
  const all: Record<SideName, SideOf> = { hub: hub.side, gateway: hub.gateway, baseline: bare.side };
  const sides = SIDES.map((name) => all[name]);
  const results: Record<SideName, RoundResult[]> = { hub: [], gateway: [], baseline: [] };
  for (let k = 0; k < WARMUP + ROUNDS; k++) {
    // Each round the order turns by one, so no side always runs first.
    for (let j = 0; j < sides.length; j++) {
      const side = sides[(j + k) % sides.length]!;
      const r = await runRound(load, side);
      if (k >= WARMUP) results[side.name].push(r);
    }
  }
  const out: Record<string, unknown> = {
    command: process.argv.slice(1).join(' '),
    execArgv: process.execArgv,
    setup: { rounds: ROUNDS, events: EVENTS, burst: BURST, clients: CLIENTS, bytes: BYTES },
    loadAverage: os.loadavg().map((x) => round(x, 1)),
  };
  for (const s of sides) out[s.name] = summary(results[s.name]);
  if (SIDES.includes('baseline')) {
    // Per round (the same minutes), each side's CPU over the baseline's.
    const of = (name: SideName, key: 'nsPerUpdate' | 'emitNsPerUpdate' | 'flushNsPerUpdate') =>
      results[name].map((h, i) => h[key] / (results.baseline[i]?.[key] ?? Number.NaN));
    for (const name of SIDES.filter((n) => n !== 'baseline'))
      out[`${name}/baseline`] = {
        perRound: spread(of(name, 'nsPerUpdate'), 3),
        emitPerRound: spread(of(name, 'emitNsPerUpdate'), 3),
        flushPerRound: spread(of(name, 'flushNsPerUpdate'), 3),
      };
  }
  const json = JSON.stringify(out, null, 2);
  process.stdout.write(`${json}\n`);
  if (opts.json) fs.writeFileSync(opts.json, `${json}\n`);
} finally {
  await load.stop();
  for (const close of closers.reverse()) await close().catch(() => undefined);
  fs.rmSync(root, { recursive: true, force: true });
}
