/**
 * Write batching for the broadcast path (ARCHITECTURE.md §4.3). `ws` writes every frame with its own
 * socket write, i.e. one `writev` syscall per frame per client: at load L that was 75 % of the
 * hub's busy time (BENCHMARKS.md, profile at load L). A connection keeps the frames of an event-loop
 * turn in a list and registers here at its first one; one `setImmediate` for the whole gateway
 * writes every registered connection's list once the turn's I/O callbacks have run, as one buffer
 * of WebSocket frames: all frames built from one child stdout chunk leave in one write per client.
 *
 * The buffer is built once per distinct list: every client of a session that was sent the same
 * frames this turn (the common case: one broadcast to many) gets the same buffer, so a turn of n
 * updates to c clients costs c socket writes and one copy, where writing frame by frame into a
 * corked socket cost n × c stream writes (BENCHMARKS.md, tenth session).
 */
import type { Frame } from '../domain/delivery/frame.js';
import { wsTextFrames } from './ws-text-frame.js';

/**
 * A batch is written early once it holds this many bytes: the kernel is offered large bursts
 * (a replay, an image echo) at once, so the outbound budget still judges a backlog the kernel
 * refused rather than bytes held back here, and one buffer stays a few hundred frames at most.
 */
export const MAX_BATCH_BYTES = 64 * 1024;

/** The part of a `net.Socket` batching needs (`write` takes whole pre-built WebSocket frames). */
export interface RawSocket {
  write(chunk: Buffer): unknown;
  /** Bytes written and not yet taken by the kernel (`Writable.writableLength`). */
  readonly writableLength: number;
}

/** A connection holding a turn's frames, written at the end of the turn. */
export interface Batched {
  flushBatch(): void;
}

/** One turn's list of frames and its bytes, kept while the turn's batches are written. */
interface Joined {
  frames: readonly Frame[];
  wire: Buffer;
}

/**
 * Writes every connection that held frames during this turn, with one `setImmediate`. The
 * turn's connections are kept in a plain list: a connection registers once per batch, and one
 * that wrote early at {@link MAX_BATCH_BYTES} and held again in the same turn is listed twice,
 * which is harmless (`flushBatch` is idempotent). A list costs less per client than a set's
 * hashing, and this runs for every client of every broadcast turn. Two lists take turns (the one
 * being written and the one filling) and keep their backing stores: a fresh list per turn grew
 * by copying to every audience's size again.
 */
export class WriteBatcher {
  private held: Array<Batched | undefined> = [];
  private heldCount = 0;
  private spare: Array<Batched | undefined> = [];
  private scheduled = false;
  /**
   * This turn's joined lists, by their first frame: a new map for each turn that joins, dropped
   * once the turn's batches are written, never `clear()`ed. V8 gives a cleared map its new table
   * in the generation the old one was in, and leaves the old table, entries and all, for the next
   * full collection. A kept map whose table once grew old (one turn long enough for two
   * scavenges, as a big chunk of the child's output is) stayed old for good: every turn's joined
   * frames, with their text and WebSocket bytes, were then referenced from the old generation,
   * survived every scavenge and were promoted. 900 bytes promoted per streamed event, 110 with a
   * map of the turn's own (bench/event-micro.ts; test/gateway/write-batch-generations.test.ts).
   */
  private joined: Map<Frame, Joined[]> | undefined;

  /** Registers a connection that holds frames; its batch is written at the end of the turn. */
  hold(conn: Batched): void {
    this.held[this.heldCount++] = conn;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flushAll);
  }

  /**
   * The WebSocket bytes of a client's batch of two frames or more, its first `count` frames (a
   * batch of one is its frame's own bytes, `Frame.wire`). Clients that were sent the
   * same frames in the same order this turn share one buffer: a list is compared frame by frame
   * (by identity) with the lists already built that start with the same frame.
   */
  join(frames: ReadonlyArray<Frame | undefined>, count: number): Buffer {
    // Only a batch of two frames or more comes here (the connection writes a single frame's own bytes).
    const first = frames[0] as Frame;
    const joined = (this.joined ??= new Map());
    let built = joined.get(first);
    if (built === undefined) {
      built = [];
      joined.set(first, built);
    } else {
      for (const j of built) if (sameFrames(j.frames, frames, count)) return j.wire;
    }
    // A copy: the connection clears and refills its list.
    const own = frames.slice(0, count) as Frame[];
    const wire = wsTextFrames(own);
    built.push({ frames: own, wire });
    return wire;
  }

  private readonly flushAll = (): void => {
    this.scheduled = false;
    const held = this.held;
    const count = this.heldCount;
    // A connection that holds again while this turn's are written lands in the other list.
    this.held = this.spare;
    this.heldCount = 0;
    this.spare = held;
    for (let i = 0; i < count; i++) {
      const conn = held[i] as Batched;
      held[i] = undefined;
      conn.flushBatch();
    }
    this.joined = undefined;
  };
}

/** Whether `a` is exactly the first `count` frames of `b`. */
function sameFrames(a: readonly Frame[], b: ReadonlyArray<Frame | undefined>, count: number): boolean {
  if (a.length !== count) return false;
  for (let i = 0; i < count; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The upgraded request's TCP socket when it can be written directly. `ws` keeps its socket
 * private; the HTTP request of an upgrade carries the same `net.Socket` publicly (`req.socket`),
 * which is what the gateway hands in. Anything else (an injected test stream) is sent unbatched.
 */
export function rawSocket(socket: unknown): RawSocket | undefined {
  if (typeof socket !== 'object' || socket === null) return undefined;
  const s = socket as Partial<RawSocket> & { destroyed?: unknown };
  if (typeof s.write !== 'function' || typeof s.writableLength !== 'number' || s.destroyed === true) return undefined;
  return s as RawSocket;
}
