import { describe, expect, it } from 'vitest';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { classifyInteraction, shapeForClient } from '../../src/acp/interactions.js';
import { parseMessages } from '../../src/acp/message-schema.js';
import { plainTerminalVariant } from '../../src/acp/tool-output.js';
import { translateEvent } from '../../src/acp/translate-event.js';
import { messagesToUpdates } from '../../src/acp/translate-history.js';
import { configOptionUpdate } from '../../src/acp/translate-state.js';
import { createTranslationContext } from '../../src/acp/translation-context.js';
import { acpErrors } from './acp-json-schema.js';
import { event } from './fixtures.js';

// A whole turn with every update kind the translator produces (APP-SERVER.md §5.7 order).
const script: Array<[string, unknown, Record<string, unknown>?]> = [
  ['session.created', { mode: 'build', contextWindow: 200000 }],
  ['turn.started', { turnNumber: 1, input: 'fix the login test', inputId: 'in_1' }],
  ['model.streaming', { kind: 'reasoning_delta', delta: 'Look at the test.', done: false, assistantMessageId: 'msg_2' }],
  ['model.streaming', { kind: 'text_delta', delta: 'Running it.', done: false, assistantMessageId: 'msg_2' }],
  ['model.streaming', { kind: 'tool_input_start', delta: '', done: false, toolCallId: 'call_1', toolName: 'Bash' }],
  ['model.streaming', { kind: 'tool_call', delta: '', done: true, toolCallId: 'call_1', toolName: 'Bash', input: { command: 'npm test' } }],
  ['tool.updated', { kind: 'scheduled', toolCallId: 'call_1', toolName: 'Bash', inputOmitted: true }],
  [
    'permission.requested',
    {
      requestId: 'p1',
      toolCallId: 'call_1',
      toolName: 'Bash',
      riskLevel: 'medium',
      reason: 'Run',
      input: { command: 'npm test' },
      options: [{}],
    },
  ],
  ['permission.resolved', { requestId: 'p1', toolCallId: 'call_1', decision: 'allow' }],
  ['tool.updated', { kind: 'started', toolCallId: 'call_1', startedAt: 1 }],
  ['tool.updated', { kind: 'progress', toolCallId: 'call_1', stdoutTail: 'FAIL login\n' }],
  ['tool.updated', { kind: 'result', toolCallId: 'call_1', result: { success: true, content: 'FAIL login\n1 failed\n' }, duration: 900 }],
  [
    'tool.updated',
    {
      kind: 'scheduled',
      toolCallId: 'call_2',
      toolName: 'Edit',
      input: { file_path: '/w/app/login.ts', old_string: 'a', new_string: 'b' },
    },
  ],
  ['tool.updated', { kind: 'result', toolCallId: 'call_2', result: { success: true, content: 'ok' } }],
  [
    'tool.updated',
    {
      kind: 'scheduled',
      toolCallId: 'call_3',
      toolName: 'TodoWrite',
      input: { todos: [{ content: 'Fix login', status: 'completed', priority: 'high' }] },
    },
  ],
  ['tool.updated', { kind: 'error', toolCallId: 'call_3', error: { type: 'x', message: 'boom' } }],
  ['tool.updated', { kind: 'batch', toolCallIds: ['call_1', 'call_2', 'call_3'], successCount: 2, errorCount: 1 }],
  ['session.updated', { taskId: 'agent_1', toolCallId: 'call_x', status: 'running', description: 'Check docs' }],
  ['session.updated', { taskId: 'agent_1', status: 'completed' }],
  ['session.updated', { mode: 'edit', previousMode: 'build', source: 'tool' }],
  ['session.updated', { content: 'Done', stopReason: 'end_turn', usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000 } }],
  ['session.titleUpdated', { previousTitle: '', source: 'generated', title: 'Fix login' }],
  [
    'turn.steerDrained',
    {
      pendingInputIds: ['x'],
      targetTurnId: 'turn_1',
      injectedMessageIds: ['m'],
      drainedInputs: [{ pendingInputId: 'x', messageId: 'm', text: 'and lint' }],
    },
  ],
  ['turn.completed', { response: 'Done', tokenCount: 1000, toolCallCount: 3, duration: 5000, resultType: 'success' }],
];

