import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { Logger } from '../logger.js';
import { BackendFailure } from '../ports/backend-port.js';
import { BACKEND_BOUNDS } from './bounds.js';
import type { OutgoingMessage } from './envelope.js';
import { encodeLine } from './ndjson.js';
import { ServerOutput } from './server-output.js';
import type { LineRing } from './stderr-ring.js';
import { CloseOnce, type Transport, type TransportCloseInfo } from './transport.js';

/** What an in-process app-server is given: the flags and environment a child would get, and its three streams. */
export interface InProcessServerRun {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  input: Readable;
  output: Writable;
  errorOutput: Writable;
  /** Aborted by the transport's `abort` (where a child gets SIGKILL): the server stops at once. */
  signal: AbortSignal;
}

/**
 * An app-server that runs inside this process on three streams and resolves with its exit code
 * when it stops (the simulator's `startSimulatorInProcess`). Throws at once to refuse a start.
 */
export type InProcessServer = (run: InProcessServerRun) => Promise<{ code: number | null }>;

export interface InProcessTransportOptions {
  /** Longest stdout line; a longer one is skipped (limits.childStdoutLineBytes). */
  maxLineBytes: number;
  /** Deepest JSON nesting accepted in one line (limits.jsonMaxDepth). */
  maxJsonDepth?: number;
  /** Bytes that may wait for the server's input (limits.childStdinQueueBytes). */
  stdinQueueBytes: number;
  /** How long the server may take to stop after input EOF before it is aborted (limits.stopGraceMs). */
  stopGraceMs: number;
  /** stderr lines logged per second (limits.stderrLogLinesPerSecond). */
  stderrLinesPerSecond: number;
  stderrRing: LineRing;
  logger: Logger;
}

/**
 * The app-server in this process, after the MCP SDK's InMemoryTransport: the same Transport as
 * ChildTransport and the same bytes on the wire — ndjson lines, the line cap, the JSON depth
 * bound, junk lines, stderr into the ring — without a process. Every chunk crosses on its own
 * event-loop turn, as a pipe's would, so neither side ever runs inside the other's call.
 * `close()` ends the server's input and waits for its EOF drain (aborting it after the grace);
 * `abort()` stops it at once. It has no pid.
 */
