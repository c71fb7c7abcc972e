import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { OpenToolCalls, UNFINISHED_TOOL_MESSAGE } from '../../src/acp/open-tool-calls.js';
import { LIMITS } from '../../src/limits.js';

const call = (toolCallId: string, extra: Partial<SessionUpdate> = {}): SessionUpdate =>
  ({ sessionUpdate: 'tool_call', toolCallId, title: toolCallId, status: 'pending', ...extra }) as SessionUpdate;
const update = (toolCallId: string, extra: Record<string, unknown> = {}): SessionUpdate =>
  ({ sessionUpdate: 'tool_call_update', toolCallId, ...extra }) as SessionUpdate;

describe('open tool calls', () => {
  it('closes the unfinished ones failed, oldest first, once; finished calls and background tasks are not its to close', () => {
    const open = new OpenToolCalls();
    open.note(call('a'));
    open.note(call('b'));
    open.note(call('c'));
    open.note(call('task', { _meta: { backgroundTask: { taskId: 't1' } } }));
    open.note(update('b', { status: 'completed' }));
    open.note(update('c', { status: 'in_progress' }));
    open.note(update('stray', { status: 'in_progress' }));
    open.note({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
    expect(open.size).toBe(2);
    expect(open.closeAll()).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'a',
        status: 'failed',
        _meta: { zcode: { unfinished: { message: UNFINISHED_TOOL_MESSAGE } } },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c',
        status: 'failed',
        _meta: { zcode: { unfinished: { message: UNFINISHED_TOOL_MESSAGE } } },
      },
    ]);
    expect(open.closeAll()).toEqual([]);
  });

  it('a call that became a background task, or failed by itself, is not closed; clear forgets the rest', () => {
    const open = new OpenToolCalls();
    open.note(call('a'));
    open.note(update('a', { _meta: { backgroundTask: { taskId: 't1' } } }));
    open.note(call('b'));
    open.note(update('b', { status: 'failed' }));
    expect(open.size).toBe(0);
    open.note(call('c'));
    open.clear();
    expect(open.closeAll()).toEqual([]);
  });

  it(`remembers at most openToolCallsMax (default ${LIMITS.openToolCallsMax}): past it the oldest is forgotten and not closed`, () => {
    const open = new OpenToolCalls();
    const n = LIMITS.openToolCallsMax;
    for (let i = 0; i <= n; i++) open.note(call(`c${i}`));
    expect(open.size).toBe(n);
    // Announced again, a call still remembered takes no second place and forgets no one.
    open.note(call(`c${n}`));
    const closed = open.closeAll().map((u) => (u as { toolCallId: string }).toolCallId);
    expect(closed).toHaveLength(n);
    expect(closed[0]).toBe('c1');
    expect(closed.at(-1)).toBe(`c${n}`);
    expect(closed).not.toContain('c0');
  });

  it('a smaller bound is kept the same way; a finished call frees its place', () => {
    const open = new OpenToolCalls(2);
    open.note(call('a'));
    open.note(call('b'));
    open.note(update('a', { status: 'completed' }));
    open.note(call('c'));
    expect(open.size).toBe(2);
    open.note(call('d'));
    expect(open.closeAll().map((u) => (u as { toolCallId: string }).toolCallId)).toEqual(['c', 'd']);
  });
});
