import { describe, expect, it } from 'vitest';
import { HubError } from '../../src/errors.js';
import { decodeHistoryCursor, encodeHistoryCursor, pageBefore, tailByTurns, turnAlignedStart } from '../../src/acp/history-page.js';
import { parseMessages, type MessageWithParts } from '../../src/acp/message-schema.js';
import { messagesToUpdates } from '../../src/acp/translate-history.js';
import { toolTitle } from '../../src/acp/tool-info.js';
import { plainTerminalVariant } from '../../src/acp/tool-output.js';

const S = 'sess_9f2c';
const time = { created: 1790000000000 };

function user(id: string, text: string, extra: Record<string, unknown> = {}): unknown {
  return {
    info: { messageId: id, sessionId: S, role: 'user', time, agent: 'build', ...extra },
    parts: [{ type: 'text', partId: `${id}_p`, sessionId: S, messageId: id, text }],
  };
}

function assistant(id: string, parts: unknown[]): unknown {
  return {
    info: {
      messageId: id,
      sessionId: S,
      role: 'assistant',
      time,
      parentMessageId: 'm',
      agent: 'build',
      path: { cwd: '/w/app', root: '/w/app' },
      cost: 0,
      tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
    },
    parts: parts.map((p, i) => ({ partId: `${id}_${i}`, sessionId: S, messageId: id, ...(p as object) })),
  };
}

const conversation = parseMessages({
  messages: [
    user('m1', 'Run the tests'),
    assistant('m2', [
      { type: 'step-start' },
      { type: 'reasoning', text: 'Use npm test.' },
      { type: 'text', text: 'Running them.' },
      {
        type: 'tool',
        callId: 'call_1',
        tool: 'Bash',
        state: {
          status: 'completed',
          input: { command: 'npm test' },
          output: { success: true, content: 'Tests: 2 passed\n' },
          title: 'npm test',
          metadata: {},
          startedAt: 1,
          completedAt: 2,
        },
      },
      {
        type: 'tool',
        callId: 'call_2',
        tool: 'Edit',
        state: {
          status: 'completed',
          input: { file_path: '/w/app/a.ts', old_string: 'a', new_string: 'b' },
          output: 'ok',
          title: 'Edit',
          metadata: {},
          startedAt: 1,
          completedAt: 2,
        },
      },
      {
        type: 'tool',
        callId: 'call_3',
        tool: 'Read',
        state: { status: 'error', input: { file_path: '/w/app/missing.ts' }, error: 'ENOENT', startedAt: 1, completedAt: 2 },
      },
      { type: 'step-finish', reason: 'stop', cost: 0, tokens: {} },
    ]),
    user('m3', '<task-notification>…</task-notification>', { synthetic: true, visibility: 'model-only' }),
    user('m4', 'Thanks'),
    assistant('m5', [{ type: 'text', text: 'You are welcome.' }]),
  ],
});