export class InProcessTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onoversize?: Transport['onoversize'];

  private readonly output: ServerOutput;
  private readonly toServer = new PassThrough();
  private readonly fromServer = new PassThrough();
  private readonly serverStderr = new PassThrough();
  private readonly aborter = new AbortController();
  /** Chunks on their way across, delivered in order one event-loop turn later. */
  private readonly crossing: Array<() => void> = [];
  private crossingScheduled = false;
  private crossingBytes = 0;
  private started = false;
  private exitInfo?: TransportCloseInfo;
  private faultReason?: string;
  private readonly ended = new CloseOnce();
  private closing?: Promise<void>;

  constructor(
    private readonly server: InProcessServer,
    private readonly spec: { argv: readonly string[]; env: NodeJS.ProcessEnv },
    private readonly options: InProcessTransportOptions,
  ) {
    this.output = new ServerOutput(options, {
      message: (message, receivedAt) => this.onmessage?.(message, receivedAt),
      oversize: (info) => this.onoversize?.(info),
    });
  }

  /** Bytes sent but not yet read by the server (bounded by `stdinQueueBytes`, CHD-04). */
  get queuedBytes(): number {
    return this.crossingBytes + this.toServer.writableLength;
  }

  /** Lines skipped as junk so far. */
  get junkLines(): number {
    return this.output.junkLines;
  }

  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error('the in-process transport was already started'));
    this.started = true;
    this.fromServer.on('data', (chunk: Buffer) => this.cross(() => this.output.stdout(chunk)));
    this.fromServer.on('end', () =>
      this.cross(() => {
        this.output.stdoutEnd();
        this.finish();
      }),
    );
    // A handler still running after the server stopped may write once more: dropped, as a dead
    // child's writes are, not an uncaught stream error in the hub's process.
    for (const stream of [this.fromServer, this.serverStderr, this.toServer])
      stream.on('error', (err) => this.options.logger.debug({ err: err.message }, 'in-process backend stream error'));
    this.serverStderr.setEncoding('utf8');
    this.serverStderr.on('data', (text: string) => this.cross(() => this.output.stderr(text)));
    this.serverStderr.on('end', () => this.cross(() => this.output.stderrEnd()));
    let running: Promise<{ code: number | null }>;
    try {
      running = this.server({
        argv: this.spec.argv,
        env: this.spec.env,
        input: this.toServer,
        output: this.fromServer,
        errorOutput: this.serverStderr,
        signal: this.aborter.signal,
      });
    } catch (err) {
      // What a child would print on stderr before exiting 2: kept in the ring for the status and doctor.
      const message = err instanceof Error ? err.message : String(err);
      this.options.stderrRing.push(message);
      this.exitInfo = { code: null, signal: null, reason: `start failed: ${message}` };
      this.finish();
      return Promise.reject(err instanceof Error ? err : new Error(message));
    }
    running.then(
      (exit) => this.serverExited(exit.code),
      (err: unknown) => {
        this.faultReason ??= `the in-process server failed: ${err instanceof Error ? err.message : String(err)}`;
        this.serverExited(null);
      },
    );
    return Promise.resolve();
  }

  send(message: OutgoingMessage, method: string): void {
    if (!this.started || this.exitInfo || this.closing || this.ended.fired) {
      throw new BackendFailure('gone', method, `The agent backend is not running (${method} not sent)`);
    }
    const line = encodeLine(message);
    if (this.queuedBytes + line.length > this.options.stdinQueueBytes) {
      throw new BackendFailure('overloaded', method, `The agent backend is not reading its input (${this.queuedBytes} bytes queued)`);
    }
    this.crossingBytes += line.length;
    this.cross(() => {
      this.crossingBytes -= line.length;
      if (this.toServer.writable) this.toServer.write(line);
    });
  }

  abort(reason: string): void {
    this.faultReason ??= reason;
    if (!this.started || this.exitInfo || this.ended.fired) return;
    this.aborter.abort();
    // A server that ignores its abort signal is still let go of: its link sees it gone.
    setTimeout(() => {
      if (this.ended.fired) return;
      this.exitInfo ??= { code: null, signal: null, reason: `${reason}; no stop after abort` };
      this.finish();
    }, BACKEND_BOUNDS.killWaitMs).unref();
  }

  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  private async stop(): Promise<void> {
    if (!this.started) {
      this.exitInfo ??= { code: null, signal: null, reason: 'closed before start' };
      this.finish();
    }
    if (this.exitInfo || this.ended.fired) return this.ended.done;
    // After the messages still crossing: EOF, then the server's drain.
    this.cross(() => {
      if (this.toServer.writable) this.toServer.end();
    });
    const grace = this.options.stopGraceMs;
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      this.ended.done.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), grace))),
    ]);
    clearTimeout(timer);
    if (!inTime) {
      this.options.logger.warn({ graceMs: grace }, 'in-process backend did not stop after input EOF; aborting it');
      this.abort('no stop after input EOF');
    }
    return this.ended.done;
  }

  private serverExited(code: number | null): void {
    this.exitInfo ??= { code, signal: null, ...(this.faultReason ? { reason: this.faultReason } : {}) };
    this.toServer.destroy();
    // Ending its streams lets what it wrote before stopping arrive first, as a child's pipe does.
    if (!this.serverStderr.writableEnded) this.serverStderr.end();
    if (!this.fromServer.writableEnded) this.fromServer.end();
  }

  private cross(deliver: () => void): void {
    this.crossing.push(deliver);
    if (this.crossingScheduled) return;
    this.crossingScheduled = true;
    setImmediate(() => {
      this.crossingScheduled = false;
      for (const next of this.crossing.splice(0)) {
        try {
          next();
        } catch (err) {
          this.onerror?.(err instanceof Error ? err : new Error(String(err)));
        }
      }
    });
  }

  private finish(): void {
    if (this.ended.fired) return;
    this.output.flush();
    this.ended.fire(this.exitInfo ?? { code: null, signal: null, reason: this.faultReason ?? 'closed' }, this.onclose);
  }
}
