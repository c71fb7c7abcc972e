import { describe, expect, it } from 'vitest';
import { Broadcaster } from '../../src/domain/delivery/broadcast.js';
import { Frame } from '../../src/domain/delivery/frame.js';

describe('a frame knows its session/update kind', () => {
  const params = (sessionUpdate: string) => ({
    sessionId: 's',
    update: { sessionUpdate, content: { type: 'text', text: '"update":{"sessionUpdate":"x"' } },
  });

  it('the serializer hands it over; a frame built from text reads the same kind from it', () => {
    const serialized = new Broadcaster(10).serialize('session/update', params('plan'));
    expect(serialized.updateKind).toBe('plan');
    expect(new Frame(serialized.text).updateKind).toBe('plan');
    expect(new Frame(serialized.text, 'session/update').updateKind).toBe('plan');
  });

  it('a frame sent again from stored bytes (the journal) keeps those bytes and reads its text and kind from them', () => {
    const serialized = new Broadcaster(10).serialize('session/update', params('agent_thought_chunk'));
    const stored = Buffer.concat([Buffer.from('prefix'), serialized.bytes]).subarray(6);
    const again = new Frame(stored);
    expect(again.bytes).toBe(stored);
    expect(again.updateKind).toBe('agent_thought_chunk');
    expect(again.text).toBe(serialized.text);
  });

  it('any other message has none, whatever its content says', () => {
    const other = new Broadcaster(10).serialize('session/request_permission', params('plan'));
    expect(other.updateKind).toBeNull();
    expect(new Frame('{"jsonrpc":"2.0","id":1,"result":{}}').updateKind).toBeNull();
    expect(new Frame('not json with "sessionUpdate"').updateKind).toBeNull();
  });

  it('a frame whose update is not written kind-first is parsed', () => {
    const text = JSON.stringify({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { update: { content: {}, sessionUpdate: 'tool_call' } },
    });
    expect(new Frame(text).updateKind).toBe('tool_call');
  });
});
