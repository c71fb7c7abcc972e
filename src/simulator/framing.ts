import type { Readable } from 'node:stream';

/**
 * Line framing of §1.2: split on `\n`, trim each line, skip empty ones. The reader keeps
 * draining its input no matter what the handlers do, so a slow handler never blocks the pipe.
 */
export class LineReader {
  private buffer = '';
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly input: Readable,
    private readonly onLine: (line: string) => void,
    private readonly onEnd: () => void,
  ) {}

  start(): void {
    this.input.on('data', (chunk: Buffer | string) => this.push(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true })));
    this.input.on('end', () => {
      // §1.1: the trailing partial line is processed at EOF.
      this.push(this.decoder.decode());
      this.flushRest();
      this.onEnd();
    });
    this.input.on('error', () => this.onEnd());
  }

  /** Stops reading (fault `--stop-reading-stdin`): the OS pipe then fills up. */
  stop(): void {
    this.input.pause();
    this.input.removeAllListeners('data');
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
