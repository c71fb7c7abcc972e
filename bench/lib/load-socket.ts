import hdr from 'hdr-histogram-js';
import WebSocket from 'ws';
import { monotonicMs } from '../../src/simulator/monotonic-clock.js';
import { FULL_CHECK_EVERY, frameSentAt, frameSeq, isSessionUpdate } from './fast-frame.js';
import { notificationFrameSchema, ownUpdateSchema, responseFrameSchema, sessionUpdateFrameSchema } from './frame-schema.js';

/** The one `session/update` kind sent without a seq to every client (the agent's commands). */
const STATE_UPDATE = Buffer.from('"sessionUpdate":"available_commands_update"');

/** Sent instead of the echo of a client's own prompt; carries the echo's seq. */
const OWN_UPDATE = '_zcode/own_update';

/** The machine's monotonic clock, shared by every bench process: the simulator stamps `simSentAt` with it. */
export const nowMs = monotonicMs;

/** Latency histogram in microseconds: 1 µs to 10 min, 3 significant digits. */
export function newHistogram(): hdr.Histogram {
  return hdr.build({
    useWebAssembly: false,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 600_000_000,
    numberOfSignificantValueDigits: 3,
  });
}

/** Longest wait for one JSON-RPC answer from the hub during a bench. */
const REQUEST_TIMEOUT_MS = 60_000;

/** A latency sample over this counts as slow for `slowWindows` (diagnostics of where a tail comes from). */
export const SLOW_SAMPLE_MS = 10;
const SLOW_WINDOW_MS = 100;

/**
 * What this process samples, shared by every socket. Latency is sampled only for frames the
 * source sent after the last `restart`: resetting 1,000 histograms holds this process for tens of
 * ms, and the frames queued meanwhile arrive late through no fault of the server (they were the
 * slowest 0.5 % of a B-SCALE run, both sides alike). Slow samples are counted per 100-ms window of
 * arrival, to show where a tail comes from.
 */
