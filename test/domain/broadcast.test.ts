import { describe, expect, it } from 'vitest';
import { Broadcaster, type Attachment } from '../../src/domain/delivery/broadcast.js';
import { Frame } from '../../src/domain/delivery/frame.js';
import { RecorderClient } from './helpers.js';

const text = (tag: string): string => JSON.stringify({ method: 'x', params: { tag } });
const f = (tag: string): Frame => new Frame(text(tag));

describe('Broadcaster', () => {
  it('[FAN-03] serializes and encodes once for 100 clients and sends the same frame to each', () => {
    const b = new Broadcaster(100);
    const clients = Array.from({ length: 100 }, () => new RecorderClient());
    const attachments: Attachment[] = clients.map((client) => ({ client, sessionId: 's', replaying: false, buffer: [], attachedAt: 0 }));
    const frame = b.serialize('session/update', {
      sessionId: 's',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi ünïcödé ✓' } },
    });
    for (const a of attachments) b.deliver(a, frame);
    expect(b.stats.serializations).toBe(1);
    expect(b.stats.framesSent).toBe(100);
    expect(frame.bytes.equals(Buffer.from(frame.text, 'utf8'))).toBe(true);
    expect(b.stats.bytesSent).toBe(100 * frame.bytes.length);
    for (const c of clients) {
      expect(c.sent).toHaveLength(1);
      expect(c.sent[0]).toBe(frame);
    }
  });

  it('buffers live frames for a replaying client and sends them right after the replay', () => {
    const b = new Broadcaster(100);
    const client = new RecorderClient();
    const a: Attachment = { client, sessionId: 's', replaying: true, buffer: [], attachedAt: 0 };
    b.deliver(a, f('live-1'));
    b.sendNow(client, f('replay-1'));
    b.deliver(a, f('live-2'));
    b.sendNow(client, f('replay-2'));
    expect(client.raw).toEqual([text('replay-1'), text('replay-2')]);
    b.endReplay(a);
    b.deliver(a, f('live-3'));
    expect(client.raw).toEqual([text('replay-1'), text('replay-2'), text('live-1'), text('live-2'), text('live-3')]);
  });

  it('never leaves a silent gap: a client whose replay buffer overflows is closed 4008 to resume', () => {
    const b = new Broadcaster(2);
    const client = new RecorderClient();
    const a: Attachment = { client, sessionId: 's', replaying: true, buffer: [], attachedAt: 0 };
    for (const tag of ['live-1', 'live-2', 'live-3']) b.deliver(a, f(tag));
    b.endReplay(a);
    expect(client.closedWith).toBe(4008);
    expect(client.raw).toEqual([]);
  });
});
