/**
 * One session's subscription (src/domain/sessions/subscription.ts) in milliseconds: every event in every
 * phase from one table, then what each phase does with a live event and a `state.updated`, then
 * the seq bookkeeping of a reload and the races a link-side resume makes.
 */
import { describe, expect, it } from 'vitest';
import type { StateFacts } from '../../src/acp/translate-state.js';
import {
  SUBSCRIPTION_EVENTS,
  SUBSCRIPTION_TABLE,
  Subscription,
  type SubscriptionEvent,
  type SubscriptionPhase,
} from '../../src/domain/sessions/subscription.js';

const MAX = 2;
const PHASES = Object.keys(SUBSCRIPTION_TABLE) as SubscriptionPhase[];

/** How to reach each phase; `subscribing` is a first open (no seq seen), the others saw seq 5. */
const PATH: Record<SubscriptionPhase, { seen: number; events: SubscriptionEvent[] }> = {
  unsubscribed: { seen: 5, events: [] },
  subscribing: { seen: 0, events: ['start'] },
  catching_up: { seen: 5, events: ['start'] },
  subscribed: { seen: 5, events: ['start', 'answered'] },
};

function inPhase(phase: SubscriptionPhase, seen = PATH[phase].seen): Subscription {
  const s = new Subscription(MAX);
  if (seen > 0) s.take(seen, {});
  for (const e of PATH[phase].events) s.apply(e);
  expect(s.phase).toBe(phase);
  return s;
}

/** What each event does in each phase (from a subscription that saw seq 5; `subscribing` saw none). */
const EXPECTED: Record<SubscriptionPhase, Record<SubscriptionEvent, SubscriptionPhase>> = {
  unsubscribed: { start: 'catching_up', answered: 'subscribed', failed: 'unsubscribed', lost: 'unsubscribed' },
  subscribing: { start: 'subscribing', answered: 'subscribed', failed: 'unsubscribed', lost: 'subscribing' },
  catching_up: { start: 'catching_up', answered: 'subscribed', failed: 'unsubscribed', lost: 'catching_up' },
  subscribed: { start: 'catching_up', answered: 'subscribed', failed: 'subscribed', lost: 'unsubscribed' },
};

const facts = (reason: string): StateFacts => ({ sessionId: 's1', revision: 1, reason, running: false, ready: false, failed: false });

describe('Subscription: every event in every phase', () => {
  it('the table has a row for every phase and a rule for every event in each', () => {
    expect(PHASES).toEqual(['unsubscribed', 'subscribing', 'catching_up', 'subscribed']);
    for (const phase of PHASES) expect(Object.keys(SUBSCRIPTION_TABLE[phase]).sort()).toEqual([...SUBSCRIPTION_EVENTS].sort());
  });

  for (const phase of PHASES)
    for (const event of SUBSCRIPTION_EVENTS)
      it(`${phase} + ${event} → ${EXPECTED[phase][event]}`, () => {
        const s = inPhase(phase);
        s.apply(event);
        expect(s.phase).toBe(EXPECTED[phase][event]);
        expect(s.subscribed).toBe(EXPECTED[phase][event] === 'subscribed');
      });

  it('a first open (no seq seen) follows live only: nothing is held', () => {
    const s = new Subscription(MAX);
    s.apply('start');
    expect(s.phase).toBe('subscribing');
    expect(s.take(1, 'live')).toBe('new');
    expect(s.takeState(facts('a'))).toEqual([facts('a')]);
  });
});

