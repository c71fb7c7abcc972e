/**
 * Per-session journal of emitted `session/update` frames (ARCHITECTURE.md §4.2): a bounded ring
 * (count and bytes, §8) of already-serialized frames, each with the hub seq (+1 per update per
 * session) and the hub epoch it was emitted in. The frames' bytes are kept outside the JS heap
 * (frame-store.ts); replay sends the stored bytes, so a replayed update is byte-identical to the
 * live one.
 *
 * Where each frame is stored lives in typed arrays, not in an object per update: an object per
 * journaled update outlived every scavenge of its first seconds and was promoted, to be marked by
 * every major collection for as long as the ring held it (74 bytes of heap per streamed
 * update, BENCHMARKS.md, twenty-second session). {@link JournalEntry} is made only when entries
 * are read (a replay, the REST events route).
 */
import { z } from 'zod';
import { Frame } from '../delivery/frame.js';
import { FrameStore } from './frame-store.js';

/** A journaled `session/update` frame, read back for the REST events route. */
const journalFrameSchema = z.looseObject({ params: z.looseObject({ update: z.unknown() }) });

/** A page of the journal as the REST events route answers it. */
export interface JournalEvents {
  epoch: string;
  lastSeq: number;
  events: Array<{ seq: number; epoch: string; update: unknown }>;
}

/** One journaled update as read back: its seq and epoch, and where its bytes are stored. */
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

/** Slots of a new ring; it doubles as it fills, up to what the count cap needs. */
const FIRST_CAPACITY = 64;
/** A slot's fields in {@link Journal}'s ring: the store's chunk number, the offset in it, the byte length. */
const CHUNK = 0;
const AT = 1;
const BYTES = 2;
const SLOT_FIELDS = 3;

/** Bounded ring of serialized updates for one session. */
export class Journal {
  private readonly store = new FrameStore();
  // The ring: slot `(head + i) & mask` describes the i-th oldest retained update (seq `firstSeq + i`),
  // its fields at `slot * SLOT_FIELDS` in `slots`.
  private slots = new Uint32Array(FIRST_CAPACITY * SLOT_FIELDS);
  private mask = FIRST_CAPACITY - 1;
  private head = 0;
  private count = 0;
  /**
   * The epoch of each run of seqs, oldest first: a run starts at `from` and lasts until the next
   * one's. The last is the current epoch, its `from` the first seq assigned in it (a gap reaching
   * before that is not exact).
   */
  private readonly epochs: Array<{ from: number; epoch: string }>;
  private bytes = 0;
  private last = 0;

  constructor(
    private readonly limits: JournalLimits,
    epoch: string,
  ) {
    this.epochs = [{ from: 1, epoch }];
  }

  /** The seq of the newest update (0 before the first). */
  get lastSeq(): number {
    return this.last;
  }

  get epoch(): string {
    return this.current.epoch;
  }

  /** Updates currently retained. */
  get size(): number {
    return this.count;
  }

  /** Serialized bytes currently retained. */
  get retainedBytes(): number {
    return this.bytes;
  }

  /** The store's chunks held for the retained updates (each is freed once no retained update is in it). */
  get retainedChunks(): number {
    return this.store.heldChunks;
  }

  /** Seq of the oldest retained update, or `lastSeq + 1` when empty. */
  get firstSeq(): number {
    return this.last - this.count + 1;
  }

  /** Starts a new epoch (hub start, backend restart): older positions can no longer be resumed exactly. */
  setEpoch(epoch: string): void {
    const current = this.current;
    if (epoch === current.epoch) return;
    // A run nothing was journaled in yet is renamed, not kept: restarts with no update between add no runs.
    if (current.from === this.last + 1) current.epoch = epoch;
    else this.epochs.push({ from: this.last + 1, epoch });
  }

  private get current(): { from: number; epoch: string } {
    return this.epochs[this.epochs.length - 1] as { from: number; epoch: string };
  }

