import { describe, expect, it } from 'vitest';
import type { MessageWithParts } from '../../src/acp/message-schema.js';
import { historyWithLostTurns, LOST_TURN_MESSAGE } from '../../src/acp/lost-turns.js';

const user = (id: string, text: string, extra: Partial<MessageWithParts['info']> = {}): MessageWithParts => ({
  info: { messageId: id, role: 'user', ...extra },
  parts: [{ type: 'text', text }],
});
const answer = (id: string, text: string, completed: boolean): MessageWithParts => ({
  info: { messageId: id, role: 'assistant', time: { created: 1, ...(completed ? { completed: 2 } : {}) } },
  parts: [{ type: 'text', text }],
});
const kinds = (ms: MessageWithParts[], opts: { running: boolean; tail: boolean }) =>
  historyWithLostTurns(ms, opts).map((u) =>
    u.sessionUpdate === 'session_info_update'
      ? `ended:${(u._meta?.['zcode'] as { turnEnded: { outcome: string } }).turnEnded.outcome}`
      : u.sessionUpdate,
  );

describe('turns left unfinished in history', () => {
  it('marks a prompt the agent never answered, once no turn runs', () => {
    const ms = [user('u1', 'first'), answer('a1', 'done', true), user('u2', 'lost in a restart')];
    expect(kinds(ms, { running: false, tail: true })).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
      'user_message_chunk',
      'ended:interrupted',
    ]);
    // While a turn runs, the newest prompt is simply being answered.
    expect(kinds(ms, { running: true, tail: true })).toEqual(['user_message_chunk', 'agent_message_chunk', 'user_message_chunk']);
    // An older page's last prompt may be answered on the next page.
    expect(kinds(ms, { running: false, tail: false })).toEqual(['user_message_chunk', 'agent_message_chunk', 'user_message_chunk']);
  });

  it('keeps an answer the agent never completed, then says it was interrupted; also in the middle of history', () => {
    const ms = [user('u1', 'go'), answer('a1', 'Step 1 of', false), user('u2', 'again'), answer('a2', 'ok', true)];
    const updates = historyWithLostTurns(ms, { running: false, tail: true });
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
      'session_info_update',
      'user_message_chunk',
      'agent_message_chunk',
    ]);
    expect(updates[2]?._meta).toEqual({ zcode: { turnEnded: { outcome: 'interrupted', error: { message: LOST_TURN_MESSAGE } } } });
  });

  it('closes the tool calls an unfinished turn left open, before its marker; a finished call and a finished turn are left alone', () => {
    const cut: MessageWithParts = {
      info: { messageId: 'a1', role: 'assistant', time: { created: 1 } },
      parts: [
        { type: 'tool', callId: 'read', tool: 'Read', state: { status: 'completed', input: { file_path: 'a.ts' }, output: 'x' } },
        { type: 'tool', callId: 'bash', tool: 'Bash', state: { status: 'pending', input: { command: 'npm test' } } },
      ],
    };
    const done: MessageWithParts = {
      info: { messageId: 'a2', role: 'assistant', time: { created: 1, completed: 2 } },
      parts: [{ type: 'tool', callId: 'later', tool: 'Bash', state: { status: 'running', input: { command: 'ls' } } }],
    };
    const updates = historyWithLostTurns([user('u1', 'go'), cut, user('u2', 'again'), done], { running: false, tail: true });
    const closes = updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
    expect(closes.map((u) => (u.sessionUpdate === 'tool_call_update' ? u.toolCallId : ''))).toEqual(['bash']);
    const closeAt = updates.indexOf(closes[0] as (typeof updates)[number]);
    expect(updates[closeAt + 1]?.sessionUpdate).toBe('session_info_update');
  });

  it('leaves finished, failed and stopped turns and model-only inputs alone', () => {
    const failed: MessageWithParts = {
      info: { messageId: 'a2', role: 'assistant', finish: 'error', error: { message: 'HTTP 500' }, time: { created: 1, completed: 2 } },
      parts: [],
    };
    const ms = [
      user('u1', 'one'),
      answer('a1', 'ok', true),
      user('u2', 'two'),
      failed,
      user('bg', 'background task done', { visibility: 'model-only', synthetic: true }),
      answer('a3', 'noted', true),
    ];
    expect(kinds(ms, { running: false, tail: true })).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
      'user_message_chunk',
      'ended:failed',
      'agent_message_chunk',
    ]);
  });
});
