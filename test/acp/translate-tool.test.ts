import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { translateEvent } from '../../src/acp/translate-event.js';
import { createTranslationContext, type TranslationContext } from '../../src/acp/translation-context.js';
import { event } from './fixtures.js';

function run(ctx: TranslationContext, type: string, payload: unknown): SessionUpdate[] {
  return translateEvent(event(type, payload), ctx).updates;
}

describe('streaming (§5.5.6)', () => {
  it('reasoning_delta → agent_thought_chunk, text_delta → agent_message_chunk, in order', () => {
    const c = createTranslationContext('s');
    const out = [
      ...run(c, 'model.streaming', { kind: 'reasoning_delta', delta: 'Thinking…', done: false, assistantMessageId: 'msg_1' }),
      ...run(c, 'model.streaming', { kind: 'text_delta', delta: 'Hel', done: false, assistantMessageId: 'msg_1' }),
      ...run(c, 'model.streaming', { kind: 'text_delta', delta: 'lo', done: false, assistantMessageId: 'msg_1' }),
    ];
    expect(out.map((u) => u.sessionUpdate)).toEqual(['agent_thought_chunk', 'agent_message_chunk', 'agent_message_chunk']);
    expect(out[2]).toEqual({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lo' }, messageId: 'msg_1' });
  });

  it('tool_input_start announces the card; deltas show nothing; tool_call fills in the input', () => {
    const c = createTranslationContext('s');
    const start = run(c, 'model.streaming', { kind: 'tool_input_start', delta: '', done: false, toolCallId: 'call_1', toolName: 'Bash' });
    expect(start).toEqual([
      expect.objectContaining({ sessionUpdate: 'tool_call', toolCallId: 'call_1', status: 'pending', kind: 'execute', title: 'Bash' }),
    ]);
    expect(run(c, 'model.streaming', { kind: 'tool_input_delta', delta: '{"comm', done: false, toolCallId: 'call_1' })).toEqual([]);
    expect(run(c, 'model.streaming', { kind: 'tool_input_end', delta: '', done: true, toolCallId: 'call_1' })).toEqual([]);
    const call = run(c, 'model.streaming', {
      kind: 'tool_call',
      delta: '',
      done: true,
      toolCallId: 'call_1',
      toolName: 'Bash',
      input: { command: 'npm test' },
    });
    expect(call).toEqual([
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_1',
        title: '`npm test`',
        rawInput: { command: 'npm test' },
      }),
    ]);
    // scheduled with inputOmitted (§5.5.7) adds nothing new.
    expect(
      run(c, 'tool.updated', {
        kind: 'scheduled',
        toolCallId: 'call_1',
        toolName: 'Bash',
        inputOmitted: true,
        inputRef: 'model_stream',
        inputByteLength: 22,
      }),
    ).toEqual([]);
  });
});

