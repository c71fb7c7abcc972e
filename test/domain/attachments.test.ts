import { describe, expect, it } from 'vitest';
import { SessionAttachments } from '../../src/domain/delivery/attachments.js';
import { Broadcaster, type Attachment } from '../../src/domain/delivery/broadcast.js';
import { Frame } from '../../src/domain/delivery/frame.js';
import { RecorderClient } from './helpers.js';

/**
 * A session's attachments and the fan-out's view of them (src/domain/delivery/attachments.ts): the
 * live clients as a list, the replaying attachments apart, rebuilt after every change and never
 * stale — a stale view would send a replaying client live frames out of order, or skip a client.
 */

const attachment = (client: RecorderClient, replaying: boolean): Attachment => ({
  client,
  sessionId: 's',
  replaying,
  buffer: [],
  attachedAt: 0,
});
const text = (tag: string): string => JSON.stringify({ method: 'x', params: { tag } });

describe('SessionAttachments', () => {
  it('splits live clients from replaying attachments, in attach order', () => {
    const [a, b, c] = [new RecorderClient(), new RecorderClient(), new RecorderClient()];
    const set = new SessionAttachments();
    set.set(a.clientId, attachment(a, false));
    set.set(b.clientId, attachment(b, true));
    set.set(c.clientId, attachment(c, false));
    const view = set.fanOut();
    expect(view.live).toEqual([a, c]);
    expect(view.replaying.map((x) => x.client)).toEqual([b]);
    // Built once: read again without a change, the same view.
    expect(set.fanOut()).toBe(view);
  });

  it('rebuilds the view after an attach, a re-attach, a detach and a clear', () => {
    const [a, b] = [new RecorderClient(), new RecorderClient()];
    const set = new SessionAttachments();
    set.set(a.clientId, attachment(a, false));
    expect(set.fanOut().live).toEqual([a]);
    set.set(b.clientId, attachment(b, false));
    expect(set.fanOut().live).toEqual([a, b]);
    // A re-attach replaces a live attachment with one that replays: its frames wait again.
    set.set(a.clientId, attachment(a, true));
    expect(set.fanOut().live).toEqual([b]);
    expect(set.fanOut().replaying.map((x) => x.client)).toEqual([a]);
    set.delete(b.clientId);
    expect(set.fanOut().live).toEqual([]);
    set.clear();
    expect(set.fanOut()).toEqual({ live: [], replaying: [] });
  });

  it('a replay that ends sends what waited, then counts the client live', () => {
    const client = new RecorderClient();
    const broadcaster = new Broadcaster(10);
    const set = new SessionAttachments();
    const a = attachment(client, true);
    set.set(client.clientId, a);
    for (const x of set.fanOut().replaying) broadcaster.deliver(x, new Frame(text('waited')));
    expect(client.raw).toEqual([]);
    set.endReplay(a, broadcaster);
    expect(client.raw).toEqual([text('waited')]);
    expect(set.fanOut().live).toEqual([client]);
    expect(set.fanOut().replaying).toEqual([]);
  });
});
