import { performance } from 'node:perf_hooks';
import type { Logger } from '../logger.js';
import { depthMessage } from '../json-depth.js';
import { LIMITS } from '../limits.js';
import { BACKEND_BOUNDS } from './bounds.js';
import { type IncomingMessage, parseEnvelope } from './envelope.js';
import { type FrameEvent, NdjsonDecoder, oversizeResponseId } from './ndjson.js';
import { LogBudget } from './rate-limit.js';
import { type LineRing, LineSplitter } from './stderr-ring.js';

export interface ServerOutputOptions {
  /** Longest stdout line; a longer one is skipped (limits.childStdoutLineBytes). */
  maxLineBytes: number;
  /** Deepest JSON nesting accepted in one stdout line (limits.jsonMaxDepth; default LIMITS.jsonMaxDepth). */
  maxJsonDepth?: number;
  /** stderr lines logged per second (limits.stderrLogLinesPerSecond). */
  stderrLinesPerSecond: number;
  /** Shared ring the stderr lines go to (limits.stderrRingLines). */
  stderrRing: LineRing;
  logger: Logger;
}

/** Where the parsed stdout goes: the transport's `onmessage` and `onoversize`. */
export interface ServerOutputSink {
  message(message: IncomingMessage, receivedAt: number): void;
  oversize(info: { bytes: number; id?: string | number }): void;
}

/**
 * What an app-server writes, read the same way whether it is a child process or runs in this
 * process: stdout framed as ndjson with the line cap and the JSON depth bound, junk lines counted
 * and logged under a budget, stderr split into lines for the ring and the log (APP-SERVER.md §1.2).
 */
export class ServerOutput {
  private readonly decoder: NdjsonDecoder;
  private readonly stderrSplitter = new LineSplitter(BACKEND_BOUNDS.stderrLineChars, BACKEND_BOUNDS.stderrPartialBytes);
  private readonly stderrBudget: LogBudget;
  private readonly junkBudget: LogBudget;
  private junkCount = 0;

  constructor(
    private readonly options: ServerOutputOptions,
    private readonly sink: ServerOutputSink,
  ) {
    this.decoder = new NdjsonDecoder(options.maxLineBytes);
    const log = options.logger;
    this.stderrBudget = new LogBudget(options.stderrLinesPerSecond, (n) =>
      log.warn({ suppressed: n }, 'backend stderr lines not logged (rate limit)'),
    );
    this.junkBudget = new LogBudget(BACKEND_BOUNDS.junkWarningsPerSecond, (n) =>
      log.warn({ suppressed: n }, 'backend junk-line warnings not logged (rate limit)'),
    );
  }

  /** Lines skipped as junk so far (non-JSON, invalid UTF-8, no envelope, too deep, oversize). */
  get junkLines(): number {
    return this.junkCount;
  }

  /** One chunk of stdout. */
  stdout(chunk: Uint8Array): void {
    const receivedAt = performance.timeOrigin + performance.now();
    this.decoder.push(chunk, (e) => this.onFrame(e, receivedAt));
  }

  /** stdout ended: a trailing unterminated line is still a line. */
  stdoutEnd(): void {
    this.decoder.end((e) => this.onFrame(e, performance.timeOrigin + performance.now()));
  }

  /** One chunk of stderr text. */
  stderr(text: string): void {
    this.stderrSplitter.push(text, (line) => this.onStderrLine(line));
  }

  stderrEnd(): void {
    this.stderrSplitter.end((line) => this.onStderrLine(line));
  }

  /** Logs what the budgets held back (once the server is gone). */
  flush(): void {
    this.stderrBudget.flush();
    this.junkBudget.flush();
  }

  private onFrame(event: FrameEvent, receivedAt: number): void {
    switch (event.kind) {
      case 'line': {
        const maxDepth = this.options.maxJsonDepth ?? LIMITS.jsonMaxDepth;
        const parsed = parseEnvelope(event.text, maxDepth);
        if (parsed.ok && parsed.tooDeep) {
          this.options.logger.error({ limit: maxDepth }, `backend answer ${depthMessage(maxDepth)}: turned into an error for its request`);
        }
        if (!parsed.ok && parsed.reason === 'too-deep') {
          // Within the junk lines' budget: a child writing such lines on end must not flood the log.
          this.junkCount++;
          if (this.junkBudget.allow())
            this.options.logger.error({ bytes: event.text.length, limit: maxDepth }, `backend line ${depthMessage(maxDepth)}: dropped`);
          return;
        }
        if (parsed.ok) {
          this.sink.message(parsed.message, receivedAt);
          return;
        }
        this.junk(parsed.reason, event.text.length, parsed.detail, event.text);
        return;
      }
      case 'invalid-utf8':
        this.junk('invalid-utf8', event.bytes, 'the line is not valid UTF-8');
        return;
      case 'oversize': {
        // Skipped, not fatal: killing the child would end every session for one big answer.
        const id = oversizeResponseId(event.head, event.tail);
        this.junkCount++;
        this.options.logger.error(
          { bytes: event.bytes, limit: this.options.maxLineBytes, ...(id === undefined ? {} : { id }) },
          'backend wrote a line over the line cap; skipped it',
        );
        this.sink.oversize({ bytes: event.bytes, ...(id === undefined ? {} : { id }) });
        return;
      }
    }
  }

  private junk(reason: string, bytes: number, detail: string, text?: string): void {
    this.junkCount++;
    if (!this.junkBudget.allow()) return;
    const log = this.options.logger;
    log.warn({ reason, bytes, detail: detail.slice(0, 200) }, 'skipped a backend stdout line that is not a protocol message');
    if (text !== undefined) log.debug({ preview: text.slice(0, BACKEND_BOUNDS.junkPreviewChars) }, 'skipped line preview');
  }

  private onStderrLine(line: string): void {
    this.options.stderrRing.push(line);
    if (this.stderrBudget.allow()) this.options.logger.info({ line }, 'backend stderr');
  }
}
