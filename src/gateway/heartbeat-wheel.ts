/**
 * The heartbeat spread over its interval (issue 16). Pinging every connection in one sweep every
 * `heartbeatIntervalMs` wrote 1,000 pings in one event-loop turn at 1,000 clients: the live
 * stream waited behind them (B-SCALE streaming p99 19–22 ms with the sweep, 10.9 ms without it).
 * Connections are dealt into slots instead, one slot beaten per tick of about
 * `HEARTBEAT_TICK_MS`, so each still gets one beat per interval and a tick touches 1/slots of them.
 */

/** About how often a slot is beaten; the interval is cut into `round(interval / tick)` slots (at least one). */
export const HEARTBEAT_TICK_MS = 1_000;

export interface Beating {
  heartbeat(): void;
}

export class HeartbeatWheel<T extends Beating> {
  private readonly slots: Array<Set<T>>;
  private readonly slotOf = new Map<T, Set<T>>();
  private readonly tickMs: number;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(intervalMs: number, tickMs = HEARTBEAT_TICK_MS) {
    const count = Math.max(1, Math.round(intervalMs / tickMs));
    this.slots = Array.from({ length: count }, () => new Set<T>());
    this.tickMs = intervalMs / count;
  }

  /** Starts ticking (idempotent); the timer does not keep the process alive. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Joins the least-filled slot, so slots stay even while connections come and go. */
  add(item: T): void {
    if (this.slotOf.has(item)) return;
    let slot = this.slots[0] as Set<T>;
    for (const s of this.slots) if (s.size < slot.size) slot = s;
    slot.add(item);
    this.slotOf.set(item, slot);
  }

  remove(item: T): void {
    this.slotOf.get(item)?.delete(item);
    this.slotOf.delete(item);
  }

  /** Beats the next slot (a beat may remove its item: the slot is copied first). */
  tick(): void {
    const slot = this.slots[this.next] as Set<T>;
    this.next = (this.next + 1) % this.slots.length;
    for (const item of [...slot]) item.heartbeat();
  }

  /** How many slots the interval is cut into. */
  get slotCount(): number {
    return this.slots.length;
  }
}
