/**
 * The bench load generator: a separate process (spawned by bench/lib/load-driver.ts) holding N
 * WebSocket clients, so client work never runs on the hub's event loop. Commands arrive over
 * IPC (bench/lib/ipc-schema.ts); every command is bounded by its own timeout.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { attachResultSchema, promptResultSchema } from './lib/frame-schema.js';
import { envelopeSchema, type Command, type LoadReport } from './lib/ipc-schema.js';
import { LoadSocket, newHistogram, nowMs, sampling } from './lib/load-socket.js';

/** Upgrades in flight at once while connecting (an upgrade storm would measure the kernel's accept queue). */
const CONNECT_CONCURRENCY = 20;

/**
 * This process's own event-loop delay since the last `resetLatency`: a frame that arrives while
 * the load client is busy is timed late, so a report says how much of its tail is the client's.
 */
const LOOP_DELAY_RESOLUTION_MS = 5;
const ownLoopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
ownLoopDelay.enable();
/** Node records whole sampling intervals; the delay is what lies beyond one. */
const beyondInterval = (ns: number) => Math.max(0, ns / 1e6 - LOOP_DELAY_RESOLUTION_MS);

let slots: LoadSocket[] = [];
let wsUrl = '';
let tokens: string[] = [];

function select(set: 'all' | number[]): LoadSocket[] {
  if (set === 'all') return slots;
  return set.map((i) => {
    const s = slots[i];
    if (!s) throw new Error(`no client ${i}`);
    return s;
  });
}

async function inBatches<T>(items: T[], fn: (item: T) => Promise<void>, concurrency = CONNECT_CONCURRENCY): Promise<void> {
  for (let i = 0; i < items.length; i += concurrency) await Promise.all(items.slice(i, i + concurrency).map(fn));
}

/** Runs `fn` over `items` with `concurrency` in flight, starting the next as soon as one ends. */
async function inPool<T>(items: T[], fn: (item: T) => Promise<void>, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** Client `index`'s loopback source address when reconnecting from `addresses` of them (127.0.0.2…). */
function sourceAddress(index: number, addresses: number): string | undefined {
  return addresses <= 1 ? undefined : `127.0.0.${2 + (index % addresses)}`;
}

/** Replaces a client's socket with a new one that resumes from its last seq (`session/load` + `afterSeq`). */
async function reopen(old: LoadSocket, sessionId: string, epoch: string, localAddress?: string): Promise<void> {
  const s = await LoadSocket.open(wsUrl, old.index, tokens[old.index % Math.max(1, tokens.length)], localAddress);
  // Continuity carries over: the first replayed update must be exactly lastSeq + 1.
  s.lastSeq = old.lastSeq;
  s.armed = old.lastSeq !== null;
  slots[old.index] = s;
  await initialize(s);
  await attach(s, sessionId, 'session/load', old.lastSeq ?? 0, epoch);
}

async function initialize(s: LoadSocket): Promise<void> {
  await s.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: `bench-${s.index}`, version: '0.0.0' } });
}

async function attach(
  s: LoadSocket,
  sessionId: string,
  method: string,
  afterSeq: number | undefined,
  epoch: string | undefined,
): Promise<{ seq: number; epoch: string }> {
  const zcode = afterSeq === undefined ? undefined : { afterSeq, ...(epoch ? { epoch } : {}) };
  const raw = await s.request(method, { sessionId, cwd: process.cwd(), mcpServers: [], ...(zcode ? { _meta: { zcode } } : {}) });
  const res = attachResultSchema.parse(raw);
  s.attachSeq = res._meta.zcode.seq;
  return { seq: res._meta.zcode.seq, epoch: res._meta.zcode.epoch };
}

