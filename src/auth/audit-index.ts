/**
 * Where the audit log's entries start, so a page of it is read from just before its cursor
 * instead of the whole file (the log only grows: read whole, a page of a 100,000-entry log held the
 * event loop about 240 ms, and the start as long; BENCHMARKS.md, twenty-third session).
 *
 * The index keeps the seq and byte offset of every {@link AUDIT_INDEX_EVERY}-th entry, found by
 * one pass over the file in chunks when the first page is asked for (each line's seq read from its
 * head, where the log writes it) and added to as entries are appended; the start reads only the
 * log's tail, for its last seq. Seqs increase along the file (the log writes
 * them so); a page reads forward from the last indexed entry at or before its cursor, parsing
 * at most {@link AUDIT_INDEX_EVERY} lines it skips and the page's own.
 */
import fs from 'node:fs';

/** One indexed entry per this many. */
export const AUDIT_INDEX_EVERY = 256;
/** Bytes read at a time, at start and for a page. */
const CHUNK_BYTES = 256 * 1024;
/** A line's seq, as the log writes it first. */
const SEQ_AT_HEAD = /^\{"seq":(\d+)[,}]/;

export class AuditIndex {
  private readonly seqs: number[] = [];
  private readonly offsets: number[] = [];
  /** Entries noted since the last indexed one. */
  private sinceIndexed = 0;

  /** The index of the log open at `fd`, read in one pass. */
  static build(fd: number): AuditIndex {
    const index = new AuditIndex();
    forEachLine(fd, 0, (line, offset) => {
      const seq = SEQ_AT_HEAD.exec(line)?.[1];
      if (seq !== undefined) index.note(Number(seq), offset);
      return true;
    });
    return index;
  }

  /** An entry with `seq` starts at byte `offset`. */
  note(seq: number, offset: number): void {
    if (this.sinceIndexed === 0) {
      this.seqs.push(seq);
      this.offsets.push(offset);
    }
    this.sinceIndexed = (this.sinceIndexed + 1) % AUDIT_INDEX_EVERY;
  }

  /** Where to start reading for the entries after seq `after`: the last indexed entry at or before it (0 when none). */
  startFor(after: number): number {
    let lo = 0;
    let hi = this.seqs.length - 1;
    let found = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((this.seqs[mid] ?? Number.POSITIVE_INFINITY) <= after) {
        found = this.offsets[mid] ?? 0;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}

/** Calls `each` with every non-empty line from `offset` on (and the byte offset it starts at) until it answers false. */
export function forEachLine(fd: number, offset: number, each: (line: string, at: number) => boolean): void {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let carry = Buffer.alloc(0);
  let carryAt = offset;
  for (let at = offset; ; ) {
    const read = fs.readSync(fd, chunk, 0, CHUNK_BYTES, at);
    const data = read === 0 ? carry : Buffer.concat([carry, chunk.subarray(0, read)]);
    at += read;
    let start = 0;
    for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, start)) {
      if (nl > start && !each(data.toString('utf8', start, nl), carryAt + start)) return;
      start = nl + 1;
    }
    if (read === 0) {
      // A last line without its newline (being written, or torn).
      if (start < data.length) each(data.toString('utf8', start), carryAt + start);
      return;
    }
    carry = Buffer.from(data.subarray(start));
    carryAt += start;
  }
}
