import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from '../../src/logger.js';
import { BackendFailure } from '../../src/ports/backend-port.js';
import type { IncomingMessage, OutgoingMessage } from '../../src/backend/envelope.js';
import { parseEnvelope } from '../../src/backend/envelope.js';
import type { LinkTransport } from '../../src/backend/backend-link.js';
import type { TransportCloseInfo } from '../../src/backend/transport.js';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A pino logger whose lines are kept in memory for assertions. */
export function captureLogger(level = 'debug'): { logger: Logger; lines: LogLine[]; find: (msg: string | RegExp) => LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const text of chunk.toString('utf8').split('\n')) if (text.trim()) lines.push(JSON.parse(text) as LogLine);
      cb();
    },
  });
  const logger = pino({ level }, stream);
  return { logger, lines, find: (msg) => lines.filter((l) => (typeof msg === 'string' ? l.msg === msg : msg.test(l.msg))) };
}

/** A silent logger. */
export function quietLogger(): Logger {
  return pino({ level: 'silent' });
}

/**
 * The child side of an in-memory transport: messages the hub sent arrive in `received`
 * (round-tripped through JSON, as on the wire); `emit` sends a line to the hub.
 */
export class FakeServer {
  readonly received: OutgoingMessage[] = [];
  private waiters: Array<{ pred: (m: OutgoingMessage) => boolean; resolve: (m: OutgoingMessage) => void }> = [];
  onRequest?: (message: { id: string | number; method: string; params?: unknown }) => void;
  transport!: MemoryTransport;

  /** Sends one raw line to the hub (parsed exactly as the child transport would). */
  line(text: string): void {
    const parsed = parseEnvelope(text);
    if (!parsed.ok) throw new Error(`test wrote a junk line: ${parsed.detail}`);
    this.transport.deliver(parsed.message);
  }

  emit(message: object): void {
    this.line(JSON.stringify(message));
  }

  next(pred: (m: OutgoingMessage) => boolean = () => true): Promise<OutgoingMessage> {
    const found = this.received.find(pred);
    if (found) {
      this.received.splice(this.received.indexOf(found), 1);
      return Promise.resolve(found);
    }
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  accept(message: OutgoingMessage): void {
    const copy = JSON.parse(JSON.stringify(message)) as OutgoingMessage;
    const w = this.waiters.find((x) => x.pred(copy));
    if (w) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(copy);
    } else this.received.push(copy);
    if ('method' in copy) this.onRequest?.(copy as { id: string | number; method: string; params?: unknown });
  }
}

/** A Transport backed by a FakeServer; `crash()` simulates the child dying. */
export class MemoryTransport implements LinkTransport {
  onmessage?: (message: IncomingMessage, receivedAt: number) => void;
  onclose?: (info: TransportCloseInfo) => void;
  onerror?: (error: Error) => void;
  readonly pid: number;
  closed = false;
  /** When set, `send` throws overloaded. */
  overloaded = false;
  private done?: Promise<void>;

  constructor(
    readonly server: FakeServer,
    pid = 4242,
  ) {
    this.pid = pid;
    server.transport = this;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: OutgoingMessage, method: string): void {
    if (this.closed) throw new BackendFailure('gone', method, 'gone');
    if (this.overloaded) throw new BackendFailure('overloaded', method, 'overloaded');
    queueMicrotask(() => this.server.accept(message));
  }

  deliver(message: IncomingMessage): void {
    if (!this.closed) this.onmessage?.(message, Date.now());
  }

  abort(reason: string): void {
    this.crash({ code: null, signal: 'SIGKILL', reason });
  }

  crash(info: TransportCloseInfo = { code: 1, signal: null }): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.(info);
  }

  close(): Promise<void> {
    this.done ??= Promise.resolve().then(() => this.crash({ code: 0, signal: null }));
    return this.done;
  }
}

/** Resolves after `ms`. */
export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `check` until it returns truthy or `timeoutMs` passes. */
export async function waitFor<T>(check: () => T | undefined | false | null, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}