export const sampling = {
  sentFrom: 0,
  slowByWindow: new Map<number, number>(),
  /** Samples from now on; forgets the slow windows. */
  restart(): void {
    this.sentFrom = nowMs();
    this.slowByWindow.clear();
  },
  /** The `top` windows with the most slow samples, in time order, as ms after the restart. */
  busiest(top: number): Array<{ atMs: number; slow: number }> {
    return [...this.slowByWindow.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .sort((a, b) => a[0] - b[0])
      .map(([w, slow]) => ({ atMs: Math.round(w * SLOW_WINDOW_MS - this.sentFrom), slow }));
  },
};

interface Pending {
  resolve: (result: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One bench client socket: times every frame on arrival, checks `seq` continuity
 * (FAN-01: once each, strictly increasing, no gaps) and records latency
 * (receive time − `simSentAt`) for frames that carry a send stamp.
 */
export class LoadSocket {
  histogram = newHistogram();
  updates = 0;
  benchFrames = 0;
  firstSeq: number | null = null;
  lastSeq: number | null = null;
  firstReceiveAt: number | null = null;
  lastReceiveAt: number | null = null;
  problems: string[] = [];
  /** Frames other than session/update, by method (`response` for answers). */
  otherFrames = new Map<string, number>();
  closeCode: number | null = null;
  stalledAt: number | null = null;
  /** The seq the last attach answered with (the hub's position when this client joined). */
  attachSeq: number | null = null;
  /** When true the next update must be `lastSeq + 1` (set after the first update, or by a reconnect that carries `lastSeq`). */
  armed = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly seqWaiters = new Set<() => void>();
  readonly closed: Promise<number>;

  private constructor(
    readonly ws: WebSocket,
    readonly index: number,
  ) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code) => {
        this.closeCode = code;
        for (const p of this.pending.values()) {
          clearTimeout(p.timer);
          p.reject(new Error(`socket ${index} closed (${code})`));
        }
        this.pending.clear();
        this.wake();
        resolve(code);
      });
    });
    ws.on('error', () => undefined);
    ws.on('message', (data: Buffer, isBinary: boolean) => this.onFrame(data, isBinary));
  }

  /** Opens a socket (from `localAddress` when given); rejects when the upgrade is refused. */
  static open(url: string, index: number, token: string | undefined, localAddress?: string): Promise<LoadSocket> {
    const ws = new WebSocket(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(localAddress === undefined ? {} : { localAddress }),
      perMessageDeflate: false,
      // The bench parses only what it needs; UTF-8 validation of 50k frames/s is load-generator cost.
      skipUTF8Validation: true,
    });
    const socket = new LoadSocket(ws, index);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Forgets counters and samples; continuity restarts from the next update. */
  reset(): void {
    this.histogram = newHistogram();
    this.updates = 0;
    this.benchFrames = 0;
    this.firstSeq = null;
    this.firstReceiveAt = null;
    this.lastReceiveAt = null;
    this.problems = [];
    this.otherFrames.clear();
    this.armed = false;
  }

  /** Forgets latency samples and bench-frame counts; continuity checks go on. */
  resetLatency(): void {
    // Reset in place: a new histogram per client (85 KiB each) made 85 MB of garbage at once and
    // the load process's collector paused for up to 160 ms mid-measurement.
    this.histogram.reset();
    this.otherFrames.clear();
    this.benchFrames = 0;
    this.firstReceiveAt = null;
    this.lastReceiveAt = null;
  }

  /** Sends a JSON-RPC request and resolves with its `result`. */
  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} on socket ${this.index}: no answer in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  /** Stops reading the socket (ws pauses the underlying TCP socket). */
  stall(): void {
    // Epoch time: compared with the daemon's log line of the close (b-slow.ts).
    this.stalledAt = Date.now();
    this.ws.pause();
  }

  /** Resolves true once `lastSeq >= seq`, false on close or timeout. */
  waitSeq(seq: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        if (this.lastSeq !== null && this.lastSeq >= seq) return done(true);
        if (!this.isOpen) return done(false);
        return false;
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      const done = (v: boolean): boolean => {
        clearTimeout(timer);
        this.seqWaiters.delete(waiter);
        resolve(v);
        return true;
      };
      const waiter = () => void check();
      if (!check()) this.seqWaiters.add(waiter);
    });
  }

  private wake(): void {
    for (const w of [...this.seqWaiters]) w();
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    const at = nowMs();
    if (isBinary) {
      this.problems.push('binary frame');
      return;
    }
    if (isSessionUpdate(data)) {
      this.onUpdate(data, at);
      return;
    }
    this.onOther(data);
  }

  private onUpdate(data: Buffer, at: number): void {
    const seq = frameSeq(data);
    // The agent's commands are state told after an attach, without a seq (docs/CLIENT-PROTOCOL.md):
    // not an update of the stream being measured.
    if (!Number.isInteger(seq) && data.includes(STATE_UPDATE)) return;
    this.updates++;
    // Offset by the socket's index: clients of one session count in step, and a full parse by all
    // of them on the same update was a burst of load-client work that delayed the frames behind it.
    if ((this.updates + this.index) % FULL_CHECK_EVERY === 1) {
      const full = sessionUpdateFrameSchema.safeParse(JSON.parse(data.toString('utf8')));
      if (!full.success) this.problems.push(`session/update shape: ${full.error.issues[0]?.message ?? 'invalid'}`);
    }
    if (!Number.isInteger(seq)) {
      this.problems.push('session/update without seq');
      return;
    }
    this.onSeq(seq);
    const sentAt = frameSentAt(data);
    if (!Number.isNaN(sentAt)) {
      this.benchFrames++;
      this.firstReceiveAt ??= at;
      this.lastReceiveAt = at;
      if (sentAt < sampling.sentFrom) return this.wakeIfWaiting();
      this.histogram.recordValue(Math.max(1, Math.round((at - sentAt) * 1000)));
      if (at - sentAt > SLOW_SAMPLE_MS) {
        const w = Math.floor(at / SLOW_WINDOW_MS);
        sampling.slowByWindow.set(w, (sampling.slowByWindow.get(w) ?? 0) + 1);
      }
    }
    this.wakeIfWaiting();
  }

  private wakeIfWaiting(): void {
    if (this.seqWaiters.size > 0) this.wake();
  }

  /** FAN-01 continuity of one seq (a `session/update`, or the `_zcode/own_update` that stands for the echo of this client's own prompt). */
  private onSeq(seq: number): void {
    if (this.armed && this.lastSeq !== null && seq !== this.lastSeq + 1) {
      this.problems.push(
        seq <= this.lastSeq ? `duplicate or reordered seq ${seq} after ${this.lastSeq}` : `gap: ${seq} after ${this.lastSeq}`,
      );
    }
    this.armed = true;
    if (this.firstSeq === null) this.firstSeq = seq;
    if (this.lastSeq === null || seq > this.lastSeq) this.lastSeq = seq;
  }

  private onOther(data: Buffer): void {
    let value: unknown;
    try {
      value = JSON.parse(data.toString('utf8'));
    } catch {
      this.problems.push('non-JSON frame');
      return;
    }
    const method = typeof value === 'object' && value !== null && 'method' in value ? String(value.method) : 'response';
    this.otherFrames.set(method, (this.otherFrames.get(method) ?? 0) + 1);
    const response = responseFrameSchema.safeParse(value);
    if (response.success && typeof response.data.id === 'number' && !('method' in (value as object))) {
      const p = this.pending.get(response.data.id);
      if (!p) return;
      this.pending.delete(response.data.id);
      clearTimeout(p.timer);
      if (response.data.error) {
        const e = response.data.error;
        const code =
          typeof e.data === 'object' && e.data !== null && 'code' in e.data ? ` [${String((e.data as { code: unknown }).code)}]` : '';
        p.reject(new Error(`${e.code} ${e.message}${code}`));
      } else p.resolve(response.data.result);
      return;
    }
    const note = notificationFrameSchema.safeParse(value);
    if (!note.success) {
      this.problems.push('frame is neither a response nor a notification');
      return;
    }
    if (note.data.method === OWN_UPDATE) {
      // The seq of the echo of this client's own prompt: counted like an update (CLIENT-PROTOCOL).
      const seq = ownUpdateSchema.safeParse(note.data.params);
      if (!seq.success) this.problems.push('_zcode/own_update without seq');
      else {
        this.updates++;
        this.onSeq(seq.data._meta.zcode.seq);
        if (this.seqWaiters.size > 0) this.wake();
      }
    }
  }
}
