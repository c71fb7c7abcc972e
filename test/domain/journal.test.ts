import { describe, expect, it } from 'vitest';
import { Frame } from '../../src/domain/delivery/frame.js';
import { MAX_CHUNK_BYTES } from '../../src/domain/sessions/frame-store.js';
import { Journal } from '../../src/domain/sessions/journal.js';

const text = (seq: number, epoch: string, pad = ''): string => JSON.stringify({ method: 'session/update', params: { seq, epoch, pad } });
const frame = (seq: number, epoch: string, pad = ''): Frame => new Frame(text(seq, epoch, pad));

describe('Journal', () => {
  it('assigns seq +1 per update and stores the exact serialized frame', () => {
    const j = new Journal({ maxUpdates: 10, maxBytes: 1_000_000 }, 'e1');
    const a = j.append((s, e) => frame(s, e, 'ü'));
    const b = j.append((s, e) => frame(s, e));
    expect([a.entry.seq, b.entry.seq]).toEqual([1, 2]);
    expect(a.entry.frame).toBe(text(1, 'e1', 'ü'));
    // The frame the caller sends is the one built; the entry counts its UTF-8 bytes.
    expect(a.frame.text).toBe(a.entry.frame);
    expect(a.entry.bytes).toBe(Buffer.byteLength(text(1, 'e1', 'ü')));
    expect(j.lastSeq).toBe(2);
  });

  it('[REC-01] gives exactly the missing updates for a gap inside the ring', () => {
    const j = new Journal({ maxUpdates: 1_000, maxBytes: 10_000_000 }, 'e1');
    for (let i = 0; i < 600; i += 1) j.append((s, e) => frame(s, e));
    const gap = j.since(100, 'e1');
    expect(gap.kind).toBe('exact');
    if (gap.kind !== 'exact') return;
    expect(gap.entries.map((e) => e.seq)).toEqual(Array.from({ length: 500 }, (_, i) => 101 + i));
    expect(j.since(600, 'e1')).toEqual({ kind: 'exact', entries: [] });
  });

  it('crosses the count cap: the oldest updates are dropped and an old position is impossible', () => {
    const j = new Journal({ maxUpdates: 5, maxBytes: 1_000_000 }, 'e1');
    for (let i = 0; i < 12; i += 1) j.append((s, e) => frame(s, e));
    expect(j.size).toBe(5);
    expect(j.firstSeq).toBe(8);
    // The ring holds no trimmed entry any more (each would pin its chunk of stored bytes).
    expect((j as unknown as { entries: unknown[] }).entries.filter((e) => e !== undefined)).toHaveLength(5);
    expect(j.since(6, 'e1')).toEqual({ kind: 'impossible', reason: 'trimmed' });
    const ok = j.since(7, 'e1');
    expect(ok.kind === 'exact' && ok.entries.map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
  });

  it('crosses the byte cap: retained bytes stay under the limit', () => {
    const one = Buffer.byteLength(text(1, 'e1', 'x'.repeat(100)));
    const j = new Journal({ maxUpdates: 1_000, maxBytes: one * 3 + 10 }, 'e1');
    for (let i = 0; i < 10; i += 1) j.append((s, e) => frame(s, e, 'x'.repeat(100)));
    expect(j.retainedBytes).toBeLessThanOrEqual(one * 3 + 10);
    expect(j.size).toBe(3);
    expect(j.since(6, 'e1').kind).toBe('impossible');
    expect(j.since(7, 'e1').kind).toBe('exact');
  });

  it('[REC-02] a position of another epoch, or from the future, is impossible', () => {
    const j = new Journal({ maxUpdates: 100, maxBytes: 1_000_000 }, 'e1');
    for (let i = 0; i < 3; i += 1) j.append((s, e) => frame(s, e));
    expect(j.since(1, 'old')).toEqual({ kind: 'impossible', reason: 'epoch' });
    expect(j.since(9, 'e1')).toEqual({ kind: 'impossible', reason: 'ahead' });
    j.setEpoch('e2');
    j.append((s, e) => frame(s, e));
    // Positions from before the new epoch cannot be resumed exactly, even with the new epoch name.
    expect(j.since(2, 'e2')).toEqual({ kind: 'impossible', reason: 'epoch' });
    const ok = j.since(3, 'e2');
    expect(ok.kind === 'exact' && ok.entries.map((e) => [e.seq, e.epoch])).toEqual([[4, 'e2']]);
  });

  it('pages forward for the REST events route', () => {
    const j = new Journal({ maxUpdates: 100, maxBytes: 1_000_000 }, 'e1');
    for (let i = 0; i < 10; i += 1) j.append((s, e) => frame(s, e));
    expect(j.page(3, 4).map((e) => e.seq)).toEqual([4, 5, 6, 7]);
    expect(j.page(0, 2).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('keeps every frame byte for byte outside the heap, across chunk boundaries and past the largest chunk', () => {
    const j = new Journal({ maxUpdates: 10_000, maxBytes: 100_000_000 }, 'e1');
    const sent: string[] = [];
    for (let i = 0; i < 3_000; i += 1) {
      // Sizes that cross chunk ends at odd offsets; multi-byte text; one frame larger than any chunk.
      const pad = i === 1_500 ? 'ß'.repeat(MAX_CHUNK_BYTES) : `${'é✓😀'.repeat(i % 7)}${'x'.repeat((i * 37) % 900)}`;
      const { entry, frame: live } = j.append((s, e) => frame(s, e, pad));
      sent.push(live.text);
      expect(entry.bytes).toBe(live.bytes.length);
    }
    const all = j.since(0, 'e1');
    if (all.kind !== 'exact') throw new Error(`expected the whole ring, got ${all.reason}`);
    expect(all.entries).toHaveLength(3_000);
    for (const [k, e] of all.entries.entries()) {
      expect(e.frame).toBe(sent[k]);
      // Sent again from the stored bytes, not re-encoded: the same bytes as live.
      const again = e.toFrame();
      expect(again.bytes.equals(Buffer.from(sent[k] ?? '', 'utf8'))).toBe(true);
      expect(again.text).toBe(sent[k]);
    }
  });
});