describe('tool lifecycle (§5.5.7)', () => {
  it('Bash: scheduled → started → progress → result, with terminal output and exit in _meta', () => {
    const c = createTranslationContext('s');
    const [call] = run(c, 'tool.updated', { kind: 'scheduled', toolCallId: 'call_1', toolName: 'Bash', input: { command: 'npm test' } });
    expect(call).toMatchObject({
      sessionUpdate: 'tool_call',
      kind: 'execute',
      status: 'pending',
      title: '`npm test`',
      name: 'Bash',
      content: [{ type: 'terminal', terminalId: 'call_1' }],
      rawInput: { command: 'npm test' },
      _meta: { terminal_info: { terminal_id: 'call_1' }, claudeCode: { toolName: 'Bash' } },
    });
    expect(run(c, 'tool.updated', { kind: 'started', toolCallId: 'call_1', toolName: 'Bash', startedAt: 1790000001300 })).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'in_progress' },
    ]);
    const p1 = run(c, 'tool.updated', {
      kind: 'progress',
      toolCallId: 'call_1',
      elapsedMs: 500,
      pid: 4242,
      stdoutBytes: 8,
      stdoutTail: 'PASS a\n',
    });
    expect(p1).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_1',
        status: 'in_progress',
        _meta: { terminal_output: { terminal_id: 'call_1', data: 'PASS a\n' }, zcode: { outputText: 'PASS a\n' } },
      },
    ]);
    // The tail slides: only the new suffix is sent.
    const p2 = run(c, 'tool.updated', { kind: 'progress', toolCallId: 'call_1', stdoutTail: 'PASS a\nPASS b\n' });
    expect(p2[0]?._meta).toMatchObject({ terminal_output: { data: 'PASS b\n' }, zcode: { outputText: 'PASS a\nPASS b\n' } });
    // A repeated tail sends nothing.
    expect(run(c, 'tool.updated', { kind: 'progress', toolCallId: 'call_1', stdoutTail: 'PASS a\nPASS b\n' })).toEqual([]);
    const result = { success: true, content: 'PASS a\nPASS b\nTests: 2 passed\n', display: { kind: 'bash_output' } };
    const [done] = run(c, 'tool.updated', { kind: 'result', toolCallId: 'call_1', toolName: 'Bash', result, duration: 1800 });
    expect(done).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_1',
      status: 'completed',
      rawOutput: { success: true, content: result.content },
      _meta: {
        terminal_output: { terminal_id: 'call_1', data: 'Tests: 2 passed\n' },
        zcode: { outputText: 'PASS a\nPASS b\nTests: 2 passed\n', display: { kind: 'bash_output' } },
        terminal_exit: { terminal_id: 'call_1', exit_code: 0, signal: null },
      },
    });
    expect(run(c, 'tool.updated', { kind: 'batch', toolCallIds: ['call_1'], successCount: 1, errorCount: 0 })).toEqual([]);
  });

  it('Bash with success:false → failed with exit code 1', () => {
    const c = createTranslationContext('s');
    run(c, 'tool.updated', { kind: 'scheduled', toolCallId: 'call_2', toolName: 'Bash', input: { command: 'false' } });
    const [done] = run(c, 'tool.updated', {
      kind: 'result',
      toolCallId: 'call_2',
      result: { success: false, content: 'exit 1' },
      duration: 5,
    });
    expect(done).toMatchObject({ status: 'failed', _meta: { terminal_exit: { exit_code: 1 } } });
  });

  it('Edit: the card and the result carry the diff', () => {
    const c = createTranslationContext('s');
    const input = { file_path: '/w/app/src/login.ts', old_string: 'return false;', new_string: 'return user.ok;' };
    const [call] = run(c, 'tool.updated', { kind: 'scheduled', toolCallId: 'call_3', toolName: 'Edit', input });
    const diff = { type: 'diff', path: '/w/app/src/login.ts', oldText: 'return false;', newText: 'return user.ok;' };
    expect(call).toMatchObject({
      sessionUpdate: 'tool_call',
      kind: 'edit',
      title: 'Edit /w/app/src/login.ts',
      content: [diff],
      locations: [{ path: '/w/app/src/login.ts' }],
    });
    run(c, 'tool.updated', { kind: 'started', toolCallId: 'call_3', startedAt: '2026-07-18T09:06:45.929Z' });
    const [done] = run(c, 'tool.updated', {
      kind: 'result',
      toolCallId: 'call_3',
      result: { success: true, content: 'Edited 1 location' },
      duration: 12,
    });
    expect(done).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'completed', content: [diff] });
  });

  it('Write: diff with oldText null; MultiEdit: one diff per edit', () => {
    const c = createTranslationContext('s');
    const [w] = run(c, 'tool.updated', {
      kind: 'scheduled',
      toolCallId: 'w',
      toolName: 'Write',
      input: { file_path: '/w/a.md', content: '# A\n' },
    });
    expect(w).toMatchObject({ content: [{ type: 'diff', path: '/w/a.md', oldText: null, newText: '# A\n' }] });
    const edits = [
      { old_string: 'a', new_string: 'b' },
      { old_string: 'c', new_string: 'd' },
    ];
    const [m] = run(c, 'tool.updated', {
      kind: 'scheduled',
      toolCallId: 'm',
      toolName: 'MultiEdit',
      input: { file_path: '/w/b.ts', edits },
    });
    expect((m as { content: unknown[] }).content).toHaveLength(2);
  });

  it('error → failed with the message as content', () => {
    const c = createTranslationContext('s');
    run(c, 'tool.updated', { kind: 'scheduled', toolCallId: 'g', toolName: 'Grep', input: { pattern: 'TODO', path: '/w/app' } });
    const [u] = run(c, 'tool.updated', { kind: 'error', toolCallId: 'g', error: { type: 'tool_error', message: 'ripgrep not found' } });
    expect(u).toMatchObject({ status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'ripgrep not found' } }] });
  });

  it('a result for a card never seen (mid-turn resubscribe) announces it first', () => {
    const c = createTranslationContext('s');
    const out = run(c, 'tool.updated', {
      kind: 'result',
      toolCallId: 'late',
      toolName: 'Read',
      result: { success: true, content: 'file text' },
      duration: 3,
    });
    expect(out.map((u) => u.sessionUpdate)).toEqual(['tool_call', 'tool_call_update']);
    expect(out[1]).toMatchObject({ status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'file text' } }] });
  });

  it('kinds by tool name', () => {
    const c = createTranslationContext('s');
    const kinds = Object.fromEntries(
      ['Read', 'Glob', 'WebFetch', 'WebSearch', 'Task', 'ExitPlanMode', 'mcp__github__create_issue'].map((name, i) => {
        const [u] = run(c, 'tool.updated', { kind: 'scheduled', toolCallId: `k${i}`, toolName: name, input: {} });
        return [name, (u as { kind: string }).kind];
      }),
    );
    expect(kinds).toEqual({
      Read: 'read',
      Glob: 'search',
      WebFetch: 'fetch',
      WebSearch: 'fetch',
      Task: 'think',
      ExitPlanMode: 'switch_mode',
      mcp__github__create_issue: 'other',
    });
  });

  it('sub-agent mirror events become ordinary cards tagged with their parent (§5.2)', () => {
    const c = createTranslationContext('s');
    const [u] = run(c, 'tool.updated', {
      kind: 'scheduled',
      toolCallId: 'child_call_1',
      toolName: 'Read',
      input: { file_path: '/w/README.md' },
      source: 'subagent',
      parentToolCallId: 'call_agent',
      childSessionId: 'sess_subagent_1',
      agentId: 'agent_1',
    });
    expect(u).toMatchObject({
      sessionUpdate: 'tool_call',
      _meta: { zcode: { subagent: { parentToolCallId: 'call_agent', childSessionId: 'sess_subagent_1', agentId: 'agent_1' } } },
    });
  });

  it('TodoWrite → plan', () => {
    const c = createTranslationContext('s');
    const todos = [
      { content: 'Implement login', status: 'in_progress', priority: 'high' },
      { content: 'Implement signup', status: 'pending' },
    ];
    const out = run(c, 'model.streaming', {
      kind: 'tool_call',
      delta: '',
      done: true,
      toolCallId: 't1',
      toolName: 'TodoWrite',
      input: { todos },
    });
    expect(out[1]).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Implement login', status: 'in_progress', priority: 'high' },
        { content: 'Implement signup', status: 'pending', priority: 'medium' },
      ],
    });
  });
});

