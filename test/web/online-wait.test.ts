/**
 * What a link's state promises what waits on it (web/src/net/online-wait.ts): the one state
 * deciding whether a prompt, Stop, an answer or a setting sent now waits for the link — online,
 * or down but reconnecting by itself (`coming`) — or fails at once with the reason it will not be
 * back by itself. Pure: statuses in, outlooks and settled waits out.
 */
import { describe, expect, it } from 'vitest';
import { LinkGone, OnlineWait, outlookOf, TakenBack, type Outlook } from '../../web/src/net/online-wait.js';
import { ConnectionLost, type ConnStatus } from '../../web/src/net/rpc-errors.js';

/** Settles `p`, keeping what it resolved or rejected with. */
function settled(p: Promise<void>): () => { done?: true; error?: unknown } | undefined {
  let out: { done?: true; error?: unknown } | undefined;
  p.then(
    () => (out = { done: true }),
    (error: unknown) => (out = { error }),
  );
  return () => out;
}
const turn = () => new Promise((r) => setImmediate(r));

describe('outlookOf', () => {
  it('waits for a link connecting, or offline while its reconnect loop runs; fails one that will not come back by itself', () => {
    const cases: Array<[ConnStatus, boolean, Outlook]> = [
      ['online', true, 'online'],
      ['connecting', true, 'coming'],
      ['offline', true, 'coming'],
      ['unauthorized', true, 'revoked'],
      ['not_allowed', true, 'refused'],
      ['wrong_hub', true, 'refused'],
      ['refused', true, 'refused'],
      // Stopped (signed out, the machine removed, never started): nothing will reconnect it.
      ['offline', false, 'closed'],
      ['connecting', false, 'closed'],
      ['online', false, 'closed'],
    ];
    expect(cases.map(([status, running]) => outlookOf(status, running))).toEqual(cases.map(([, , want]) => want));
  });
});

describe('OnlineWait', () => {
  it('resolves at once when online, and fails at once, saying why, when the link is gone', async () => {
    const w = new OnlineWait();
    await expect(w.wait('online', 60_000)).resolves.toBeUndefined();
    for (const why of ['revoked', 'refused', 'closed'] as const) {
      const err = await w.wait(why, 60_000).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LinkGone);
      expect((err as LinkGone).why).toBe(why);
    }
  });

  it('keeps waiting through any number of offline and connecting moments, and goes on once online', async () => {
    const w = new OnlineWait();
    const waited = settled(w.wait('coming', 60_000));
    for (let i = 0; i < 3; i++) w.changed('coming');
    await turn();
    expect(waited()).toBeUndefined();
    w.changed('online');
    await turn();
    expect(waited()).toEqual({ done: true });
  });

  it('fails every waiter with the reason when the link turns gone', async () => {
    const w = new OnlineWait();
    const a = settled(w.wait('coming', 60_000));
    const b = settled(w.wait('coming', 60_000));
    w.changed('revoked');
    await turn();
    expect([a()?.error, b()?.error].map((e) => (e as LinkGone).why)).toEqual(['revoked', 'revoked']);
    // Settled: a later online lets nothing go twice.
    w.changed('online');
    await turn();
    expect(a()?.error).toBeInstanceOf(LinkGone);
  });

  it('gives up as offline (ConnectionLost) once its bound passes', async () => {
    const w = new OnlineWait();
    await expect(w.wait('coming', 1)).rejects.toBeInstanceOf(ConnectionLost);
  });

  it('ends with TakenBack when its signal aborts, before or while it waits, leaving the others waiting', async () => {
    const w = new OnlineWait();
    const gone = new AbortController();
    gone.abort();
    await expect(w.wait('coming', 60_000, gone.signal)).rejects.toBeInstanceOf(TakenBack);
    const mine = new AbortController();
    const taken = settled(w.wait('coming', 60_000, mine.signal));
    const other = settled(w.wait('coming', 60_000));
    mine.abort();
    await turn();
    expect(taken()?.error).toBeInstanceOf(TakenBack);
    expect(other()).toBeUndefined();
    w.changed('online');
    await turn();
    expect(other()).toEqual({ done: true });
  });
});
