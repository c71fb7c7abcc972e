import type { z } from 'zod';
import { DELIVERY_KINDS, type DeliveryKind, type sessionEventEnvelope } from '../wire/events.js';
import { DeltaCoalescer, type EventDraft } from './coalescer.js';

export { DELIVERY_KINDS, type DeliveryKind };

/** A `session/event` params object (§5.1): the strict reading of its one definition. */
export type SessionEvent = z.infer<typeof sessionEventEnvelope.strict>;

/** Events retained per delivery kind; older ones are trimmed like the CLI's retention (§5.2). */
export const EVENT_RETENTION = 100_000;

class Projection {
  readonly coalescer: DeltaCoalescer;
  readonly events: SessionEvent[] = [];
  seq = 0;
  constructor(
    readonly kind: DeliveryKind,
    coalesce: boolean,
  ) {
    this.coalescer = new DeltaCoalescer(coalesce);
  }
}

/**
 * The in-memory event log of one session runtime: one seq space per delivery kind, starting
 * at 1, counting only visible (post-coalescing) events (§5.2). Live notifications flow only
 * once a delivery kind is set by subscribe or read-with-deliveryKind.
 */
export class EventLog {
  private readonly projections: Map<DeliveryKind, Projection>;
  private current: DeliveryKind | undefined;

  constructor(
    private readonly onLive: (event: SessionEvent) => void,
    coalesce = true,
    private readonly retention = EVENT_RETENTION,
  ) {
    this.projections = new Map(DELIVERY_KINDS.map((k) => [k, new Projection(k, coalesce)]));
  }

  /** The delivery kind that receives live events, if any. */
  get deliveryKind(): DeliveryKind | undefined {
    return this.current;
  }

  /** Sets the delivery kind: from now on that kind's events are pushed live (§4.7). */
  setDeliveryKind(kind: DeliveryKind): void {
    this.current = kind;
  }

  /** Appends a source event; `visible=false` for filtered internal events (they still flush batches). */
  append(draft: EventDraft, visible = true): void {
    for (const p of this.projections.values()) {
      for (const e of p.coalescer.push(draft, visible)) {
        const event: SessionEvent = { ...e, seq: ++p.seq, deliveryKind: p.kind };
        p.events.push(event);
        if (p.events.length > this.retention) p.events.splice(0, p.events.length - this.retention);
        if (p.kind === this.current) this.onLive(event);
      }
    }
  }

  /** Highest seq assigned so far in a kind (the current kind by default). */
  lastSeq(kind: DeliveryKind = this.current ?? 'desktop-continuous'): number {
    return this.projections.get(kind)?.seq ?? 0;
  }

  /** Retained events with `seq > afterSeq`; `limit` keeps the last N (§4.6). */
  after(afterSeq: number, kind: DeliveryKind = this.current ?? 'desktop-continuous', limit?: number): SessionEvent[] {
    const events = this.projections.get(kind)?.events ?? [];
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((events[mid]?.seq ?? 0) <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    const out = events.slice(lo);
    return limit !== undefined && out.length > limit ? out.slice(out.length - limit) : out;
  }
}
