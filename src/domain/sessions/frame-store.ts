/**
 * The bytes of a journal's frames, kept outside the JS heap (ARCHITECTURE.md §4.2). A journaled
 * frame lives for minutes; kept as a string, it sat in the old generation for every major
 * collection to mark (8.2 of the 21.2 MB of strings on the heap after 14,000 updates of the
 * per-event harness, BENCHMARKS.md, eleventh session). Frames are copied back to back into chunks
 * allocated outside Buffer's shared pool, numbered in the order they were made; the store holds
 * them until the journal says the oldest are no longer read (its entries in them were trimmed).
 * Chunks start small and double, so a session that streams little holds little.
 */

/** The first chunk of a store; each next one doubles, up to {@link MAX_CHUNK_BYTES}. */
const FIRST_CHUNK_BYTES = 4 * 1024;
/** The largest chunk; a frame larger than this gets a chunk of its own size. */
export const MAX_CHUNK_BYTES = 256 * 1024;

export class FrameStore {
  /** The chunks held, oldest first: `held[0]` is chunk number `heldBase`; the last is the one being filled. */
  private readonly held: Buffer[] = [];
  private heldBase = 0;
  private used = 0;
  private nextSize = FIRST_CHUNK_BYTES;

  /** Copies `bytes` into the store and answers their offset in chunk {@link chunkNumber} (read it right after). */
  put(bytes: Uint8Array): number {
    let chunk = this.held[this.held.length - 1];
    if (chunk === undefined || this.used + bytes.length > chunk.length) chunk = this.grow(bytes.length);
    const at = this.used;
    chunk.set(bytes, at);
    this.used = at + bytes.length;
    return at;
  }

  /** The number of the chunk the last {@link put} wrote into (chunks are numbered from 0 as they are made; -1 before the first). */
  get chunkNumber(): number {
    return this.heldBase + this.held.length - 1;
  }

  /** Chunks held (the one being filled included). */
  get heldChunks(): number {
    return this.held.length;
  }

  /** Chunk `number`, which must not have been released. */
  chunkAt(number: number): Buffer {
    const chunk = this.held[number - this.heldBase];
    if (chunk === undefined) throw new Error(`FrameStore: chunk ${number} is not held`);
    return chunk;
  }

  /** Lets go of the chunks before `number` (never the one being filled): nothing stored in them is read again. */
  releaseBefore(number: number): void {
    const drop = Math.min(number, this.chunkNumber) - this.heldBase;
    if (drop <= 0) return;
    this.held.splice(0, drop);
    this.heldBase += drop;
  }

  private grow(need: number): Buffer {
    const size = Math.max(need, this.nextSize);
    this.nextSize = Math.min(this.nextSize * 2, MAX_CHUNK_BYTES);
    // Not from the shared 8 KiB pool: a long-lived entry would pin a slab of other buffers.
    const chunk = Buffer.allocUnsafeSlow(size);
    this.held.push(chunk);
    this.used = 0;
    return chunk;
  }
}