describe('history replay from session/messages (§3.7)', () => {
  it('gives a card the title it had live; a stored title counts only when the input says nothing more', () => {
    const stored = parseMessages({
      messages: [
        assistant('a1', [
          {
            type: 'tool',
            callId: 'ag',
            tool: 'Agent',
            state: {
              status: 'completed',
              input: { description: 'Survey the project layout', subagent_type: 'Explore' },
              output: 'ok',
              title: 'Survey the project layout',
              metadata: {},
              startedAt: 1,
              completedAt: 2,
            },
          },
          {
            type: 'tool',
            callId: 'mc',
            tool: 'mcp_tool',
            state: {
              status: 'completed',
              input: {},
              output: 'ok',
              title: 'Looked up the ticket',
              metadata: {},
              startedAt: 1,
              completedAt: 2,
            },
          },
        ]),
      ],
    });
    const titles = messagesToUpdates(stored).flatMap((u) => (u.sessionUpdate === 'tool_call' ? [u.title] : []));
    expect(titles).toEqual([toolTitle('Agent', { description: 'Survey the project layout' }), 'Looked up the ticket']);
    expect(titles[0]).toBe('Agent: Survey the project layout');
  });

  it('rebuilds chunks and final tool cards in order', () => {
    const updates = messagesToUpdates(conversation);
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_thought_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
      'tool_call',
      'tool_call',
      'user_message_chunk',
      'agent_message_chunk',
    ]);
    expect(updates[0]).toEqual({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Run the tests' }, messageId: 'm1' });
    expect(updates[3]).toMatchObject({
      toolCallId: 'call_1',
      kind: 'execute',
      status: 'completed',
      content: [{ type: 'terminal', terminalId: 'call_1' }],
      rawInput: { command: 'npm test' },
    });
    expect(updates[4]).toMatchObject({ _meta: { terminal_output: { data: 'Tests: 2 passed\n' }, terminal_exit: { exit_code: 0 } } });
    expect(updates[5]).toMatchObject({
      toolCallId: 'call_2',
      kind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: '/w/app/a.ts', oldText: 'a', newText: 'b' }],
    });
    expect(updates[6]).toMatchObject({
      toolCallId: 'call_3',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'ENOENT' } }],
    });
  });

  it('replayed terminal output degrades to text for clients without the terminal capability', () => {
    const updates = messagesToUpdates(conversation).map(plainTerminalVariant);
    expect(updates[3]).not.toHaveProperty('content');
    expect(updates[4]).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_1',
      content: [{ type: 'content', content: { type: 'text', text: 'Tests: 2 passed\n' } }],
      _meta: { zcode: { outputText: 'Tests: 2 passed\n' } },
    });
  });

  it('tolerates unknown parts, roles and invalid entries', () => {
    const messages = parseMessages([
      user('a', 'hi'),
      { nope: true },
      { info: { messageId: 'x', role: 'system' }, parts: [{ type: 'text', text: 'sys' }] },
    ]);
    expect(messages).toHaveLength(2);
    expect(messagesToUpdates(messages)).toHaveLength(1);
  });
});

describe('turn-aligned tail and cursor (ARCHITECTURE.md §4.2)', () => {
  it('a tail never starts mid-turn', () => {
    // limit 1 would start at m5 (assistant); it moves back to m4 (the user message).
    expect(turnAlignedStart(conversation, 1)).toBe(3);
    const tail = tailByTurns(S, conversation, 1);
    expect(tail.messages.map((m) => m.info.messageId)).toEqual(['m4', 'm5']);
    expect(tail.hasMore).toBe(true);
    expect(decodeHistoryCursor(tail.cursor, S)).toEqual({ v: 1, sessionId: S, beforeMessageId: 'm4' });
  });

  it('pages back to the start', () => {
    const first = tailByTurns(S, conversation, 2);
    const earlier = pageBefore(S, conversation, first.cursor!, 2);
    expect(earlier.messages.map((m) => m.info.messageId)).toEqual(['m1', 'm2', 'm3']);
    expect(earlier).toMatchObject({ hasMore: false });
    expect(earlier.cursor).toBeUndefined();
  });

  it('a limit covering everything has no more', () => {
    expect(tailByTurns(S, conversation, 100)).toEqual({ messages: conversation, hasMore: false });
  });

  it('cursor round-trips and is validated on decode', () => {
    const c = encodeHistoryCursor({ sessionId: S, beforeMessageId: 'm4' });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeHistoryCursor(c)).toEqual({ v: 1, sessionId: S, beforeMessageId: 'm4' });
    for (const bad of [
      '',
      'not base64!',
      Buffer.from('{"v":2}').toString('base64url'),
      Buffer.from('nope').toString('base64url'),
      42,
      'x'.repeat(5000),
    ]) {
      expect(() => decodeHistoryCursor(bad)).toThrow(HubError);
    }
    const extra = Buffer.from(JSON.stringify({ v: 1, sessionId: S, beforeMessageId: 'm4', evil: 1 })).toString('base64url');
    expect(() => decodeHistoryCursor(extra)).toThrow(HubError);
    expect(() => decodeHistoryCursor(c, 'sess_other')).toThrow(/another session/);
  });

  it('a cursor whose message is gone is NOT_FOUND', () => {
    const c = encodeHistoryCursor({ sessionId: S, beforeMessageId: 'gone' });
    expect(() => pageBefore(S, conversation as MessageWithParts[], c, 5)).toThrow(expect.objectContaining({ code: 'HUB_ERR_NOT_FOUND' }));
  });
});
