/**
 * ndjson framing of the child's stdout (ZCODE-PROTOCOL §1.2): UTF-8, one JSON object per line,
 * `\n`-terminated; lines are trimmed and empty ones skipped, as the server does. Works on raw
 * bytes so a multi-byte character split across chunks is reassembled before decoding, and
 * invalid UTF-8 is detected per line instead of being silently replaced.
 *
 * Memory is bounded by `maxLineBytes`: a line (or an unterminated tail) longer than that is a
 * fault — the decoder stops and the caller restarts the child (TEST-PLAN CHD-03).
 */
export type FrameEvent =
  | { kind: 'line'; text: string }
  | { kind: 'invalid-utf8'; bytes: number }
  | { kind: 'oversize'; bytes: number };

const NEWLINE = 0x0a;

export class NdjsonDecoder {
  private parts: Buffer[] = [];
  private size = 0;
  private faulted = false;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  constructor(private readonly maxLineBytes: number) {}

  /** True once an oversize line was seen; later input is ignored. */
  get isFaulted(): boolean {
    return this.faulted;
  }

  /** Bytes of the unterminated line currently buffered. */
  get bufferedBytes(): number {
    return this.size;
  }

  /** Feeds one chunk; calls `emit` for each complete line (and at most one fault). */
  push(chunk: Uint8Array, emit: (event: FrameEvent) => void): void {
    if (this.faulted) return;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start <= buf.length) {
      const nl = buf.indexOf(NEWLINE, start);
      const end = nl === -1 ? buf.length : nl;
      const pieceLength = end - start;
      if (this.size + pieceLength > this.maxLineBytes) {
        this.fault(this.size + pieceLength, emit);
        return;
      }
      if (nl === -1) {
        if (pieceLength > 0) {
          this.parts.push(buf.subarray(start, end));
          this.size += pieceLength;
        }
        return;
      }
      const piece = buf.subarray(start, end);
      const line = this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece], this.size + pieceLength);
      this.parts = [];
      this.size = 0;
      this.decode(line, emit);
      start = nl + 1;
    }
  }

  /** End of input: the trailing unterminated line, if any, is processed (§1.1). */
  end(emit: (event: FrameEvent) => void): void {
    if (this.faulted || this.size === 0) return;
    const line = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.decode(line, emit);
  }

  private fault(bytes: number, emit: (event: FrameEvent) => void): void {
    this.faulted = true;
    this.parts = [];
    this.size = 0;
    emit({ kind: 'oversize', bytes });
  }

  private decode(line: Buffer, emit: (event: FrameEvent) => void): void {
    let text: string;
    try {
      text = this.utf8.decode(line);
    } catch {
      emit({ kind: 'invalid-utf8', bytes: line.length });
      return;
    }
    text = text.trim();
    if (text.length > 0) emit({ kind: 'line', text });
  }
}

/** Serialises one outgoing message as a protocol line: `JSON.stringify(message) + "\n"`. */
export function encodeLine(message: object): Buffer {
  return Buffer.from(`${JSON.stringify(message)}\n`, 'utf8');
}
