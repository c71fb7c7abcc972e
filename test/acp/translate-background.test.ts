import { describe, expect, it } from 'vitest';
import { translateEvent } from '../../src/acp/translate-event.js';
import { createTranslationContext, type TranslationContext, type TranslationResult } from '../../src/acp/translation-context.js';
import { mapResultType } from '../../src/acp/translate-turn.js';
import { event } from './fixtures.js';

function run(ctx: TranslationContext, type: string, payload: unknown, extra: Record<string, unknown> = {}): TranslationResult {
  return translateEvent(event(type, payload, extra), ctx);
}

describe('background Bash reuses its launch card (APP-SERVER.md §14.7)', () => {
  it('launch stays open, lifecycle updates the same card, completion exits the terminal', () => {
    const c = createTranslationContext('s');
    run(c, 'model.streaming', {
      kind: 'tool_call',
      delta: '',
      done: true,
      toolCallId: 'call_e282',
      toolName: 'Bash',
      input: { command: 'sleep 5; echo done', run_in_background: true },
    });
    run(c, 'tool.updated', { kind: 'started', toolCallId: 'call_e282', toolName: 'Bash', startedAt: 1 });
    const launch = run(c, 'tool.updated', {
      kind: 'result',
      toolCallId: 'call_e282',
      result: { success: true, content: 'Command running in background with ID: exec_ac3a' },
      duration: 20,
    });
    expect(launch.updates[0]).toMatchObject({
      sessionUpdate: 'tool_call_update',
      status: 'in_progress',
      _meta: { zcode: { backgroundLaunch: true } },
    });
    expect(launch.updates[0]?._meta).not.toHaveProperty('terminal_exit');

    const running = run(c, 'session.updated', {
      taskId: 'exec_ac3a',
      toolCallId: 'call_e282',
      toolName: 'Bash',
      status: 'running',
      pid: 22410,
      outputPath: '/tmp/out.log',
      startedAt: '2026-07-18T09:06:45.929Z',
    });
    expect(running.updates).toEqual([
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_e282',
        status: 'in_progress',
        _meta: expect.objectContaining({ backgroundTask: expect.objectContaining({ taskId: 'exec_ac3a', status: 'running' }) }),
      }),
    ]);
    expect(running.updates.some((u) => u.sessionUpdate === 'tool_call')).toBe(false);

    const done = run(c, 'session.updated', {
      taskId: 'exec_ac3a',
      toolCallId: 'call_e282',
      toolName: 'Bash',
      status: 'completed',
      outputTail: 'done\n',
      completedAt: '2026-07-18T09:06:51.000Z',
    });
    expect(done.updates).toHaveLength(1);
    expect(done.updates[0]).toMatchObject({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_e282',
      status: 'completed',
      _meta: { terminal_output: { terminal_id: 'call_e282', data: 'done\n' }, terminal_exit: { terminal_id: 'call_e282', exit_code: 0 } },
    });
    expect(done.signals).toEqual([
      { type: 'background_task', taskId: 'exec_ac3a', status: 'completed', toolCallId: 'call_e282', done: true },
    ]);
    expect(c.backgroundTasks.size).toBe(0);
  });

  it('failed / cancelled background Bash exit with code 1; cancelled is marked', () => {
    const c = createTranslationContext('s');
    run(c, 'tool.updated', {
      kind: 'scheduled',
      toolCallId: 'call_x',
      toolName: 'Bash',
      input: { command: 'npm run watch', run_in_background: true },
    });
    run(c, 'tool.updated', {
      kind: 'result',
      toolCallId: 'call_x',
      result: { success: true, content: 'Command running in background with ID: exec_x' },
    });
    const r = run(c, 'session.updated', {
      taskId: 'exec_x',
      toolCallId: 'call_x',
      status: 'cancelled',
      cancelRequestedAt: '2026-07-18T09:07:00.000Z',
    });
    expect(r.updates[0]).toMatchObject({
      status: 'failed',
      _meta: { terminal_exit: { exit_code: 1 }, backgroundTask: { cancelled: true } },
    });
  });
});

