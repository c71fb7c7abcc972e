/**
 * Per-session journal of emitted `session/update` frames (ARCHITECTURE.md §4.2): a bounded ring
 * (count and bytes, §8) of already-serialized frames, each with the hub seq (+1 per update per
 * session) and the hub epoch it was emitted in. The frames' bytes are kept outside the JS heap
 * (frame-store.ts); replay sends the stored bytes, so a replayed update is byte-identical to the
 * live one.
 */
import { z } from 'zod';
import { Frame } from '../delivery/frame.js';
import { FrameStore } from './frame-store.js';

/** A journaled `session/update` frame, read back for the REST events route. */
export const journalFrameSchema = z.looseObject({ params: z.looseObject({ update: z.unknown() }) });

/** One journaled update: its seq and epoch, and where its bytes are stored. */
export class JournalEntry {
  constructor(
    readonly seq: number,
    readonly epoch: string,
    /** The store's chunk holding its bytes, from `at`. */
    private readonly chunk: Buffer,
    private readonly at: number,
    /** Its UTF-8 length (what the byte cap counts). */
    readonly bytes: number,
  ) {}

  /** The serialized JSON-RPC notification, exactly as sent live (decoded on each read). */
  get frame(): string {
    return this.chunk.toString('utf8', this.at, this.at + this.bytes);
  }

  /** The stored bytes as a frame to send again, not re-encoded (its text is decoded only if read). */
  toFrame(): Frame {
    return new Frame(this.chunk.subarray(this.at, this.at + this.bytes));
  }
}

/** Result of asking for the updates after `afterSeq`. */
export type GapResult = { kind: 'exact'; entries: JournalEntry[] } | { kind: 'impossible'; reason: 'epoch' | 'trimmed' | 'ahead' };

export interface JournalLimits {
  maxUpdates: number;
  maxBytes: number;
}

/** Bounded ring of serialized updates for one session. */
export class Journal {
  /** The ring; slots before `head` were trimmed and are emptied, so their chunks can be freed. */
  private entries: Array<JournalEntry | undefined> = [];
  private readonly store = new FrameStore();
  /** Index of the oldest live entry in `entries` (the emptied slots before it are compacted lazily). */
  private head = 0;
  private bytes = 0;
  private last = 0;
  private currentEpoch: string;
  /** First seq assigned in the current epoch: a gap reaching before it is not exact. */
  private epochStartSeq = 1;

  constructor(
    private readonly limits: JournalLimits,
    epoch: string,
  ) {
    this.currentEpoch = epoch;
  }

  /** The seq of the newest update (0 before the first). */
  get lastSeq(): number {
    return this.last;
  }

  get epoch(): string {
    return this.currentEpoch;
  }

  /** Updates currently retained. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** Serialized bytes currently retained. */
  get retainedBytes(): number {
    return this.bytes;
  }

  /** Seq of the oldest retained update, or `lastSeq + 1` when empty. */
  get firstSeq(): number {
    return this.entries[this.head]?.seq ?? this.last + 1;
  }

  /** Starts a new epoch (hub start, backend restart): older positions can no longer be resumed exactly. */
  setEpoch(epoch: string): void {
    if (epoch === this.currentEpoch) return;
    this.currentEpoch = epoch;
    this.epochStartSeq = this.last + 1;
  }

  /**
   * Reserves the next seq and stores the frame `build(seq, epoch)` returns. The builder
   * serializes and encodes once; the caller sends the returned frame to every attached client.
   * The journal keeps a copy of its bytes in its own store, outside the JS heap.
   */
  append(build: (seq: number, epoch: string) => Frame): { entry: JournalEntry; frame: Frame } {
    const seq = this.last + 1;
    const frame = build(seq, this.currentEpoch);
    const at = this.store.put(frame.bytes);
    const entry = new JournalEntry(seq, this.currentEpoch, this.store.chunk, at, frame.bytes.length);
    this.last = seq;
    this.entries.push(entry);
    this.bytes += entry.bytes;
    this.trim();
    return { entry, frame };
  }

  /**
   * The updates after `afterSeq` for a client that last saw (`afterSeq`, `epoch`): exactly the
   * missing ones while they are all still in the ring and in this epoch, else `impossible`.
   */
  since(afterSeq: number, epoch: string | undefined): GapResult {
    if (epoch !== undefined && epoch !== this.currentEpoch) return { kind: 'impossible', reason: 'epoch' };
    if (afterSeq > this.last) return { kind: 'impossible', reason: 'ahead' };
    if (afterSeq + 1 < this.epochStartSeq) return { kind: 'impossible', reason: 'epoch' };
    if (afterSeq + 1 < this.firstSeq) return { kind: 'impossible', reason: 'trimmed' };
    const start = this.head + (afterSeq + 1 - this.firstSeq);
    return { kind: 'exact', entries: this.entries.slice(start) as JournalEntry[] };
  }

  /** Up to `limit` entries after `afterSeq` (REST `/sessions/{id}/events`), oldest first. */
  page(afterSeq: number, limit: number): JournalEntry[] {
    const from = Math.max(afterSeq + 1, this.firstSeq);
    const start = this.head + (from - this.firstSeq);
    return this.entries.slice(start, start + Math.max(0, limit)) as JournalEntry[];
  }

  private trim(): void {
    while (this.size > 0 && (this.size > this.limits.maxUpdates || this.bytes > this.limits.maxBytes)) {
      const dropped = this.entries[this.head];
      if (dropped === undefined) break;
      this.bytes -= dropped.bytes;
      this.entries[this.head] = undefined;
      this.head += 1;
    }
    // Compact lazily so trimming stays O(1) amortised.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
