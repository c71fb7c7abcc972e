import { describe, expect, it } from 'vitest';
import { COALESCE, DeltaCoalescer, type EventDraft } from '../../src/simulator/coalescer.js';

let n = 0;
function delta(ts: number, text: string, kind = 'text_delta', partId = 'p1'): EventDraft {
  return {
    eventId: `e${++n}`,
    sessionId: 's',
    timestamp: ts,
    type: 'model.streaming',
    payload: { kind, delta: text, done: false, assistantMessageId: 'm', partId },
  };
}
function other(ts: number, type = 'tool.updated'): EventDraft {
  return { eventId: `e${++n}`, sessionId: 's', timestamp: ts, type, payload: { kind: 'started', toolCallId: 'c' } };
}

describe('§5.3 delta coalescing', () => {
  it('emits the first delta of a key at once, then batches until the 250 ms window', () => {
    const c = new DeltaCoalescer();
    expect(c.push(delta(0, 'a'))).toHaveLength(1);
    expect(c.push(delta(10, 'b'))).toEqual([]);
    expect(c.push(delta(20, 'c'))).toEqual([]);
    const out = c.push(delta(COALESCE.textWindowMs, 'd'));
    expect(out).toHaveLength(1);
    expect(out[0]?.payload['delta']).toBe('bcd');
    // the merged event carries the envelope of the last merged event
    expect(out[0]?.timestamp).toBe(COALESCE.textWindowMs);
  });

  it('flushes at 2,048 accumulated chars', () => {
    const c = new DeltaCoalescer();
    c.push(delta(0, 'x'));
    expect(c.push(delta(1, 'y'.repeat(2000)))).toEqual([]);
    const out = c.push(delta(2, 'z'.repeat(48)));
    expect(out).toHaveLength(1);
    expect(String(out[0]?.payload['delta']).length).toBe(2048);
  });

  it('a non-delta event (even filtered) flushes and resets every key', () => {
    const c = new DeltaCoalescer();
    c.push(delta(0, 'a'));
    c.push(delta(5, 'b'));
    const flushed = c.push(other(6, 'marker'), false);
    expect(flushed.map((e) => e.payload['delta'])).toEqual(['b']);
    // after the reset the next delta is a "first" one again
    expect(c.push(delta(7, 'c'))).toHaveLength(1);
  });

  it('a different key flushes the pending batch', () => {
    const c = new DeltaCoalescer();
    c.push(delta(0, 'a'));
    c.push(delta(1, 'b'));
    const out = c.push(delta(2, 'r', 'reasoning_delta'));
    expect(out.map((e) => [e.payload['kind'], e.payload['delta']])).toEqual([
      ['text_delta', 'b'],
      ['reasoning_delta', 'r'],
    ]);
  });

  it('tool_input_delta uses 4,096 chars / 750 ms and needs a toolCallId', () => {
    const c = new DeltaCoalescer();
    const tool = (ts: number, d: string): EventDraft => ({
      ...delta(ts, d, 'tool_input_delta'),
      payload: { kind: 'tool_input_delta', delta: d, toolCallId: 't1' },
    });
    c.push(tool(0, '{'));
    expect(c.push(tool(300, '"a"'))).toEqual([]);
    expect(c.push(tool(COALESCE.toolInputWindowMs, ':1}'))).toHaveLength(1);
    const noId = { ...delta(0, 'x', 'tool_input_delta'), payload: { kind: 'tool_input_delta', delta: 'x' } };
    // without a toolCallId it is not coalescible: passed through as a non-delta event
    expect(c.push(noId)).toHaveLength(1);
    expect(c.push(noId)).toHaveLength(1);
  });

  it('is deterministic: the same input gives the same boundaries (replay)', () => {
    const input = [delta(0, 'a'), delta(100, 'b'), delta(300, 'c'), other(301), delta(302, 'd'), delta(400, 'e')];
    const run = (): string[] => {
      const c = new DeltaCoalescer();
      return input.flatMap((e) => c.push(e)).map((e) => `${e.type}:${String(e.payload['delta'] ?? '')}`);
    };
    expect(run()).toEqual(run());
    expect(run()).toEqual(['model.streaming:a', 'model.streaming:bc', 'tool.updated:', 'model.streaming:d']);
  });

  it('disabled (bench mode) passes every visible event through', () => {
    const c = new DeltaCoalescer(false);
    expect(c.push(delta(0, 'a'))).toHaveLength(1);
    expect(c.push(delta(1, 'b'))).toHaveLength(1);
    expect(c.push(other(2), false)).toHaveLength(0);
  });
});
