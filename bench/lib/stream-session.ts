import { DaemonProcess, type DaemonOptions } from './daemon-process.js';
import { attachedSchema, promptDoneSchema, sessionOpenedSchema, waitDoneSchema, type LoadReport } from './ipc-schema.js';
import { LoadDriver } from './load-driver.js';
import { CpuMeter } from './proc-cpu.js';
import { round } from './scenario.js';

/** "Load L" (docs/TESTING.md): 100 clients, 500 events/s of about 300 bytes, for 30 s. */
export const LOAD_L = { clients: 100, rate: 500, bytes: 300, durationMs: 30_000 } as const;

/** Clients per minted token when `POST /api/tokens` exists (under LIMITS.connectionsPerToken = 32). */
const CLIENTS_PER_TOKEN = 25;
/** Latency samples of the first part of a stream are dropped (JIT warm-up of all three processes). */
export const WARMUP_MS = 2_000;

export interface StreamSetup {
  clients: number;
  rate: number;
  bytes: number;
  durationMs: number;
  /** Extra clients attached beside the measured ones (B-SLOW's stalled client). */
  extraClients?: number;
  daemon?: Omit<DaemonOptions, 'simArgs'>;
}

/** A daemon with a bench stream configured, a load process, and a session every client is attached to. */
export interface StreamSession {
  daemon: DaemonProcess;
  load: LoadDriver;
  sessionId: string;
  epoch: string;
  /** How the clients authenticate (minted device tokens, or the admin token with a raised per-token cap). */
  auth: string;
  close(): Promise<void>;
}

/** Starts the daemon on the simulator's bench stream and attaches `clients + extraClients` sockets. */
export async function openStreamSession(setup: StreamSetup): Promise<StreamSession> {
  const total = setup.clients + (setup.extraClients ?? 0);
  // Until the token service is mounted every socket shares the admin token, so its per-token cap
  // (32, ARCHITECTURE.md §8) is raised for the bench only; with minted tokens this override is inert.
  const daemon = await DaemonProcess.spawn({
    ...setup.daemon,
    simArgs: ['--event-rate', String(setup.rate), '--event-bytes', String(setup.bytes), '--event-duration-ms', String(setup.durationMs)],
    limits: { connectionsPerToken: 4 * total, ...(setup.daemon?.limits ?? {}) },
  });
  let load: LoadDriver | undefined;
  try {
    await daemon.waitHealthy(true);
    const { tokens, minted } = await daemon.tokens(total, CLIENTS_PER_TOKEN);
    load = await LoadDriver.start();
    await load.send({ op: 'connect', wsUrl: daemon.wsUrl, tokens, count: total, protocol: 'acp' });
    const opened = await load.call(sessionOpenedSchema, { op: 'newSession', client: 0, cwd: daemon.workspace });
    const rest = [...Array(total).keys()].slice(1);
    if (rest.length > 0)
      await load.call(attachedSchema, { op: 'attach', sessionId: opened.sessionId, method: 'session/resume', clients: rest });
    const l = load;
    let closing: Promise<void> | undefined;
    return {
      daemon,
      load,
      sessionId: opened.sessionId,
      epoch: opened.epoch,
      auth: minted ? `${tokens.length} minted operate tokens` : 'admin token shared (connectionsPerToken raised for the bench)',
      close() {
        closing ??= (async () => {
          await l.stop();
          await daemon.stop();
        })();
        return closing;
      },
    };
  } catch (err) {
    await load?.stop();
    await daemon.stop({ keep: true });
    throw err;
  }
}

export interface StreamOutcome {
  report: LoadReport;
  /** Delivered bench frames per second over the measured window, all clients together. */
  deliveredPerSec: number;
  rssMaxBytes: number;
  rssEndBytes: number;
  finalSeq: number;
  /** The daemon's CPU time (ms, /proc) from the prompt until every measured client had the last update. */
  daemonCpuMs: number;
  /** Daemon CPU ns per delivered update over the same span (all updates of the turn × measured clients). */
  daemonNsPerUpdate: number;
}

