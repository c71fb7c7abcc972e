import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { TaskOutputs } from '../../src/domain/task-outputs.js';

const out = (toolCallId: string, data: string, status = 'running'): SessionUpdate => ({
  sessionUpdate: 'tool_call_update',
  toolCallId,
  status: status === 'running' ? 'in_progress' : 'failed',
  _meta: { terminal_output: { terminal_id: toolCallId, data }, backgroundTask: { taskId: `t-${toolCallId}`, status } },
});

describe('TaskOutputs (output kept per background task)', () => {
  it('keeps the output so far and marks it trimmed once it crosses taskOutputMaxChars', () => {
    const kept = new TaskOutputs({ maxChars: 10, maxTasks: 4 });
    kept.note(out('a', '12345'));
    kept.note(out('a', '6789'));
    expect(kept.replayUpdates()).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'a',
        status: 'in_progress',
        _meta: { zcode: { outputText: '123456789' }, backgroundTask: { taskId: 't-a', status: 'running' } },
      },
    ]);
    kept.note(out('a', 'abc', 'cancelled'));
    const [u] = kept.replayUpdates();
    expect(u?._meta).toEqual({
      zcode: { outputText: '3456789abc', outputTrimmed: true },
      backgroundTask: { taskId: 't-a', status: 'cancelled' },
    });
    expect(u?.sessionUpdate === 'tool_call_update' && u.status).toBe('failed');
  });

  it('ignores cards that are not background tasks, and forgets the oldest task past taskOutputsMax', () => {
    const kept = new TaskOutputs({ maxChars: 100, maxTasks: 2 });
    kept.note({ sessionUpdate: 'tool_call_update', toolCallId: 'shell', _meta: { terminal_output: { terminal_id: 'shell', data: 'ls' } } });
    kept.note({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
    expect(kept.size).toBe(0);
    kept.note(out('a', 'A'));
    kept.note(out('b', 'B'));
    kept.note(out('c', 'C'));
    expect(kept.replayUpdates().map((u) => (u.sessionUpdate === 'tool_call_update' ? u.toolCallId : ''))).toEqual(['b', 'c']);
  });
});
