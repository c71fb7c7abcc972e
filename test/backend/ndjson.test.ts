import { describe, expect, it } from 'vitest';
import { NdjsonDecoder, OVERSIZE_EDGE_BYTES, encodeLine, oversizeResponseId, type FrameEvent } from '../../src/backend/ndjson.js';

function feed(decoder: NdjsonDecoder, ...chunks: (string | Buffer)[]): FrameEvent[] {
  const out: FrameEvent[] = [];
  for (const c of chunks) decoder.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : c, (e) => out.push(e));
  return out;
}

describe('ndjson framing [CHD-03]', () => {
  it('splits several lines in one chunk, trims them and skips empty ones', () => {
    const events = feed(new NdjsonDecoder(1024), '{"a":1}\n\n  {"b":2}  \r\n\n');
    expect(events).toEqual([
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
    ]);
  });

  it('reassembles a line split across chunks, including inside a multi-byte character', () => {
    const bytes = Buffer.from('{"t":"héllo ✓"}\n', 'utf8');
    const cut = bytes.indexOf(0xe2) + 1; // inside the 3-byte ✓
    const events = feed(new NdjsonDecoder(1024), bytes.subarray(0, 5), bytes.subarray(5, cut), bytes.subarray(cut));
    expect(events).toEqual([{ kind: 'line', text: '{"t":"héllo ✓"}' }]);
  });

  it('keeps a partial line until its newline, and hands it over at end()', () => {
    const d = new NdjsonDecoder(1024);
    expect(feed(d, '{"a":')).toEqual([]);
    expect(d.bufferedBytes).toBe(5);
    const out: FrameEvent[] = [];
    d.end((e) => out.push(e));
    expect(out).toEqual([{ kind: 'line', text: '{"a":' }]);
  });

  it('accepts a line of exactly the cap and skips one of cap + 1 [CHD-03]', () => {
    const line = `"${'x'.repeat(8)}"`; // 10 bytes
    expect(feed(new NdjsonDecoder(10), `${line}\n`)).toEqual([{ kind: 'line', text: line }]);
    expect(feed(new NdjsonDecoder(9), `${line}\n`)).toEqual([{ kind: 'oversize', bytes: 10, head: line, tail: line }]);
  });

  it('skips an oversize line without buffering it and reads the lines after it [CHD-03]', () => {
    const d = new NdjsonDecoder(100);
    const head = '{"id":7,"result":{"big":"';
    const events = feed(d, head + 'x'.repeat(60), 'x'.repeat(600));
    expect(d.isSkipping).toBe(true);
    expect(d.bufferedBytes).toBe(0);
    events.push(...feed(d, 'x"}}\n{"after":1}\n'));
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ kind: 'oversize', bytes: head.length + 664 });
    const skipped = events[0] as Extract<FrameEvent, { kind: 'oversize' }>;
    expect(skipped.head.startsWith(head)).toBe(true);
    expect(skipped.head.length).toBe(OVERSIZE_EDGE_BYTES);
    expect(skipped.tail.endsWith('x"}}')).toBe(true);
    expect(oversizeResponseId(skipped.head, skipped.tail)).toBe(7);
    expect(events[1]).toEqual({ kind: 'line', text: '{"after":1}' });
  });

  it('finds the id of a skipped answer at either end, and none for other messages', () => {
    expect(oversizeResponseId('{"id":"a-1","result":{"x', 'y"}}')).toBe('a-1');
    expect(oversizeResponseId('{"error":{"code":-32603,"message":"', '"},"id":12}')).toBe(12);
    expect(oversizeResponseId('{"result":{"messages":[', '}]},"id":3}')).toBe(3);
    expect(oversizeResponseId('{"method":"session/event","params":{"', '"id":"x"}}')).toBeUndefined();
    expect(oversizeResponseId('{"id":"server-4","method":"interaction/requestPermission","params":{', '}}')).toBeUndefined();
  });

  it('reports invalid UTF-8 per line and keeps going [CHD-03]', () => {
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n{"ok":1}\n')]);
    expect(feed(new NdjsonDecoder(1024), bad)).toEqual([
      { kind: 'invalid-utf8', bytes: 10 },
      { kind: 'line', text: '{"ok":1}' },
    ]);
  });

  it('encodes one message per line with no jsonrpc key', () => {
    expect(encodeLine({ id: 1, method: 'runtime/capabilities' }).toString()).toBe('{"id":1,"method":"runtime/capabilities"}\n');
  });
});