describe('background sub-agent gets its own card (APP-SERVER.md §14.7)', () => {
  it('launch card completes; the task is a fresh [background] card', () => {
    const c = createTranslationContext('s');
    run(c, 'tool.updated', {
      kind: 'scheduled',
      toolCallId: 'call_orig',
      toolName: 'Agent',
      input: { description: 'Read README first heading', prompt: '…', run_in_background: true },
    });
    const launch = run(c, 'tool.updated', {
      kind: 'result',
      toolCallId: 'call_orig',
      result: { success: true, content: 'agentId: agent_88a4 working in the background' },
    });
    expect(launch.updates[0]).toMatchObject({ status: 'completed' });
    const started = run(c, 'session.updated', {
      taskId: 'agent_88a4',
      toolCallId: 'call_orig',
      toolName: 'Agent',
      status: 'running',
      description: 'Read README first heading',
      outputPath: '/tmp/output.txt',
      terminalId: 'agent_88a4',
      startedAt: '2026-07-18T09:06:45.929Z',
    });
    expect(started.updates).toEqual([
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        toolCallId: 'bg_agent_88a4',
        title: '[background] Read README first heading',
        kind: 'other',
        status: 'in_progress',
      }),
    ]);
    const again = run(c, 'session.updated', { taskId: 'agent_88a4', toolCallId: 'call_orig', status: 'running' });
    expect(again.updates).toEqual([]);
    const done = run(c, 'session.updated', { taskId: 'agent_88a4', toolCallId: 'call_orig', status: 'completed' });
    expect(done.updates).toEqual([
      expect.objectContaining({ sessionUpdate: 'tool_call_update', toolCallId: 'bg_agent_88a4', status: 'completed' }),
    ]);
    expect(done.updates[0]?._meta).not.toHaveProperty('terminal_exit');
  });
});

describe('background_task turns are translated but tagged (§5.5.1, §11 #12)', () => {
  it('tags updates and marks the signals background', () => {
    const c = createTranslationContext('s');
    const started = run(
      c,
      'turn.started',
      {
        turnNumber: 3,
        input: '<task-notification>\n<task-id>agent_88a4</task-id>\n<status>completed</status>\n</task-notification>',
        inputSource: 'background_task',
        inputVisibility: 'model-only',
      },
      { turnId: 'turn_bg' },
    );
    expect(started.signals).toEqual([
      { type: 'turn_started', turnId: 'turn_bg', inputSource: 'background_task', inputVisibility: 'model-only', background: true },
    ]);
    const text = run(
      c,
      'model.streaming',
      { kind: 'text_delta', delta: 'The heading is "zcode-hub".', done: false },
      { turnId: 'turn_bg' },
    );
    expect(text.updates).toEqual([
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'The heading is "zcode-hub".' },
        _meta: { zcode: { backgroundTurn: { turnId: 'turn_bg', inputSource: 'background_task' } } },
      },
    ]);
    const ended = run(
      c,
      'turn.completed',
      { response: '…', tokenCount: 10, toolCallCount: 0, duration: 100, resultType: 'success', backgroundSubagentResultConsumed: true },
      { turnId: 'turn_bg' },
    );
    expect(ended.signals[0]).toMatchObject({ type: 'turn_ended', turnId: 'turn_bg', background: true });
  });

  it('events of the user turn are not tagged', () => {
    const c = createTranslationContext('s');
    run(c, 'turn.started', { turnNumber: 1, input: 'hi' }, { turnId: 'turn_user' });
    const text = run(c, 'model.streaming', { kind: 'text_delta', delta: 'Hi', done: false }, { turnId: 'turn_user' });
    expect(text.updates[0]).not.toHaveProperty('_meta');
  });
});