function allUpdates(): SessionUpdate[] {
  const ctx = createTranslationContext('sess_9f2c');
  return script.flatMap(([type, payload, extra]) => translateEvent(event(type, payload, extra), ctx).updates);
}

describe('translator output conforms to the ACP v1 JSON Schema', () => {
  it('the validator rejects a malformed update (guards the guard)', () => {
    expect(acpErrors('SessionUpdate', { sessionUpdate: 'tool_call', toolCallId: 'x' })).not.toEqual([]);
    expect(acpErrors('SessionUpdate', { sessionUpdate: 'usage_update', used: 1 })).not.toEqual([]);
  });

  it('every live update (and its plain-terminal variant) is a valid SessionUpdate', () => {
    const updates = allUpdates();
    const kinds = new Set(updates.map((u) => u.sessionUpdate));
    expect([...kinds].sort()).toEqual(
      [
        'agent_message_chunk',
        'agent_thought_chunk',
        'current_mode_update',
        'plan',
        'session_info_update',
        'tool_call',
        'tool_call_update',
        'usage_update',
        'user_message_chunk',
      ].sort(),
    );
    for (const u of [...updates, ...updates.map(plainTerminalVariant)]) {
      expect(acpErrors('SessionUpdate', u), JSON.stringify(u)).toEqual([]);
    }
  });

  it('replayed history and config options are valid SessionUpdates', () => {
    const messages = parseMessages([
      {
        info: { messageId: 'm1', role: 'user' },
        parts: [
          { type: 'text', text: 'hi' },
          { type: 'file', mime: 'image/png', filename: 'a.png', url: 'file:///w/a.png' },
        ],
      },
      {
        info: { messageId: 'm2', role: 'assistant' },
        parts: [
          { type: 'reasoning', text: 'r' },
          { type: 'text', text: 't' },
          { type: 'tool', callId: 'c', tool: 'Bash', state: { status: 'running', input: { command: 'ls' } } },
        ],
      },
    ]);
    const updates = [
      ...messagesToUpdates(messages),
      configOptionUpdate({ mode: { current: 'build' }, model: { current: { providerId: 'p', modelId: 'm' } } }),
    ];
    for (const u of updates) expect(acpErrors('SessionUpdate', u), JSON.stringify(u)).toEqual([]);
  });

  it('interaction requests are valid RequestPermissionRequest / CreateElicitationRequest', () => {
    const records = [
      classifyInteraction('interaction/requestPermission', {
        requestId: 'p',
        sessionId: 's',
        toolCallId: 'c',
        toolName: 'Edit',
        reason: 'Edit file',
        riskLevel: 'low',
        input: { file_path: '/w/a.ts', old_string: 'a', new_string: 'b' },
        options: [{ optionId: 'allow_once', kind: 'allow_once', name: 'Allow once', response: { decision: 'allow' } }],
      }),
      classifyInteraction('interaction/requestUserInput', {
        requestId: 'q',
        sessionId: 's',
        toolName: 'AskUserQuestion',
        questions: [
          { question: 'Pick', header: 'H', multiSelect: true, options: [{ value: 'a', label: 'a' }] },
          { question: 'One', header: '', options: [{ value: 'x', label: 'x', description: 'the x' }] },
        ],
      }),
      classifyInteraction('interaction/requestUserInput', {
        requestId: 'pl',
        sessionId: 's',
        toolName: 'ExitPlanMode',
        schema: { interaction: 'plan_approval' },
        input: { plan: 'P' },
      }),
    ];
    for (const record of records) {
      for (const forms of [true, false]) {
        const shaped = shapeForClient(record, forms);
        const list = shaped.method === 'elicitation/create' ? [shaped.params] : shaped.params;
        const def = shaped.method === 'elicitation/create' ? 'CreateElicitationRequest' : 'RequestPermissionRequest';
        for (const params of list) expect(acpErrors(def, params), JSON.stringify(params)).toEqual([]);
      }
    }
  });
});
