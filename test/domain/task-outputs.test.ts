import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { TaskOutputs } from '../../src/domain/prompts/task-outputs.js';

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

  it('counts the tasks running now: an open card whose task says running; an ended or restored one does not count', () => {
    const kept = new TaskOutputs({ maxChars: 100, maxTasks: 4 });
    expect(kept.running()).toBe(0);
    kept.note(out('a', 'A'));
    kept.note(out('b', 'B'));
    expect(kept.running()).toBe(2);
    kept.note(out('a', '', 'cancelled'));
    expect(kept.running()).toBe(1);
    const after = new TaskOutputs({ maxChars: 100, maxTasks: 4 });
    after.restore(kept.snapshot());
    expect(after.running()).toBe(0);
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

describe('TaskOutputs: the launch line', () => {
  it('ends a background launch’s result line, so the task output starts below it', () => {
    const kept = new TaskOutputs({ maxChars: 100, maxTasks: 4 });
    kept.note(out('a', ''));
    kept.note({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'a',
      _meta: {
        terminal_output: { terminal_id: 'a', data: 'Command running in background with ID: exec_1' },
        zcode: { backgroundLaunch: true },
      },
    });
    kept.note(out('a', 'watching\n'));
    expect(kept.snapshot()[0]?.output).toBe('Command running in background with ID: exec_1\nwatching\n');
  });
});

describe('TaskOutputs across a hub restart (snapshot, restore)', () => {
  it('takes back what was kept within the new limits; a task running then comes back failed and interrupted', () => {
    const before = new TaskOutputs({ maxChars: 100, maxTasks: 4 });
    before.note(out('a', 'one\n', 'cancelled'));
    before.note(out('b', 'line 1\nline 2\nline 3\n'));
    before.note(out('c', 'C'));
    const snap = before.snapshot();
    // A copy: later output does not change it.
    before.note(out('c', 'more'));
    expect(snap.map((t) => t.output)).toEqual(['one\n', 'line 1\nline 2\nline 3\n', 'C']);

    const after = new TaskOutputs({ maxChars: 10, maxTasks: 2 });
    after.restore(snap);
    expect(after.replayUpdates()).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'b',
        status: 'failed',
        // Cut to this run's maxChars, at a line start, marked trimmed.
        _meta: { zcode: { outputText: 'line 3\n', outputTrimmed: true }, backgroundTask: { taskId: 't-b', status: 'interrupted' } },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c',
        status: 'failed',
        _meta: { zcode: { outputText: 'C' }, backgroundTask: { taskId: 't-c', status: 'interrupted' } },
      },
    ]);
    // A task that had ended keeps its status.
    const ended = new TaskOutputs({ maxChars: 100, maxTasks: 4 });
    ended.restore(snap.slice(0, 1));
    expect(ended.replayUpdates()[0]).toMatchObject({ status: 'failed', _meta: { backgroundTask: { status: 'cancelled' } } });
    expect(new TaskOutputs({ maxChars: 100, maxTasks: 0 }).note(out('x', 'x'))).toBe(false);
  });
});
