/**
 * One session's subscription to the child's live events, as a state machine with one table
 * (APP-SERVER.md §5.2, ARCHITECTURE.md §4.2): whether the hub follows the session, the last
 * ZCode `seq` it saw, and what it holds while a `session/subscribe` with `afterSeq` is in flight.
 * The only writer of these facts; session-open.ts and event-ingest.ts tell it what happened and
 * ask it what to do. Pure: no I/O, no clock.
 *
 *   unsubscribed | subscribing | catching_up | subscribed ──start──▶ catching_up (a seq was seen:
 *       live events are held until the backlog is in) or subscribing (none yet: follow live only)
 *   subscribing | catching_up ──answered──▶ subscribed      (what was held is handed back)
 *   subscribing | catching_up ──failed──▶ unsubscribed      (what was held is handed back)
 *   subscribed ──lost (the child's exit, the session closed, a resubscribe)──▶ unsubscribed
 *
 * A loss while a subscribe is in flight changes nothing: that subscribe's answer or failure
 * decides (a child that exits fails it). A second subscribe racing the first (a link-side
 * resume during an open) shares the hold, and its late answer leaves the session subscribed.
 */
import type { StateFacts } from '../../acp/translate-state.js';

/** Where the session's live feed is. `catching_up`: subscribing from a seq, live events held. */
export type SubscriptionPhase = 'unsubscribed' | 'subscribing' | 'catching_up' | 'subscribed';

/** What can happen to the subscription. */
export type SubscriptionEvent =
  /** `session/subscribe` is sent now. */
  | 'start'
  /** It was answered. */
  | 'answered'
  /** It failed. */
  | 'failed'
  /** The child no longer sends this session's events (its exit, `session/close`, a resubscribe). */
  | 'lost';

/** What a subscribe held while it was in flight, in arrival order. */
export interface Held {
  readonly events: Array<{ seq: number; params: unknown }>;
  readonly states: StateFacts[];
  /** More live events came than `max` allows: the backlog cannot be trusted to fill the gap. */
  readonly overflow: boolean;
}

/** What the machine remembers besides the phase. */
interface Memory {
  hold: { events: Array<{ seq: number; params: unknown }>; states: StateFacts[]; overflow: boolean } | undefined;
  lastSeq: number;
}

type Rule = (m: Memory) => SubscriptionPhase | 'ignore';
type Row = { readonly [E in SubscriptionEvent]: Rule };

const ignore: Rule = () => 'ignore';
/** From a seq on, live events wait for the backlog; a hold already open (a racing subscribe) is kept. */
const start: Rule = (m) => {
  if (m.hold) return 'catching_up';
  if (m.lastSeq === 0) return 'subscribing';
  m.hold = { events: [], states: [], overflow: false };
  return 'catching_up';
};
const IN_FLIGHT: Row = { start, answered: () => 'subscribed', failed: () => 'unsubscribed', lost: ignore };

/** The table: every event in every phase. */
export const SUBSCRIPTION_TABLE: { readonly [P in SubscriptionPhase]: Row } = {
  // A late answer of a second subscribe after a loss: the child follows the session again.
  unsubscribed: { start, answered: () => 'subscribed', failed: ignore, lost: ignore },
  subscribing: IN_FLIGHT,
  catching_up: IN_FLIGHT,
  subscribed: { start, answered: ignore, failed: ignore, lost: () => 'unsubscribed' },
};

/** Every event, in table order (for the exhaustive tests). */
export const SUBSCRIPTION_EVENTS = Object.keys(SUBSCRIPTION_TABLE.unsubscribed) as SubscriptionEvent[];

const NOTHING_HELD: Held = { events: [], states: [], overflow: false };

/** One session's subscription; `heldMax` = `subscribeBufferMaxEvents`. */
export class Subscription {
  private current: SubscriptionPhase = 'unsubscribed';
  private readonly m: Memory = { hold: undefined, lastSeq: 0 };
  private resets = 0;
  private titleEpoch = 0;

  constructor(private readonly heldMax: number) {}

  get phase(): SubscriptionPhase {
    return this.current;
  }

  /** The child sends this session's live events and the hub follows them. */
  get subscribed(): boolean {
    return this.current === 'subscribed';
  }

  /** The last ZCode event seq taken (a resubscribe asks from here, §11.10); 0 = none yet. */
  get lastSeq(): number {
    return this.m.lastSeq;
  }

  /** Times the child's seq went backwards or left a gap; each starts a new journal epoch. */
  get seqResets(): number {
    return this.resets;
  }

  /**
   * Applies one event; returns what a subscribe held when it ends (`answered`, `failed`), to be
   * ingested now, and nothing held otherwise.
   */
  apply(event: SubscriptionEvent): Held {
    const out = SUBSCRIPTION_TABLE[this.current][event](this.m);
    if (out === 'ignore') return NOTHING_HELD;
    this.current = out;
    if (out === 'catching_up' || out === 'subscribing') return NOTHING_HELD;
    const held = this.m.hold ?? NOTHING_HELD;
    this.m.hold = undefined;
    return held;
  }

  /**
   * One `session/event` of seq `seq`: `held` while a subscribe from a seq is in flight, `seen`
   * when it is not newer than the last one taken (a backlog and a live copy count once), else
   * `new` — and it is the last one taken now.
   */
  take(seq: number, params: unknown): 'held' | 'seen' | 'new' {
    const hold = this.m.hold;
    if (hold) {
      if (hold.events.length < this.heldMax) hold.events.push({ seq, params });
      else hold.overflow = true;
      return 'held';
    }
    if (seq <= this.m.lastSeq) return 'seen';
    this.m.lastSeq = seq;
    return 'new';
  }

  /**
   * One live `state.updated`: the ones to apply now, in order — none while a subscribe from a
   * seq is in flight (a ready boundary must come after the text before it), and past `heldMax`
   * the held ones and this one (a late prompt end beats a lost one).
   */
  takeState(facts: StateFacts): StateFacts[] {
    const hold = this.m.hold;
    if (!hold) return [facts];
    if (hold.states.length < this.heldMax) {
      hold.states.push(facts);
      return [];
    }
    return [...hold.states.splice(0), facts];
  }

  /** A subscribe from no seq was answered with the child's current `eventSeq`: follow from there. */
  followFrom(eventSeq: number): void {
    this.m.lastSeq = Math.max(this.m.lastSeq, eventSeq);
  }

  /** The child's seq space restarted or has a gap: what came up to `eventSeq` is history now. Returns the new reset count. */
  restartAt(eventSeq: number): number {
    this.m.lastSeq = eventSeq;
    this.resets += 1;
    return this.resets;
  }

  /**
   * The v4 conversation topic (generated titles, APP-SERVER.md §14.4) is asked once per child:
   * true when the child of `epoch` has not been asked yet, and it counts as asked from now.
   */
  followTitles(epoch: number): boolean {
    if (this.titleEpoch === epoch) return false;
    this.titleEpoch = epoch;
    return true;
  }

  /** Asking the child of `epoch` for titles failed: the next subscribe asks again. */
  titlesFailed(epoch: number): void {
    if (this.titleEpoch === epoch) this.titleEpoch = 0;
  }
}
