/**
 * The bytes of a journal's frames, kept outside the JS heap (ARCHITECTURE.md §4.2). A journaled
 * frame lives for minutes; kept as a string, it sat in the old generation for every major
 * collection to mark (8.2 of the 21.2 MB of strings on the heap after 14,000 updates of the
 * per-event harness, BENCHMARKS.md, eleventh session). Frames are copied back to back into chunks
 * allocated outside Buffer's shared pool, numbered in the order they were made; the journal keeps
 * the chunks its entries point into and lets go of the oldest as its entries are trimmed. Chunks
 * start small and double, so a session that streams little holds little.
 */

/** The first chunk of a store; each next one doubles, up to {@link MAX_CHUNK_BYTES}. */
const FIRST_CHUNK_BYTES = 4 * 1024;
/** The largest chunk; a frame larger than this gets a chunk of its own size. */
export const MAX_CHUNK_BYTES = 256 * 1024;

export class FrameStore {
  private current: Buffer | undefined;
  /** The number of {@link chunk}: 0 for the first, +1 for each next one. */
  private currentNumber = -1;
  private used = 0;
  private nextSize = FIRST_CHUNK_BYTES;

  /**
   * Copies `bytes` into the store and answers their offset in {@link chunk} (read it right
   * after): the bytes stay there while the caller keeps that chunk.
   */
  put(bytes: Uint8Array): number {
    let chunk = this.current;
    if (chunk === undefined || this.used + bytes.length > chunk.length) chunk = this.grow(bytes.length);
    const at = this.used;
    chunk.set(bytes, at);
    this.used = at + bytes.length;
    return at;
  }

  /** The chunk the last {@link put} wrote into. */
  get chunk(): Buffer {
    if (this.current === undefined) throw new Error('FrameStore: nothing stored yet');
    return this.current;
  }

  /** The number of the chunk the last {@link put} wrote into (chunks are numbered from 0 as they are made). */
  get chunkNumber(): number {
    return this.currentNumber;
  }

  private grow(need: number): Buffer {
    const size = Math.max(need, this.nextSize);
    this.nextSize = Math.min(this.nextSize * 2, MAX_CHUNK_BYTES);
    // Not from the shared 8 KiB pool: a long-lived entry would pin a slab of other buffers.
    const chunk = Buffer.allocUnsafeSlow(size);
    this.current = chunk;
    this.currentNumber += 1;
    this.used = 0;
    return chunk;
  }
}
