import { BaselineProcess } from './baseline-process.js';
import { benchPrompt } from './bench-prompt.js';
import { childPids, CpuMeter } from './proc-cpu.js';
import { promptDoneSchema, waitDoneSchema, type LoadReport } from './ipc-schema.js';
import { LoadDriver } from './load-driver.js';
import { round } from './scenario.js';
import { openStreamSession, type StreamSession } from './stream-session.js';

/** What one ladder step asks for: `rate` events/s of `bytes` for `stepMs`, the first `warmupMs` not timed. */
export interface StepPlan {
  rate: number;
  bytes: number;
  stepMs: number;
  warmupMs: number;
}

/** One side's figures for one step. */
export interface StepResult {
  rate: number;
  p50: number;
  p99: number;
  max: number;
  complete: boolean;
  open: number;
  /** Updates delivered in the step: seq advance × clients (every client has every seq when complete; the hub's seq also counts a turn's few other updates). */
  delivered: number;
  deliveredPerSec: number;
  /** CPU ms of the server process, its simulator child and the load process during the step. */
  cpuMs: { server: number; sim: number; load: number };
  /** Server CPU ns per delivered update. */
  serverNsPerUpdate: number;
  sustained: boolean;
  problems: string[];
}

/** A side of the comparison: the hub or the fair bare baseline, with its own load process and clients. */
export interface Side {
  name: 'hub' | 'baseline';
  clients: number;
  step(plan: StepPlan, p99LimitMs: number): Promise<StepResult>;
  close(): Promise<void>;
}

function result(
  plan: StepPlan,
  report: LoadReport,
  clients: number,
  events: number,
  cpu: Record<string, number>,
  p99LimitMs: number,
): StepResult {
  const delivered = events * clients;
  const server = cpu['server'] ?? Number.NaN;
  const complete = report.complete && report.open === clients;
  const p99 = report.latency.p99;
  return {
    rate: plan.rate,
    p50: round(report.latency.p50, 3),
    p99: round(p99, 3),
    max: round(report.latency.max, 3),
    complete,
    open: report.open,
    delivered,
    deliveredPerSec: round(delivered / (plan.stepMs / 1000), 0),
    cpuMs: { server, sim: cpu['sim'] ?? Number.NaN, load: cpu['load'] ?? Number.NaN },
    serverNsPerUpdate: delivered > 0 ? round((server * 1e6) / delivered, 0) : Number.NaN,
    sustained: complete && p99 <= p99LimitMs && report.latency.count > 0,
    problems: report.problems.slice(0, 3),
  };
}

/** Waits until every client has `seq`, then reports (the drain after an overloaded step is part of it). */
async function settle(load: LoadDriver, seq: number): Promise<LoadReport> {
  await load.call(waitDoneSchema, { op: 'waitSeq', seq, clients: 'all', timeoutMs: 60_000 }, 90_000);
  return load.report('all');
}

/** The hub side: a daemon on the simulator's bench stream; each step is one prompt that sets its rate. */
export async function hubSide(clients: number, bytes: number): Promise<Side> {
  // The outbound budget closes a client whose backlog passes 4 MiB (FAN-02); past the ceiling the
  // backlog grows by design, and the baseline has no budget, so it is raised here: this scenario
  // measures latency, B-SLOW measures the budget.
  const s: StreamSession = await openStreamSession({
    clients,
    rate: 1,
    bytes,
    durationMs: 1_000,
    daemon: { limits: { clientOutboundBudgetBytes: 1024 * 1024 * 1024 } },
  });
  const simPid = childPids(s.daemon.pid)[0];
  let lastSeq = (await s.load.report([0])).lastSeq[0] ?? 0;
  return {
    name: 'hub',
    clients,
    async step(plan, p99LimitMs) {
      const meter = new CpuMeter({ server: s.daemon.pid, sim: simPid, load: s.load.pid });
      const prompt = s.load.call(
        promptDoneSchema,
        { op: 'prompt', client: 0, sessionId: s.sessionId, text: benchPrompt({ rate: plan.rate, bytes: plan.bytes, ms: plan.stepMs }) },
        plan.stepMs + 120_000,
      );
      await new Promise((r) => setTimeout(r, plan.warmupMs));
      await s.load.send({ op: 'resetLatency' });
      const done = await prompt;
      if (done.stopReason !== 'end_turn') throw new Error(`bench turn ended ${done.stopReason}`);
      const seq = (await s.load.report([0])).lastSeq[0] ?? 0;
      const report = await settle(s.load, seq);
      const events = seq - lastSeq;
      lastSeq = seq;
      return result(plan, report, clients, events, meter.take(), p99LimitMs);
    },
    close: () => s.close(),
  };
}

/** The fair bare baseline (bench/baseline-server.ts): same simulator child, same frames, same batching. */
export async function baselineSide(clients: number): Promise<Side> {
  const server = await BaselineProcess.start();
  const load = await LoadDriver.start();
  try {
    await load.send({ op: 'connect', wsUrl: server.wsUrl(), tokens: [], count: clients, protocol: 'bare' });
  } catch (err) {
    await load.stop();
    await server.stop();
    throw err;
  }
  let fromSeq = 0;
  return {
    name: 'baseline',
    clients,
    async step(plan, p99LimitMs) {
      const meter = new CpuMeter({ server: server.pid, sim: server.simPid, load: load.pid });
      const streamed = server.stream(plan.rate, plan.bytes, plan.stepMs);
      await new Promise((r) => setTimeout(r, plan.warmupMs));
      await load.send({ op: 'resetLatency' });
      const { lastSeq } = await streamed;
      const report = await settle(load, lastSeq);
      const events = lastSeq - fromSeq;
      fromSeq = lastSeq;
      return result(plan, report, clients, events, meter.take(), p99LimitMs);
    },
    async close() {
      await load.stop();
      await server.stop();
    },
  };
}
