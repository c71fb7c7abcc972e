/** A fixed-size ring of the child's most recent stderr lines (diagnostics: doctor, /api/status). */
export class LineRing {
  private readonly lines: (string | undefined)[];
  private next = 0;
  private count = 0;

  constructor(private readonly capacity: number) {
    this.lines = new Array<string | undefined>(Math.max(0, capacity));
  }

  push(line: string): void {
    if (this.capacity <= 0) return;
    this.lines[this.next] = line;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** Oldest first. */
  toArray(): string[] {
    const out: string[] = [];
    const start = (this.next - this.count + this.capacity) % Math.max(1, this.capacity);
    for (let i = 0; i < this.count; i++) {
      const line = this.lines[(start + i) % this.capacity];
      if (line !== undefined) out.push(line);
    }
    return out;
  }

  clear(): void {
    this.lines.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}

/**
 * Splits a text stream into lines with bounded memory: an unterminated tail longer than
 * `maxPartial` is flushed as a line, and every line is cut to `maxLineChars`.
 */
export class LineSplitter {
  private partial = '';

  constructor(
    private readonly maxLineChars: number,
    private readonly maxPartial: number,
  ) {}

  push(text: string, emit: (line: string) => void): void {
    const buf = this.partial.length > 0 ? this.partial + text : text;
    let start = 0;
    let nl = buf.indexOf('\n');
    while (nl !== -1) {
      this.emitLine(buf.slice(start, nl), emit);
      start = nl + 1;
      nl = buf.indexOf('\n', start);
    }
    let rest = start === 0 ? buf : buf.slice(start);
    if (rest.length > this.maxPartial) {
      this.emitLine(rest, emit);
      rest = '';
    }
    this.partial = rest;
  }

  end(emit: (line: string) => void): void {
    if (this.partial.length > 0) this.emitLine(this.partial, emit);
    this.partial = '';
  }

  private emitLine(raw: string, emit: (line: string) => void): void {
    const line = raw.replace(/\r$/, '');
    if (line.trim().length === 0) return;
    emit(line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}… [${line.length - this.maxLineChars} chars cut]` : line);
  }
}
