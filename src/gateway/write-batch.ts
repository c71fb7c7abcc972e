/**
 * Write batching for the broadcast path (ARCHITECTURE.md §4.3). `ws` writes every frame with its own
 * socket write, i.e. one `writev` syscall per frame per client: at load L that was 75 % of the
 * hub's busy time (BENCHMARKS.md, profile at load L). A connection corks its TCP socket at its
 * first send of an event-loop turn and registers here; one `setImmediate` for the whole gateway
 * uncorks every registered socket once the turn's I/O callbacks have run, so all frames built
 * from one child stdout chunk leave in one write per client.
 */

/**
 * A batch is flushed early once it holds this many bytes: the kernel is offered large bursts
 * (a replay, an image echo) at once, so the outbound budget still judges a backlog the kernel
 * refused rather than bytes held back here, and one writev stays within a few hundred iovecs.
 */
export const MAX_BATCH_BYTES = 64 * 1024;

/** The part of a `net.Socket` batching needs (`write` takes a whole pre-built WebSocket frame). */
export interface Corkable {
  cork(): void;
  uncork(): void;
  write(chunk: Buffer): unknown;
}

/** A connection with a corked socket, flushed at the end of the turn. */
export interface Batched {
  flushBatch(): void;
}

/**
 * Flushes every connection that corked its socket during this turn, with one `setImmediate`. The
 * turn's connections are kept in a plain list: a connection registers once per batch (when it
 * corks), and one that flushed early at {@link MAX_BATCH_BYTES} and corked again in the same turn
 * is listed twice, which is harmless (`flushBatch` is idempotent). A list costs less per client
 * than a set's hashing, and this runs for every client of every broadcast turn.
 */
export class WriteBatcher {
  private held: Batched[] = [];
  private scheduled = false;

  /** Registers a connection that just corked its socket; it is flushed at the end of the turn. */
  hold(conn: Batched): void {
    this.held.push(conn);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flushAll);
  }

  private readonly flushAll = (): void => {
    this.scheduled = false;
    const held = this.held;
    this.held = [];
    for (const conn of held) conn.flushBatch();
  };
}

/**
 * The upgraded request's TCP socket when it can be corked. `ws` keeps its socket private; the
 * HTTP request of an upgrade carries the same `net.Socket` publicly (`req.socket`), which is
 * what the gateway hands in. Anything else (an injected test stream) is sent unbatched.
 */
export function corkableSocket(socket: unknown): Corkable | undefined {
  if (typeof socket !== 'object' || socket === null) return undefined;
  const s = socket as Partial<Corkable> & { destroyed?: unknown };
  if (typeof s.cork !== 'function' || typeof s.uncork !== 'function' || typeof s.write !== 'function' || s.destroyed === true)
    return undefined;
  return s as Corkable;
}