/**
 * Runs one prompt (= one bench stream) from client 0; drops warm-up samples, waits until every
 * live measured client has the last update, samples the daemon's RSS every second meanwhile.
 * `during` runs once the warm-up is over (B-SLOW stalls its extra client there).
 */
export async function runStream(
  s: StreamSession,
  setup: StreamSetup,
  measured: number[],
  during?: () => Promise<void>,
): Promise<StreamOutcome> {
  let rssMax = 0;
  const sampler = setInterval(() => {
    if (s.daemon.running) rssMax = Math.max(rssMax, s.daemon.rss());
  }, 1_000);
  const meter = new CpuMeter({ daemon: s.daemon.pid });
  const startSeq = (await s.load.report([0])).lastSeq[0] ?? 0;
  try {
    const prompt = s.load.call(
      promptDoneSchema,
      { op: 'prompt', client: 0, sessionId: s.sessionId, text: 'bench stream' },
      setup.durationMs + 120_000,
    );
    await new Promise((r) => setTimeout(r, Math.min(WARMUP_MS, setup.durationMs / 4)));
    await s.load.send({ op: 'resetLatency' });
    if (during) await during();
    const done = await prompt;
    if (done.stopReason !== 'end_turn') throw new Error(`bench turn ended ${done.stopReason}`);
    const head = await s.load.report([0]);
    const finalSeq = head.lastSeq[0] ?? 0;
    await s.load.call(waitDoneSchema, { op: 'waitSeq', seq: finalSeq, clients: measured, timeoutMs: 60_000 }, 90_000);
    const report = await s.load.report(measured);
    const window = (report.lastReceiveAt ?? 0) - (report.firstReceiveAt ?? 0);
    const daemonCpuMs = meter.take()['daemon'] ?? Number.NaN;
    const delivered = (finalSeq - startSeq) * measured.length;
    rssMax = Math.max(rssMax, s.daemon.rss());
    return {
      report,
      deliveredPerSec: window > 0 ? round((report.benchFrames / window) * 1000, 0) : 0,
      rssMaxBytes: rssMax,
      rssEndBytes: s.daemon.rss(),
      finalSeq,
      daemonCpuMs,
      daemonNsPerUpdate: delivered > 0 ? round((daemonCpuMs * 1e6) / delivered, 0) : Number.NaN,
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The same stream from the fair bare baseline (bench/baseline-server.ts: the same simulator child
 * and pipe, the same frames, the same per-turn write batching) to `clients` sockets of a fresh
 * load process: the machine's own cost of this fan-out, measured beside the hub's.
 */
export async function runBaselineStream(setup: StreamSetup): Promise<{ report: LoadReport; deliveredPerSec: number }> {
  const { BaselineProcess } = await import('./baseline-process.js');
  const server = await BaselineProcess.start();
  const load = await LoadDriver.start();
  try {
    await load.send({ op: 'connect', wsUrl: server.wsUrl(), tokens: [], count: setup.clients, protocol: 'bare' });
    const streamed = server.stream(setup.rate, setup.bytes, setup.durationMs);
    await new Promise((r) => setTimeout(r, Math.min(WARMUP_MS, setup.durationMs / 4)));
    await load.send({ op: 'resetLatency' });
    const { lastSeq } = await streamed;
    await load.call(waitDoneSchema, { op: 'waitSeq', seq: lastSeq, clients: 'all', timeoutMs: 60_000 }, 90_000);
    const report = await load.report('all');
    const window = (report.lastReceiveAt ?? 0) - (report.firstReceiveAt ?? 0);
    return { report, deliveredPerSec: window > 0 ? round((report.benchFrames / window) * 1000, 0) : 0 };
  } finally {
    await load.stop();
    await server.stop();
  }
}
