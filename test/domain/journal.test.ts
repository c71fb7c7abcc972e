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
    expect(j.lastSeq).toBe(1);
    j.append((s, e) => frame(s, e));
    expect(j.lastSeq).toBe(2);
    const all = j.since(0, 'e1');
    if (all.kind !== 'exact') throw new Error(`expected the whole ring, got ${all.reason}`);
    const [first, second] = all.entries;
    expect([first?.seq, second?.seq]).toEqual([1, 2]);
    expect(first?.frame).toBe(text(1, 'e1', 'ü'));
    // The frame the caller sends is the one built; the entry counts its UTF-8 bytes.
    expect(a.text).toBe(first?.frame);
    expect(first?.bytes).toBe(Buffer.byteLength(text(1, 'e1', 'ü')));
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
      const live = j.append((s, e) => frame(s, e, pad));
      sent.push(live.text);
    }
    const all = j.since(0, 'e1');
    if (all.kind !== 'exact') throw new Error(`expected the whole ring, got ${all.reason}`);
    expect(all.entries).toHaveLength(3_000);
    for (const [k, e] of all.entries.entries()) {
      expect(e.frame).toBe(sent[k]);
      expect(e.bytes).toBe(Buffer.byteLength(sent[k] ?? '', 'utf8'));
      // Sent again from the stored bytes, not re-encoded: the same bytes as live.
      const again = e.toFrame();
      expect(again.bytes.equals(Buffer.from(sent[k] ?? '', 'utf8'))).toBe(true);
      expect(again.text).toBe(sent[k]);
    }
  });

  it('keeps its ring in order as it wraps and as it grows', () => {
    const j = new Journal({ maxUpdates: 100, maxBytes: 1_000_000 }, 'e1');
    const sent = new Map<number, string>();
    // 100 retained of 1,000: the ring (grown from 64 to 128 slots before the first trim) wraps many times.
    for (let i = 1; i <= 1_000; i += 1) sent.set(i, j.append((s, e) => frame(s, e, 'x'.repeat(i % 13))).text);
    expect([j.size, j.firstSeq, j.lastSeq]).toEqual([100, 901, 1_000]);
    // The slots grew to the power of two above the cap, and no further (LIMITS.journalMaxUpdates).
    expect((j as unknown as { slots: Uint32Array }).slots.length).toBe(128 * 3);
    const gap = j.since(900, 'e1');
    if (gap.kind !== 'exact') throw new Error(`expected the ring, got ${gap.reason}`);
    expect(gap.entries.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, k) => 901 + k));
    for (const e of gap.entries) expect(e.frame).toBe(sent.get(e.seq));
    expect(j.page(950, 3).map((e) => e.frame)).toEqual([951, 952, 953].map((s) => sent.get(s)));
    expect(j.page(2_000, 3)).toEqual([]);
    // Trimmed by bytes first (four 10 KB frames kept of ten), so the ring grows from 64 slots while
    // its oldest update sits mid-ring; the 61 small ones after them stay under the byte cap.
    const k = new Journal({ maxUpdates: 1_000, maxBytes: 45_000 }, 'e1');
    const texts: string[] = [];
    for (let i = 0; i < 10; i += 1) texts.push(k.append((s, e) => frame(s, e, 'x'.repeat(10_000))).text);
    for (let i = 0; i < 61; i += 1) texts.push(k.append((s, e) => frame(s, e, 'y')).text);
    expect([k.size, k.firstSeq]).toEqual([65, 7]);
    const kept = k.since(6, 'e1');
    if (kept.kind !== 'exact') throw new Error(`expected the ring, got ${kept.reason}`);
    expect(kept.entries.map((e) => e.frame)).toEqual(texts.slice(6));
    expect(k.retainedBytes).toBe(texts.slice(6).reduce((n, t) => n + Buffer.byteLength(t), 0));
  });

  it('lets go of the stored chunks its trimmed updates were in', () => {
    const j = new Journal({ maxUpdates: 10, maxBytes: 1_000_000 }, 'e1');
    // About 1 MB through a ring of ten 1 KB frames: dozens of chunks made, at most two held.
    for (let i = 0; i < 1_000; i += 1) j.append((s, e) => frame(s, e, 'x'.repeat(1_000)));
    expect(j.size).toBe(10);
    expect(j.retainedChunks).toBeLessThanOrEqual(2);
    // A frame over the byte cap is trimmed at once; only the chunk being filled is held.
    const tiny = new Journal({ maxUpdates: 10, maxBytes: 10 }, 'e1');
    for (let i = 0; i < 3; i += 1) tiny.append((s, e) => frame(s, e, 'x'.repeat(MAX_CHUNK_BYTES)));
    expect([tiny.size, tiny.retainedChunks, tiny.firstSeq]).toEqual([0, 1, 4]);
    expect(tiny.since(3, 'e1')).toEqual({ kind: 'exact', entries: [] });
    expect(tiny.since(2, 'e1')).toEqual({ kind: 'impossible', reason: 'trimmed' });
  });

  it('reads back each retained update with the epoch it was journaled in', () => {
    const j = new Journal({ maxUpdates: 6, maxBytes: 1_000_000 }, 'e1');
    for (const epoch of ['e1', 'e2', 'e3', 'e4']) {
      j.setEpoch(epoch);
      for (let i = 0; i < 3; i += 1) j.append((s, e) => frame(s, e));
    }
    // Seqs 7–12 are retained: 7–9 of e3, 10–12 of e4; each entry's frame carries the epoch it was built with.
    expect(j.page(0, 10).map((e) => [e.seq, e.epoch, JSON.parse(e.frame).params.epoch])).toEqual([
      [7, 'e3', 'e3'],
      [8, 'e3', 'e3'],
      [9, 'e3', 'e3'],
      [10, 'e4', 'e4'],
      [11, 'e4', 'e4'],
      [12, 'e4', 'e4'],
    ]);
    expect(j.since(8, 'e4')).toEqual({ kind: 'impossible', reason: 'epoch' });
    const ok = j.since(10, 'e4');
    expect(ok.kind === 'exact' && ok.entries.map((e) => e.seq)).toEqual([11, 12]);
    // Two restarts with no update between: the later epoch names what comes next, and no run is kept for the other.
    j.setEpoch('e5');
    j.setEpoch('e6');
    expect(j.epoch).toBe('e6');
    j.append((s, e) => frame(s, e));
    expect(j.page(11, 5).map((e) => [e.seq, e.epoch])).toEqual([
      [12, 'e4'],
      [13, 'e6'],
    ]);
    expect(j.since(12, 'e5')).toEqual({ kind: 'impossible', reason: 'epoch' });
    const after = j.since(12, 'e6');
    expect(after.kind === 'exact' && after.entries.map((e) => e.seq)).toEqual([13]);
    // Runs kept: e3 (seq 8–9 are still in the ring), e4, e6.
    expect((j as unknown as { epochs: Array<{ epoch: string }> }).epochs.map((r) => r.epoch)).toEqual(['e3', 'e4', 'e6']);
  });
});