function report(set: LoadSocket[]): LoadReport {
  const merged = newHistogram();
  const problems: string[] = [];
  const closes: Record<string, number> = {};
  const otherFrames: Record<string, number> = {};
  let updates = 0;
  let benchFrames = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const s of set) {
    merged.add(s.histogram);
    updates += s.updates;
    benchFrames += s.benchFrames;
    if (s.firstReceiveAt !== null) first = first === null ? s.firstReceiveAt : Math.min(first, s.firstReceiveAt);
    if (s.lastReceiveAt !== null) last = last === null ? s.lastReceiveAt : Math.max(last, s.lastReceiveAt);
    for (const p of s.problems.slice(0, 3)) problems.push(`client ${s.index}: ${p}`);
    if (s.firstSeq !== null && s.lastSeq !== null && s.updates !== s.lastSeq - s.firstSeq + 1) {
      problems.push(`client ${s.index}: ${s.updates} updates for seq ${s.firstSeq}..${s.lastSeq}`);
    }
    for (const [m, n] of s.otherFrames) otherFrames[m] = (otherFrames[m] ?? 0) + n;
    if (s.closeCode !== null) closes[String(s.closeCode)] = (closes[String(s.closeCode)] ?? 0) + 1;
  }
  const ms = (p: number) => merged.getValueAtPercentile(p) / 1000;
  return {
    clients: set.length,
    open: set.filter((s) => s.isOpen).length,
    updates,
    benchFrames,
    firstReceiveAt: first,
    lastReceiveAt: last,
    complete: problems.length === 0 && set.every((s) => s.lastSeq === set[0]?.lastSeq),
    problems: problems.slice(0, 20),
    latency: {
      count: merged.totalCount,
      p50: ms(50),
      p90: ms(90),
      p99: ms(99),
      p999: ms(99.9),
      max: merged.maxValue / 1000,
      mean: merged.mean / 1000,
    },
    closes,
    firstSeq: set.map((s) => s.firstSeq),
    lastSeq: set.map((s) => s.lastSeq),
    stalledAt: set.find((s) => s.stalledAt !== null)?.stalledAt ?? null,
    loopDelay: { p99: beyondInterval(ownLoopDelay.percentile(99)), max: beyondInterval(ownLoopDelay.max) },
    otherFrames,
    slowWindows: sampling.busiest(8),
  };
}

async function waitUntil(pred: () => boolean, timeoutMs: number, idleMs?: number, progress?: () => number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let lastProgress = progress?.() ?? 0;
  let lastChange = Date.now();
  while (Date.now() < deadline) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 20));
    if (progress && idleMs !== undefined) {
      const p = progress();
      if (p !== lastProgress) {
        lastProgress = p;
        lastChange = Date.now();
      } else if (Date.now() - lastChange > idleMs) return pred();
    }
  }
  return pred();
}