describe('session.updated variants (§5.5.9)', () => {
  it('model_complete → usage_update once the context window is known, and a usage signal', () => {
    const c = createTranslationContext('s');
    const usage = { inputTokens: 12000, outputTokens: 800, totalTokens: 12800, cacheReadTokens: 4000 };
    const noSize = run(c, 'session.updated', { content: 'x', stopReason: 'end_turn', usage });
    expect(noSize.updates).toEqual([]);
    expect(noSize.signals).toEqual([{ type: 'usage', usage, used: 12800 }]);
    const r = run(c, 'session.updated', { content: 'x', stopReason: 'end_turn', usage, contextWindow: 200000, cacheHit: true });
    expect(r.updates).toEqual([{ sessionUpdate: 'usage_update', used: 12800, size: 200000, _meta: { zcode: { usage } } }]);
  });

  it('model_selected → model_changed signal (the domain builds config_option_update)', () => {
    const c = createTranslationContext('s');
    const r = run(c, 'session.updated', {
      modelSelection: { providerId: 'my-provider', modelId: 'GLM-5.3', options: { reasoningLevel: 'high' } },
      effectiveReasoningLevel: 'high',
      contextWindow: 200000,
      origin: 'user',
    });
    expect(r.updates).toEqual([]);
    expect(r.signals).toEqual([
      {
        type: 'model_changed',
        model: { providerId: 'my-provider', modelId: 'GLM-5.3', options: { reasoningLevel: 'high' } },
        reasoningLevel: 'high',
        contextWindow: 200000,
      },
    ]);
    expect(c.contextWindow).toBe(200000);
  });

  it('todos → plan', () => {
    const r = run(createTranslationContext('s'), 'session.updated', {
      todos: [{ content: 'Write tests', status: 'completed', priority: 'low' }],
    });
    expect(r.updates).toEqual([{ sessionUpdate: 'plan', entries: [{ content: 'Write tests', status: 'completed', priority: 'low' }] }]);
  });

  it('other variants (model_request, network status, goal, compaction, auto-resolution) → nothing', () => {
    const c = createTranslationContext('s');
    for (const payload of [
      { messageCount: 4, providerId: 'p', modelId: 'm' },
      { type: 'model_request_started', providerId: 'p', attempt: 1 },
      { action: 'set', target: { objective: 'x' } },
      { operationId: 'op1', status: 'started' },
      { interactionId: 'i1', toolCallId: 'c1', autoResolution: { state: 'hiddenGrace', startedAt: 1 } },
    ]) {
      expect(run(c, 'session.updated', payload)).toEqual({ updates: [], signals: [] });
    }
  });
});

describe('turn outcomes → ACP StopReason (§3.4)', () => {
  it.each([
    ['success', undefined, 'success', 'end_turn'],
    ['success', 'refusal', 'success', 'refusal'],
    ['success', 'max_tokens', 'success', 'max_tokens'],
    ['cancelled', undefined, 'cancelled', 'cancelled'],
    ['error_max_turns', undefined, 'limit', 'max_turn_requests'],
    ['error_max_tool_calls', undefined, 'limit', 'max_turn_requests'],
    ['error_max_budget', undefined, 'limit', 'max_tokens'],
    ['error_during_execution', undefined, 'failed', 'end_turn'],
  ])('%s (last model stop %s) → %s / %s', (resultType, last, outcome, stopReason) => {
    expect(mapResultType(resultType, last)).toEqual({ outcome, stopReason });
  });

  it('a cancelled turn.completed (user stop) ends with cancelled', () => {
    const c = createTranslationContext('s');
    run(c, 'turn.started', { turnNumber: 1, input: 'hi' });
    const r = run(c, 'turn.completed', { response: '', tokenCount: 0, toolCallCount: 0, duration: 10, resultType: 'cancelled' });
    expect(r.signals[0]).toMatchObject({ outcome: 'cancelled', stopReason: 'cancelled' });
  });

  it('a refusal seen in model_complete refines the stop reason', () => {
    const c = createTranslationContext('s');
    run(c, 'turn.started', { turnNumber: 1, input: 'hi' });
    run(c, 'session.updated', { content: '', stopReason: 'content_filter', usage: { inputTokens: 1 } });
    const r = run(c, 'turn.completed', { response: '', tokenCount: 1, toolCallCount: 0, duration: 10, resultType: 'success' });
    expect(r.signals[0]).toMatchObject({ stopReason: 'refusal' });
  });
});
