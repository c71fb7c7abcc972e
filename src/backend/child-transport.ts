import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '../logger.js';
import { BackendFailure } from '../ports/backend-port.js';
import { BACKEND_BOUNDS } from './bounds.js';
import type { OutgoingMessage } from './envelope.js';
import { encodeLine } from './ndjson.js';
import { ServerOutput } from './server-output.js';
import type { LineRing } from './stderr-ring.js';
import { CloseOnce, type Transport, type TransportCloseInfo } from './transport.js';

export interface ChildSpawnSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface ChildTransportOptions {
  /** Longest stdout line; a longer one aborts the child (limits.childStdoutLineBytes). */
  maxLineBytes: number;
  /** Bytes that may wait for the child's stdin (limits.childStdinQueueBytes). */
  stdinQueueBytes: number;
  /** Each wait of the stop ladder (limits.stopGraceMs). */
  stopGraceMs: number;
  /** stderr lines logged per second (limits.stderrLogLinesPerSecond). */
  stderrLinesPerSecond: number;
  /** Shared ring the stderr lines go to (limits.stderrRingLines). */
  stderrRing: LineRing;
  logger: Logger;
  /** Deepest JSON nesting accepted in one stdout line (limits.jsonMaxDepth; default LIMITS.jsonMaxDepth). */
  maxJsonDepth?: number;
}

/**
 * One app-server child on stdio: spawned without a shell, stdout framed as ndjson with a
 * line cap, stdin written with a queue cap, stderr drained continuously (a full stderr pipe
 * blocks the child, APP-SERVER.md §1.1), stopped by the ladder stdin EOF → grace → SIGTERM →
 * grace → SIGKILL (STYLE.md, MCP SDK).
 */
export class ChildTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onoversize?: Transport['onoversize'];

  private child?: ChildProcess;
  private readonly output: ServerOutput;
  private exitInfo?: TransportCloseInfo;
  private faultReason?: string;
  private readonly ended = new CloseOnce();
  private stdoutEnded = false;
  private closing?: Promise<void>;
  private readonly exited: Promise<void>;
  private resolveExited!: () => void;

  constructor(
    private readonly spec: ChildSpawnSpec,
    private readonly options: ChildTransportOptions,
  ) {
    this.output = new ServerOutput(options, {
      message: (message, receivedAt) => this.onmessage?.(message, receivedAt),
      oversize: (info) => this.onoversize?.(info),
    });
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
  }

  /** The child's pid once spawned. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Bytes waiting for the child's stdin (bounded by `stdinQueueBytes`, CHD-04). */
  get queuedBytes(): number {
    return this.child?.stdin?.writableLength ?? 0;
  }

  /** Lines skipped as junk so far (non-JSON, invalid UTF-8, no envelope). */
  get junkLines(): number {
    return this.output.junkLines;
  }

  start(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(this.spec.command, this.spec.args, {
          cwd: this.spec.cwd,
          env: this.spec.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          shell: false,
          windowsHide: true,
        });
      } catch (err) {
        this.exitInfo = { code: null, signal: null, reason: `spawn failed: ${(err as Error).message}` };
        this.resolveExited();
        this.finish();
        reject(err);
        return;
      }
      this.child = child;
      let spawned = false;
      child.once('spawn', () => {
        spawned = true;
        resolve();
      });
      child.once('error', (err) => {
        // Spawn failures (ENOENT, EACCES) and failed kills land here.
        if (!spawned) {
          this.exitInfo ??= { code: null, signal: null, reason: `spawn failed: ${err.message}` };
          this.resolveExited();
          this.finish();
          reject(err);
        } else {
          this.onerror?.(err);
        }
      });
      child.once('exit', (code, signal) => {
        this.exitInfo ??= { code, signal, ...(this.faultReason ? { reason: this.faultReason } : {}) };
        this.resolveExited();
        // Let stdout deliver what the child wrote before dying, but bound the wait: a
        // grandchild holding the pipe open must not delay failing pending requests (CHD-01).
        if (this.stdoutEnded) this.finish();
        else setTimeout(() => this.finish(), BACKEND_BOUNDS.exitDrainMs).unref();
      });

      const stdout = child.stdout!;
      stdout.on('data', (chunk: Buffer) => this.output.stdout(chunk));
      stdout.on('end', () => {
        this.output.stdoutEnd();
        this.stdoutEnded = true;
        if (this.exitInfo) {
          this.finish();
          return;
        }
        // stdout usually ends just before the exit event. A child that stays alive without
        // stdout cannot speak the protocol: after a grace it is treated as a fault.
        setTimeout(() => {
          if (!this.exitInfo && !this.closing) this.abort('the child closed its stdout');
        }, this.options.stopGraceMs).unref();
      });
      stdout.on('error', (err) => this.onerror?.(err));

      const stderr = child.stderr!;
      stderr.setEncoding('utf8');
      stderr.on('data', (text: string) => this.output.stderr(text));
      stderr.on('end', () => this.output.stderrEnd());
      stderr.on('error', (err) => this.onerror?.(err));

      // EPIPE after the child died is expected; the exit handler does the real work.
      child.stdin!.on('error', (err) => this.options.logger.debug({ err: err.message }, 'backend stdin error'));
    });
  }

  send(message: OutgoingMessage, method: string): void {
    const stdin = this.child?.stdin;
    if (!stdin || this.exitInfo || this.closing || stdin.writableEnded || stdin.destroyed) {
      throw new BackendFailure('gone', method, `The agent backend is not running (${method} not sent)`);
    }
    const line = encodeLine(message);
    // The queue is what Node buffers for a pipe the child does not drain (CHD-04).
    if (stdin.writableLength + line.length > this.options.stdinQueueBytes) {
      throw new BackendFailure('overloaded', method, `The agent backend is not reading its input (${stdin.writableLength} bytes queued)`);
    }
    stdin.write(line);
  }

  abort(reason: string): void {
    this.faultReason ??= reason;
    if (this.child && !this.exitInfo) this.child.kill('SIGKILL');
  }

  close(): Promise<void> {
    this.closing ??= this.stopLadder();
    return this.closing;
  }

  private async stopLadder(): Promise<void> {
    const child = this.child;
    if (!child || this.exitInfo) return this.ended.done;
    const grace = this.options.stopGraceMs;
    const log = this.options.logger;
    child.stdin?.end();
    if (await this.waitExit(grace)) return this.ended.done;
    log.warn({ childPid: child.pid, graceMs: grace }, 'backend did not exit after stdin EOF; sending SIGTERM');
    child.kill('SIGTERM');
    if (await this.waitExit(grace)) return this.ended.done;
    log.warn({ childPid: child.pid, graceMs: grace }, 'backend ignored SIGTERM; sending SIGKILL');
    child.kill('SIGKILL');
    if (!(await this.waitExit(BACKEND_BOUNDS.killWaitMs))) {
      log.error({ childPid: child.pid }, 'backend did not exit after SIGKILL');
      this.exitInfo ??= { code: null, signal: null, reason: 'no exit after SIGKILL' };
      this.finish();
    }
    return this.ended.done;
  }

  /** Resolves true when the child exited within `ms`. */
  private waitExit(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private finish(): void {
    if (this.ended.fired) return;
    this.output.flush();
    this.ended.fire(this.exitInfo ?? { code: null, signal: null, reason: this.faultReason ?? 'closed' }, this.onclose);
  }
}