  /**
   * Reserves the next seq (`lastSeq` once it returns) and stores the frame `build(seq, epoch)`
   * returns. The builder serializes and encodes once; the caller sends the returned frame to
   * every attached client. The journal keeps a copy of its bytes in its own store, outside the JS heap.
   */
  append(build: (seq: number, epoch: string) => Frame): Frame {
    const seq = this.last + 1;
    const frame = build(seq, this.current.epoch);
    const size = frame.bytes.length;
    const at = this.store.put(frame.bytes);
    const chunkNumber = this.store.chunkNumber;
    if (this.count > this.mask) this.grow();
    const slot = ((this.head + this.count) & this.mask) * SLOT_FIELDS;
    this.slots[slot + CHUNK] = chunkNumber;
    this.slots[slot + AT] = at;
    this.slots[slot + BYTES] = size;
    this.count += 1;
    this.last = seq;
    this.bytes += size;
    this.trim();
    return frame;
  }

  /**
   * The updates after `afterSeq` for a client that last saw (`afterSeq`, `epoch`): exactly the
   * missing ones while they are all still in the ring and in this epoch, else `impossible`.
   */
  since(afterSeq: number, epoch: string | undefined): GapResult {
    if (epoch !== undefined && epoch !== this.current.epoch) return { kind: 'impossible', reason: 'epoch' };
    if (afterSeq > this.last) return { kind: 'impossible', reason: 'ahead' };
    if (afterSeq + 1 < this.current.from) return { kind: 'impossible', reason: 'epoch' };
    if (afterSeq + 1 < this.firstSeq) return { kind: 'impossible', reason: 'trimmed' };
    return { kind: 'exact', entries: this.read(afterSeq + 1, this.last) };
  }

  /** Up to `limit` entries after `afterSeq` (REST `/sessions/{id}/events`), oldest first. */
  page(afterSeq: number, limit: number): JournalEntry[] {
    const from = Math.max(afterSeq + 1, this.firstSeq);
    return this.read(from, Math.min(this.last, from + Math.max(0, limit) - 1));
  }

  /** {@link page} as the REST events route answers it: each entry's update read back from its frame. */
  events(afterSeq: number, limit: number): JournalEvents {
    const events = this.page(afterSeq, limit).map((e) => ({
      seq: e.seq,
      epoch: e.epoch,
      update: journalFrameSchema.parse(JSON.parse(e.frame)).params.update,
    }));
    return { epoch: this.epoch, lastSeq: this.lastSeq, events };
  }

  /** The retained entries of seqs `from`…`to` (both within the ring). */
  private read(from: number, to: number): JournalEntry[] {
    const out: JournalEntry[] = [];
    const first = this.firstSeq;
    let run = 0;
    for (let seq = from; seq <= to; seq++) {
      while ((this.epochs[run + 1]?.from ?? Infinity) <= seq) run++;
      const slot = ((this.head + (seq - first)) & this.mask) * SLOT_FIELDS;
      const chunk = this.store.chunkAt(this.field(slot, CHUNK));
      const epoch = (this.epochs[run] as { epoch: string }).epoch;
      out.push(new JournalEntry(seq, epoch, chunk, this.field(slot, AT), this.field(slot, BYTES)));
    }
    return out;
  }

  private field(slot: number, field: number): number {
    return this.slots[slot + field] as number;
  }

  /** Doubles the ring, oldest first from slot 0. */
  private grow(): void {
    const capacity = (this.mask + 1) * 2;
    const slots = new Uint32Array(capacity * SLOT_FIELDS);
    // The full ring in order: its part from `head` to the end, then its part from 0.
    const from = this.head * SLOT_FIELDS;
    slots.set(this.slots.subarray(from));
    slots.set(this.slots.subarray(0, from), this.slots.length - from);
    this.slots = slots;
    this.mask = capacity - 1;
    this.head = 0;
  }

  private trim(): void {
    while (this.count > 0 && (this.count > this.limits.maxUpdates || this.bytes > this.limits.maxBytes)) {
      this.bytes -= this.field(this.head * SLOT_FIELDS, BYTES);
      this.head = (this.head + 1) & this.mask;
      this.count -= 1;
    }
    // Chunks no retained update is in are let go (the store keeps writing into its current one).
    this.store.releaseBefore(this.count > 0 ? this.field(this.head * SLOT_FIELDS, CHUNK) : this.store.chunkNumber);
    const first = this.firstSeq;
    while (this.epochs.length > 1 && (this.epochs[1] as { from: number }).from <= first) this.epochs.shift();
  }
}
