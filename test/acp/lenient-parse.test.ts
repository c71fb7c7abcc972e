import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseLenient } from '../../src/acp/lenient-parse.js';
import { parseMessages } from '../../src/acp/message-schema.js';
import { translateRawEvent } from '../../src/acp/translate-event.js';
import { createTranslationContext } from '../../src/acp/translation-context.js';

describe('lenient parsing of app-server output (APP-SERVER.md §5.6)', () => {
  it('removes null and drifted optional fields and names them', () => {
    const schema = z.looseObject({
      a: z.string(),
      b: z.string().optional(),
      c: z.looseObject({ d: z.number().optional() }).optional(),
      list: z.array(z.string()).optional(),
    });
    const r = parseLenient(schema, { a: 'x', b: null, c: { d: 'seven' }, list: ['ok', null, 3] });
    expect(r.success).toBe(true);
    expect(r.success && r.data).toEqual({ a: 'x', c: {}, list: ['ok'] });
    expect(r.dropped).toEqual(expect.arrayContaining(['b (null)', 'c.d (string)', 'list.1 (null)', 'list.2 (number)']));
  });

  it('fails only when a required field is broken, and never mutates the input', () => {
    const input = { a: null, b: 'y' };
    const r = parseLenient(z.looseObject({ a: z.string(), b: z.string() }), input);
    expect(r.success).toBe(false);
    expect(input).toEqual({ a: null, b: 'y' });
  });

  it('translateRawEvent keeps a text delta with a null assistantMessageId and reports the field', () => {
    const ctx = createTranslationContext('s1');
    const r = translateRawEvent(
      {
        sessionId: 's1',
        seq: 1,
        type: 'model.streaming',
        payload: { kind: 'text_delta', delta: 'Hello', assistantMessageId: null, partId: null },
      },
      ctx,
    );
    expect(r.updates).toEqual([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } }]);
    expect(r.dropped).toEqual({
      type: 'model.streaming',
      fields: ['payload.partId (null)', 'payload.assistantMessageId (null)'],
      wholeEvent: false,
    });
  });

  it('a string tool error closes the card as failed', () => {
    const ctx = createTranslationContext('s1');
    translateRawEvent(
      {
        sessionId: 's1',
        seq: 1,
        type: 'tool.updated',
        payload: { kind: 'scheduled', toolCallId: 'c1', toolName: 'Bash', input: { command: 'ls' } },
      },
      ctx,
    );
    const r = translateRawEvent(
      { sessionId: 's1', seq: 2, type: 'tool.updated', payload: { kind: 'error', toolCallId: 'c1', toolName: null, error: 'exit 1' } },
      ctx,
    );
    expect(r.updates.some((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed')).toBe(true);
  });

  it('an event that cannot be read at all is reported as dropped', () => {
    const r = translateRawEvent(
      { sessionId: 's1', seq: 1, type: 'permission.requested', payload: { toolCallId: null } },
      createTranslationContext('s1'),
    );
    expect(r.updates).toEqual([]);
    expect(r.dropped?.wholeEvent).toBe(true);
  });

  it('one unreadable part costs only itself', () => {
    const dropped: string[] = [];
    const messages = parseMessages(
      [
        {
          info: { messageId: 'm1', role: 'assistant', parentMessageId: null },
          parts: [{ type: null }, { type: 'text', text: 'kept', synthetic: null }],
        },
      ],
      (d) => dropped.push(d),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]?.parts).toEqual([{ type: 'text', text: 'kept' }]);
    expect(dropped).toEqual(expect.arrayContaining(['message 0: info.parentMessageId (null)', 'message 0 part 0: unreadable, skipped']));
  });
});