describe('terminal helpers', async () => {
  const { unsentSuffix, plainTerminalVariant } = await import('../../src/acp/tool-output.js');
  it('unsentSuffix finds the overlap of sliding tails', () => {
    expect(unsentSuffix('', 'abc')).toBe('abc');
    expect(unsentSuffix('abc', 'abcdef')).toBe('def');
    expect(unsentSuffix('xxabc', 'bcde')).toBe('de');
    expect(unsentSuffix('abc', 'bc')).toBe('');
    expect(unsentSuffix('abc', 'zzz')).toBe('zzz');
  });

  it('plainTerminalVariant turns terminal output into text and leaves other updates alone', () => {
    const c = createTranslationContext('s');
    const [call] = run(c, 'tool.updated', { kind: 'scheduled', toolCallId: 'b', toolName: 'Bash', input: { command: 'ls' } });
    expect(plainTerminalVariant(call!)).toMatchObject({ sessionUpdate: 'tool_call', _meta: { claudeCode: { toolName: 'Bash' } } });
    expect(plainTerminalVariant(call!)).not.toHaveProperty('content');
    const [p] = run(c, 'tool.updated', { kind: 'progress', toolCallId: 'b', stdoutTail: 'a.txt\n' });
    expect(plainTerminalVariant(p!)).toEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'b',
      status: 'in_progress',
      content: [{ type: 'content', content: { type: 'text', text: 'a.txt\n' } }],
      _meta: { zcode: { outputText: 'a.txt\n' } },
    });
    const chunk = { sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text: 'x' } };
    expect(plainTerminalVariant(chunk)).toBe(chunk);
  });
});
