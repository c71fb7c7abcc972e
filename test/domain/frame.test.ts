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
