/**
 * The heartbeat, spread over its interval. One timer used to ping every connection at once each
 * `heartbeatIntervalMs`: with a team of 1,000 devices that is 1,000 socket writes in one turn of
 * the loop, and 1,000 pongs back, while the sessions' streams wait behind them (B-SCALE's slow
 * samples gathered in one window of every run, BENCHMARKS.md thirty-third section). The wheel
 * deals the connections over slices of the interval and pings one slice a tick, so every
 * connection is still pinged once an interval and one that missed its pong is still terminated at
 * its next ping, but a tick writes to a slice of the team.
 */

/** What the wheel pings: terminates itself when the last ping got no pong, else pings again. */
export interface Beating {
  heartbeat(): void;
}

/** Ticks of at least this long: a short interval (tests) is not cut finer than this. */
const MIN_TICK_MS = 100;
/** Slices of an interval at most: one a second at the default 30 s. */
const MAX_SLICES = 30;

/** How many slices an interval is dealt over: ticks of at least {@link MIN_TICK_MS}, at most {@link MAX_SLICES}. */
export function sliceCount(intervalMs: number): number {
  return Math.max(1, Math.min(MAX_SLICES, Math.floor(intervalMs / MIN_TICK_MS)));
}

export class HeartbeatWheel<T extends Beating> {
  private readonly slices: Array<Set<T>>;
  private readonly sliceOf = new Map<T, number>();
  /** The slice the next tick pings. */
  private hand = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number) {
    this.slices = Array.from({ length: sliceCount(intervalMs) }, () => new Set<T>());
  }

  /** A new connection joins the emptiest slice (the slices stay even through a reconnect storm). */
  add(member: T): void {
    if (this.sliceOf.has(member)) return;
    let slice = 0;
    for (let i = 1; i < this.slices.length; i++) if (this.slices[i]!.size < this.slices[slice]!.size) slice = i;
    this.slices[slice]!.add(member);
    this.sliceOf.set(member, slice);
  }

  /** A connection is gone. */
  remove(member: T): void {
    const slice = this.sliceOf.get(member);
    if (slice === undefined) return;
    this.sliceOf.delete(member);
    this.slices[slice]!.delete(member);
  }

  /** Connections on the wheel. */
  get size(): number {
    return this.sliceOf.size;
  }

  /** Starts ticking (idempotent); the timer never holds the process open. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(this.tick, this.intervalMs / this.slices.length);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Pings the slice under the hand; a member that terminates leaves its slice meanwhile, which a Set allows. */
  readonly tick = (): void => {
    const slice = this.slices[this.hand]!;
    this.hand = (this.hand + 1) % this.slices.length;
    for (const member of slice) member.heartbeat();
  };
}
