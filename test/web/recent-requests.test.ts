import { describe, expect, it } from 'vitest';
import { WEB_LIMITS } from '../../web/src/limits.js';
import { checkRequest, recentRequests } from '../../web/src/policy/recent-requests.js';

/** Journal entries as `GET /api/sessions/{id}/events` returns them (`{seq, epoch, update}`). */
const call = (id: string, toolName: string, rawInput: unknown, title = toolName) => ({
  update: { sessionUpdate: 'tool_call', toolCallId: id, title, rawInput, status: 'pending', _meta: { claudeCode: { toolName } } },
});
const marked = (id: string, zcode: Record<string, unknown>) => ({
  update: { sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { zcode } },
});

describe('recent requests of a session (the dry run list)', () => {
  it('only tool calls the hub marked (answered, waiting under a rule, settled by one) or pending now, newest first', () => {
    const events = [
      call('r1', 'Read', { file_path: '/w/a.ts' }),
      call('b1', 'Bash', { command: 'npm test' }, '`npm test`'),
      marked('b1', { answeredBy: { name: 'ann · Ann phone', person: 'ann' } }),
      call('q1', 'AskUserQuestion', { questions: [] }),
      marked('q1', { approval: { waitingFor: 'waiting for ann' } }),
      call('w1', 'Write', { file_path: '/w/b.ts', content: 'x' }),
      call('p1', 'ExitPlanMode', { plan: '1.' }),
      marked('p1', { answeredBy: { name: 'allowed by rule plans', rule: 'plans' }, rule: { id: 'plans' } }),
      { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } },
      null,
      { update: { sessionUpdate: 'tool_call_update', toolCallId: 'ghost', _meta: { zcode: { answeredBy: { name: 'x' } } } } },
    ];
    const list = recentRequests(events, new Set(['w1']), WEB_LIMITS.policyRecentRequests);
    expect(list.map((r) => [r.toolCallId, r.answeredBy ?? null, r.pending])).toEqual([
      ['p1', 'allowed by rule plans', false],
      ['w1', null, true],
      ['q1', null, false],
      ['b1', 'ann · Ann phone', false],
    ]);
    expect(list.find((r) => r.toolCallId === 'b1')).toMatchObject({
      title: '`npm test`',
      tool: 'Bash',
      request: { kind: 'permission', tool: 'Bash', input: { command: 'npm test' } },
    });
    expect(list[0]?.request).toEqual({ kind: 'plan' });
    expect(list[2]?.request).toEqual({ kind: 'question' });
  });

  it(`keeps the newest ${WEB_LIMITS.policyRecentRequests} and drops the older ones`, () => {
    const n = WEB_LIMITS.policyRecentRequests + 3;
    const events = Array.from({ length: n }, (_, i) => [
      call(`c${i}`, 'Bash', { command: `echo ${i}` }),
      marked(`c${i}`, { answeredBy: { name: 'ann' } }),
    ]).flat();
    const list = recentRequests(events, new Set(), WEB_LIMITS.policyRecentRequests);
    expect(list).toHaveLength(WEB_LIMITS.policyRecentRequests);
    expect(list[0]?.toolCallId).toBe(`c${n - 1}`);
    expect(list.at(-1)?.toolCallId).toBe('c3');
  });

  it('the check request: a question and a plan by their kind, any other tool by name and input', () => {
    expect(checkRequest('askUserQuestion', {})).toEqual({ kind: 'question' });
    expect(checkRequest('ExitPlanMode', { plan: 'x' })).toEqual({ kind: 'plan' });
    expect(checkRequest('Edit', { file_path: 'a' })).toEqual({ kind: 'permission', tool: 'Edit', input: { file_path: 'a' } });
  });
});