async function handle(cmd: Command): Promise<unknown> {
  switch (cmd.op) {
    case 'connect': {
      wsUrl = cmd.wsUrl;
      tokens = cmd.tokens;
      const base = slots.length;
      const opened: LoadSocket[] = new Array<LoadSocket>(cmd.count);
      await inBatches([...Array(cmd.count).keys()], async (i) => {
        const url = cmd.wsUrls === undefined ? wsUrl : cmd.wsUrls[i % cmd.wsUrls.length]!;
        const s = await LoadSocket.open(url, base + i, tokens[(base + i) % Math.max(1, tokens.length)]);
        if (cmd.protocol === 'acp') await initialize(s);
        opened[i] = s;
      });
      slots = [...slots, ...opened];
      return { clients: slots.length };
    }
    case 'newSession': {
      const s = select([cmd.client])[0]!;
      const raw = await s.request('session/new', { cwd: cmd.cwd, mcpServers: [] });
      const res = attachResultSchema.parse(raw);
      s.attachSeq = res._meta.zcode.seq;
      return { sessionId: res.sessionId ?? '', seq: res._meta.zcode.seq, epoch: res._meta.zcode.epoch };
    }
    case 'attach': {
      const t0 = nowMs();
      let seq: number | null = null;
      let epoch: string | null = null;
      const set = select(cmd.clients);
      await inBatches(set, async (s) => {
        const after = cmd.afterSeq === 'own' ? (s.lastSeq ?? 0) : cmd.afterSeq;
        const r = await attach(s, cmd.sessionId, cmd.method, after, cmd.epoch);
        seq = r.seq;
        epoch = r.epoch;
      });
      return { attached: set.length, ms: nowMs() - t0, seq, epoch };
    }
    case 'prompt': {
      const s = select([cmd.client])[0]!;
      const raw = await s.request('session/prompt', { sessionId: cmd.sessionId, prompt: [{ type: 'text', text: cmd.text }] });
      return { stopReason: promptResultSchema.parse(raw).stopReason };
    }
    case 'stall':
      select([cmd.client])[0]!.stall();
      return {};
    case 'reset':
      for (const s of slots) s.reset();
      sampling.restart();
      return {};
    case 'resetLatency':
      for (const s of slots) s.resetLatency();
      sampling.restart();
      ownLoopDelay.reset();
      return {};
    case 'waitSeq': {
      const t0 = nowMs();
      const set = select(cmd.clients).filter((s) => s.isOpen && s.stalledAt === null);
      const all = await Promise.all(set.map((s) => s.waitSeq(cmd.seq, cmd.timeoutMs)));
      return { reached: all.every(Boolean), ms: nowMs() - t0 };
    }
    case 'waitFrames': {
      const t0 = nowMs();
      const set = select(cmd.clients);
      const count = () => set.reduce((a, s) => a + s.benchFrames, 0);
      const reached = await waitUntil(() => count() >= cmd.frames, cmd.timeoutMs, cmd.idleMs, count);
      return { reached, ms: nowMs() - t0, frames: count() };
    }
    case 'close': {
      const set = select(cmd.clients);
      for (const s of set) if (s.isOpen) s.ws.close(1000, 'bench done');
      await Promise.race([Promise.all(set.map((s) => s.closed)), new Promise((r) => setTimeout(r, 10_000))]);
      return {};
    }
    case 'reconnect': {
      const set = select(cmd.clients);
      const t0 = nowMs();
      await inBatches(set, (old) => reopen(old, cmd.sessionId, cmd.epoch));
      const fresh = select(cmd.clients);
      const all = await Promise.all(fresh.map((s) => s.waitSeq(cmd.targetSeq, cmd.timeoutMs)));
      return { reached: all.every(Boolean), ms: nowMs() - t0 };
    }
    case 'reconnectMany': {
      const t0 = nowMs();
      const jobs = cmd.groups.flatMap((g) => select(g.clients).map((old) => ({ old, g })));
      // Each client waits for its target as soon as it is back, while the others still connect.
      const caughtUp: Array<Promise<boolean>> = [];
      await inPool(
        jobs,
        async ({ old, g }) => {
          await reopen(old, g.sessionId, cmd.epoch, sourceAddress(old.index, cmd.addresses));
          caughtUp.push(slots[old.index]!.waitSeq(g.targetSeq, cmd.timeoutMs));
        },
        cmd.concurrency,
      );
      const all = await Promise.all(caughtUp);
      return { reached: all.every(Boolean), ms: nowMs() - t0 };
    }
    case 'report':
      return report(select(cmd.clients));
    case 'exit':
      for (const s of slots) s.ws.terminate();
      setImmediate(() => process.exit(0));
      return {};
  }
}

process.on('message', (raw: unknown) => {
  const env = envelopeSchema.safeParse(raw);
  if (!env.success) {
    process.send?.({ id: -1, ok: false, error: `bad command: ${env.error.message}` });
    return;
  }
  handle(env.data.command).then(
    (value) => process.send?.({ id: env.data.id, ok: true, value }),
    (err: unknown) => process.send?.({ id: env.data.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
// The runner going away ends the load process too (no orphan sockets on a crashed bench).
process.on('disconnect', () => process.exit(0));
process.send?.({ id: 0, ok: true, value: 'ready' });
