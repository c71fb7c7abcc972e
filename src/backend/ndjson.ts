/**
 * ndjson framing of the child's stdout (APP-SERVER.md §1.2): UTF-8, one JSON object per line,
 * `\n`-terminated; lines are trimmed and empty ones skipped, as the server does. Works on raw
 * bytes so a multi-byte character split across chunks is reassembled before decoding, and
 * invalid UTF-8 is detected per line instead of being silently replaced.
 *
 * Memory is bounded by `maxLineBytes`: a line longer than that is skipped, not kept — its bytes
 * are counted and dropped as they arrive, only its first and last few bytes are kept (so the
 * caller can tell whose answer it was), and framing resumes after its newline. One oversize line
 * never costs the child or the other sessions (requirement CHD-03).
 */
export type FrameEvent =
  | { kind: 'line'; text: string }
  | { kind: 'invalid-utf8'; bytes: number }
  | { kind: 'oversize'; bytes: number; head: string; tail: string };

const NEWLINE = 0x0a;
/** Bytes kept from each end of a skipped line: enough for `{"id":…` or `…,"id":…}`. */
export const OVERSIZE_EDGE_BYTES = 256;

/** A line being skipped: its size so far, its first bytes and a rolling window of its last bytes. */
class SkippedLine {
  bytes = 0;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  add(piece: Buffer): void {
    this.bytes += piece.length;
    if (this.head.length < OVERSIZE_EDGE_BYTES)
      this.head = Buffer.concat([this.head, piece.subarray(0, OVERSIZE_EDGE_BYTES - this.head.length)]);
    const joined =
      piece.length >= OVERSIZE_EDGE_BYTES ? piece.subarray(piece.length - OVERSIZE_EDGE_BYTES) : Buffer.concat([this.tail, piece]);
    this.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - OVERSIZE_EDGE_BYTES)));
  }

  event(): FrameEvent {
    return { kind: 'oversize', bytes: this.bytes, head: this.head.toString('utf8'), tail: this.tail.toString('utf8') };
  }
}

export class NdjsonDecoder {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping: SkippedLine | undefined;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  constructor(private readonly maxLineBytes: number) {}

  /** True while the bytes of an oversize line are being skipped. */
  get isSkipping(): boolean {
    return this.skipping !== undefined;
  }

  /** Bytes of the unterminated line currently buffered (0 while skipping). */
  get bufferedBytes(): number {
    return this.size;
  }

  /** Feeds one chunk; calls `emit` for each complete line and each skipped oversize line. */
  push(chunk: Uint8Array, emit: (event: FrameEvent) => void): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start <= buf.length) {
      const nl = buf.indexOf(NEWLINE, start);
      const end = nl === -1 ? buf.length : nl;
      const piece = buf.subarray(start, end);
      if (!this.skipping && this.size + piece.length > this.maxLineBytes) {
        // Over the cap: stop buffering, keep only the edges from here to the newline.
        this.skipping = new SkippedLine();
        for (const part of this.parts) this.skipping.add(part);
        this.parts = [];
        this.size = 0;
      }
      if (this.skipping) {
        this.skipping.add(piece);
        if (nl === -1) return;
        emit(this.skipping.event());
        this.skipping = undefined;
        start = nl + 1;
        continue;
      }
      if (nl === -1) {
        if (piece.length > 0) {
          this.parts.push(piece);
          this.size += piece.length;
        }
        return;
      }
      const line = this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece], this.size + piece.length);
      this.parts = [];
      this.size = 0;
      this.decode(line, emit);
      start = nl + 1;
    }
  }

  /** End of input: the trailing unterminated line, if any, is processed (§1.1). */
  end(emit: (event: FrameEvent) => void): void {
    if (this.skipping) {
      emit(this.skipping.event());
      this.skipping = undefined;
      return;
    }
    if (this.size === 0) return;
    const line = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.decode(line, emit);
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

/**
 * The JSON-RPC id of a skipped line, when its edges show it is a response or error: the server
 * writes `JSON.stringify(message)`, so the id is either the first key (`{"id":5,"result":…`) or
 * the last (`…,"id":5}`), §1.2, §1.5.
 */
export function oversizeResponseId(head: string, tail: string): string | number | undefined {
  const m = /^\s*\{"id":(-?\d+|"(?:[^"\\]|\\.)*")[,}]/.exec(head) ?? /[,{]"id":(-?\d+|"(?:[^"\\]|\\.)*")\}\s*$/.exec(tail);
  if (!m?.[1]) return undefined;
  if (!/"(result|error)":/.test(head)) return undefined;
  return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : Number(m[1]);
}

/** Serialises one outgoing message as a protocol line: `JSON.stringify(message) + "\n"`. */
export function encodeLine(message: object): Buffer {
  return Buffer.from(`${JSON.stringify(message)}\n`, 'utf8');
}
