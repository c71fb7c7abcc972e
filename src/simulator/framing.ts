import type { Readable } from 'node:stream';

/** How often a reader stopped by `--stop-reading-stdin` checks that its parent is still there. */
export const STOPPED_KEEPALIVE_MS = 1_000;

/**
 * Line framing of §1.2: split on `\n`, trim each line, skip empty ones. The reader keeps
 * draining its input no matter what the handlers do, so a slow handler never blocks the pipe.
 */
export class LineReader {
  private buffer = '';
  private readonly decoder = new TextDecoder('utf-8');
  private ended = false;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly input: Readable,
    private readonly onLine: (line: string) => void,
    private readonly onEnd: () => void,
  ) {}

  start(): void {
    this.input.on('data', (chunk: Buffer | string) =>
      this.push(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true })),
    );
    this.input.on('end', () => {
      // §1.1: the trailing partial line is processed at EOF.
      this.push(this.decoder.decode());
      this.flushRest();
      this.finish();
    });
    this.input.on('error', () => this.finish());
  }

  /**
   * Stops reading (fault `--stop-reading-stdin`): the OS pipe then fills up. Once the stream's
   * buffer passes its high-water mark the pipe handle stops reading and no longer holds the
   * event loop open, so without the ref'd keep-alive the process would exit with code 13
   * (unsettled top-level await) instead of hanging like a stuck child (CHD-04/06). It stays
   * until stdin ends, a signal ends it (SIGTERM unless `--ignore-sigterm`), or its parent is
   * gone (an orphan must not outlive a crashed host).
   */
  stop(): void {
    this.input.pause();
    this.input.removeAllListeners('data');
    if (this.keepAlive || this.ended) return;
    const parent = process.ppid;
    this.keepAlive = setInterval(() => {
      if (process.ppid !== parent) this.finish();
    }, STOPPED_KEEPALIVE_MS);
  }

  /** Stops reading for good without calling `onEnd` (the run was ended from outside). */
  detach(): void {
    this.ended = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.input.removeAllListeners('data');
  }

  /** Calls `onEnd` once, whichever of EOF, a stream error or an orphaned keep-alive came first. */
  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.onEnd();
  }

  private push(text: string): void {
    this.buffer += text;
    let nl = this.buffer.indexOf('\n');
    while (nl !== -1) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line.length > 0) this.onLine(line);
      nl = this.buffer.indexOf('\n');
    }
  }

  private flushRest(): void {
    const line = this.buffer.trim();
    this.buffer = '';
    if (line.length > 0) this.onLine(line);
  }
}

/** Writes one message per line as `JSON.stringify(message) + "\n"` (§1.2). */
export type LineWriter = (message: object) => void;