describe('Subscription: live events and states in each phase', () => {
  for (const phase of PHASES) {
    const holds = phase === 'catching_up';
    it(`${phase}: a newer event is ${holds ? 'held' : 'taken'}, an older one ${holds ? 'held' : 'dropped'}`, () => {
      const s = inPhase(phase);
      const seen = s.lastSeq;
      expect(s.take(seen + 1, 'newer')).toBe(holds ? 'held' : 'new');
      expect(s.take(seen, 'again')).toBe(holds ? 'held' : 'seen');
      expect(s.lastSeq).toBe(holds ? seen : seen + 1);
    });
    it(`${phase}: a state.updated ${holds ? 'waits' : 'applies now'}`, () => {
      const s = inPhase(phase);
      expect(s.takeState(facts('x'))).toEqual(holds ? [] : [facts('x')]);
    });
  }

  it('an answer hands back what was held, in arrival order, once', () => {
    const s = inPhase('catching_up');
    s.take(7, 'b');
    s.take(6, 'a');
    s.takeState(facts('ready'));
    const held = s.apply('answered');
    expect(held).toEqual({
      events: [
        { seq: 7, params: 'b' },
        { seq: 6, params: 'a' },
      ],
      states: [facts('ready')],
      overflow: false,
    });
    expect(s.apply('answered').events).toEqual([]);
    expect(s.take(6, 'a')).toBe('new');
  });

  it('a failure hands back what was held too', () => {
    const s = inPhase('catching_up');
    s.take(9, 'x');
    const held = s.apply('failed');
    expect(held.events).toEqual([{ seq: 9, params: 'x' }]);
    expect(s.phase).toBe('unsubscribed');
    expect(s.take(9, 'x')).toBe('new');
  });

  it('past heldMax events the hold says overflow and keeps only the first', () => {
    const s = inPhase('catching_up');
    for (const seq of [6, 7, 8]) expect(s.take(seq, seq)).toBe('held');
    const held = s.apply('answered');
    expect(held.overflow).toBe(true);
    expect(held.events.map((e) => e.seq)).toEqual([6, 7]);
  });

  it('past heldMax states the held ones and the new one apply now, in order', () => {
    const s = inPhase('catching_up');
    expect(s.takeState(facts('a'))).toEqual([]);
    expect(s.takeState(facts('b'))).toEqual([]);
    expect(s.takeState(facts('c'))).toEqual([facts('a'), facts('b'), facts('c')]);
    expect(s.apply('answered').states).toEqual([]);
  });
});

describe('Subscription: seq bookkeeping', () => {
  it('a live-only answer follows from the larger of the seen seq and the child’s', () => {
    const s = new Subscription(MAX);
    s.apply('start');
    s.take(4, 'live');
    s.apply('answered');
    s.followFrom(3);
    expect(s.lastSeq).toBe(4);
    s.followFrom(10);
    expect(s.lastSeq).toBe(10);
  });

  it('a restart counts a reset and follows from the child’s seq, even backwards', () => {
    const s = inPhase('subscribed', 50);
    expect(s.restartAt(3)).toBe(1);
    expect(s.restartAt(2)).toBe(2);
    expect(s.seqResets).toBe(2);
    expect(s.lastSeq).toBe(2);
    expect(s.take(2, 'old')).toBe('seen');
    expect(s.take(3, 'next')).toBe('new');
  });

  it('titles are asked once per child, again after a failure or for a new child', () => {
    const s = new Subscription(MAX);
    expect(s.followTitles(1)).toBe(true);
    expect(s.followTitles(1)).toBe(false);
    s.titlesFailed(2);
    expect(s.followTitles(1)).toBe(false);
    s.titlesFailed(1);
    expect(s.followTitles(1)).toBe(true);
    expect(s.followTitles(2)).toBe(true);
  });
});

describe('Subscription: races', () => {
  it('a loss while a subscribe is in flight waits for its answer', () => {
    const s = inPhase('catching_up');
    s.take(6, 'held');
    s.apply('lost');
    expect(s.phase).toBe('catching_up');
    expect(s.apply('answered').events).toHaveLength(1);
    expect(s.subscribed).toBe(true);
  });

  it('a second subscribe while one is in flight shares the hold (nothing held is dropped)', () => {
    const s = inPhase('catching_up');
    s.take(6, 'first');
    s.apply('start');
    s.take(7, 'second');
    expect(s.apply('answered').events.map((e) => e.params)).toEqual(['first', 'second']);
    // The second subscribe's answer comes later: nothing more to hand back, still followed.
    expect(s.apply('answered').events).toEqual([]);
    expect(s.apply('failed').events).toEqual([]);
    expect(s.subscribed).toBe(true);
  });

  it('a resubscribe after a loss asks from the last seq taken', () => {
    const s = inPhase('subscribed');
    s.take(8, 'x');
    s.apply('lost');
    expect(s.subscribed).toBe(false);
    s.apply('start');
    expect(s.phase).toBe('catching_up');
    expect(s.lastSeq).toBe(8);
  });
});
