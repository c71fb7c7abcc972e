import { describe, expect, it } from 'vitest';
import {
  cancelledRequestId,
  fromElicitation,
  fromPermissionRequest,
  fromView,
  mergeInteraction,
  rememberCard,
  restBody,
  rpcResult,
  type PendingInteraction,
} from '../../web/src/hub/interactions.js';
import { WEB_LIMITS } from '../../web/src/limits.js';
import { classifyInteraction } from '../../src/acp/interactions.js';
import { toElicitationForm } from '../../src/acp/interaction-requests.js';
import { contentOf, defaultsOf, fieldsOf, missingRequired } from '../../web/src/hub/form-schema.js';

const permission = {
  sessionId: 's1',
  toolCall: { toolCallId: 'call_1', title: 'Bash: npm test', rawInput: { command: 'npm test' } },
  options: [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
  ],
  _meta: { zcode: { interactionId: 'perm_1', kind: 'permission' } },
};

/** The question form of APP-SERVER.md §14.6: q_<i> choice + q_<i>_other free text + __skip__. */
const questionForm = {
  mode: 'form',
  sessionId: 's1',
  message: 'Please answer 2 questions.',
  requestedSchema: {
    type: 'object',
    properties: {
      q_0: {
        type: 'string',
        title: 'Which database?',
        oneOf: [
          { const: 'Postgres', title: 'Postgres' },
          { const: 'SQLite', title: 'SQLite' },
          { const: '__skip__', title: 'Skip this question' },
        ],
      },
      q_0_other: { type: 'string', title: '↳ or type a custom value' },
      q_1: {
        type: 'array',
        title: 'Which checks?',
        items: {
          anyOf: [
            { const: 'lint', title: 'lint' },
            { const: 'test', title: 'test' },
          ],
        },
      },
      q_1_other: { type: 'string', title: '↳ or type a custom value' },
    },
    required: [],
  },
  _meta: { zcode: { interactionId: 'q_1', kind: 'question' } },
};

describe('interactions', () => {
  it('[APR-07] a permission request becomes a sheet with its options and answers with the chosen optionId', () => {
    const p = fromPermissionRequest(7, permission);
    expect(p).toMatchObject({
      interactionId: 'perm_1',
      sessionId: 's1',
      kind: 'permission',
      title: 'Bash: npm test',
      toolCallId: 'call_1',
    });
    expect(p?.options?.map((o) => o.optionId)).toEqual(['allow_once', 'deny']);
    expect(rpcResult('session/request_permission', { kind: 'option', optionId: 'allow_once' })).toEqual({
      outcome: { outcome: 'selected', optionId: 'allow_once' },
    });
    expect(restBody({ kind: 'option', optionId: 'deny' })).toEqual({ optionId: 'deny' });
  });

  it('[APR-07] a question form: single, multi, free text and skip map to accept content', () => {
    const q = fromElicitation('r9', questionForm);
    expect(q).toMatchObject({ interactionId: 'q_1', kind: 'question' });
    const fields = fieldsOf(questionForm.requestedSchema);
    expect(fields.map((f) => [f.key, f.type, f.type === 'choice' ? f.multi : null])).toEqual([
      ['q_0', 'choice', false],
      ['q_0_other', 'text', null],
      ['q_1', 'choice', true],
      ['q_1_other', 'text', null],
    ]);
    expect(contentOf(fields, { q_0: 'SQLite', q_1: ['lint', 'test'], q_1_other: '  ' })).toEqual({ q_0: 'SQLite', q_1: ['lint', 'test'] });
    expect(contentOf(fields, { q_0: '__skip__', q_0_other: 'MySQL', q_1: [] })).toEqual({ q_0: '__skip__', q_0_other: 'MySQL' });
    expect(rpcResult('elicitation/create', { kind: 'form', content: { q_0: 'SQLite' } })).toEqual({
      action: 'accept',
      content: { q_0: 'SQLite' },
    });
    expect(rpcResult('elicitation/create', { kind: 'decline' })).toEqual({ action: 'decline' });
    expect(missingRequired(fieldsOf({ properties: { a: { type: 'string' } }, required: ['a'] }), {})).toEqual(['a']);
    expect(defaultsOf({ properties: { a: { type: 'boolean', default: true }, b: { type: 'array', default: ['x'] } } })).toEqual({
      a: true,
      b: ['x'],
    });
  });

  it('a plan approval from the hub shows the plan alone: the form text on answering it stays out of the sheet', () => {
    const asked = classifyInteraction('interaction/requestUserInput', {
      requestId: 'plan_1',
      sessionId: 's1',
      toolName: 'ExitPlanMode',
      schema: { interaction: 'plan_approval', toolName: 'ExitPlanMode' },
      questions: [{ header: 'Plan', question: 'Review this plan.', options: [{ value: 'approve', label: 'Approve' }] }],
      input: { plan: '1. Read\n2. Write' },
    });
    if (asked.kind !== 'plan_approval') throw new Error(`expected a plan approval, got ${asked.kind}`);
    const form = toElicitationForm(asked);
    const pending = fromElicitation(7, form);
    expect(pending?.kind).toBe('plan_approval');
    expect(pending?.plan).toBe('1. Read\n2. Write');
    // The message keeps its words for clients that show the form as it is.
    expect(pending?.title).toContain('Leave the box empty');
  });

  it('[APR-07] plan approval: empty feedback approves, text rejects with feedback, reject declines', () => {
    const plan = fromElicitation(3, {
      mode: 'form',
      sessionId: 's1',
      message: '1. do it',
      requestedSchema: { type: 'object', properties: { feedback: { type: 'string', title: 'Feedback' } } },
    });
    expect(plan?.kind).toBe('plan_approval');
    expect(rpcResult('elicitation/create', { kind: 'approve' })).toEqual({ action: 'accept', content: { feedback: '' } });
    expect(rpcResult('elicitation/create', { kind: 'feedback', text: 'use SQLite' })).toEqual({
      action: 'accept',
      content: { feedback: 'use SQLite' },
    });
    expect(restBody({ kind: 'approve' })).toEqual({ approve: true });
    expect(restBody({ kind: 'feedback', text: 'no' })).toEqual({ feedback: 'no' });
    expect(restBody({ kind: 'decline' })).toEqual({ decline: true });
    expect(restBody({ kind: 'questions', answers: { 'Q?': ['a', 'b'] } })).toEqual({ answers: { 'Q?': ['a', 'b'] } });
  });

  it('[APR-05] dismissing a permission copy sends the cancelled outcome, never a deny', () => {
    expect(rpcResult('session/request_permission', { kind: 'decline' })).toEqual({ outcome: { outcome: 'cancelled' } });
  });

  it('inbox views merge with live copies; the live request wins; resolved views are dropped', () => {
    const view = fromView({
      interactionId: 'perm_1',
      sessionId: 's1',
      kind: 'permission',
      title: 'Bash',
      options: [{ optionId: 'allow_once', name: 'Allow', kind: 'allow_once' }],
      createdAt: 5,
      state: 'pending',
    });
    expect(view).toMatchObject({ interactionId: 'perm_1', createdAt: 5 });
    expect(fromView({ interactionId: 'x', sessionId: 's', kind: 'question', title: '', createdAt: 1, state: 'resolved' })).toBeUndefined();
    const live = fromPermissionRequest(7, permission);
    if (!view || !live) throw new Error('parse failed');
    const merged = mergeInteraction(live, view);
    expect(merged.rpc?.id).toBe(7);
    expect(merged.createdAt).toBe(5);
    expect(cancelledRequestId({ requestId: 7 })).toBe(7);
    expect(cancelledRequestId({ id: 'abc' })).toBe('abc');
  });
});

describe('cards of interactions that left the store', () => {
  it(`keeps the newest ${WEB_LIMITS.recentInteractionCards} and forgets the oldest past it`, () => {
    const recent = new Map<string, { sessionId: string; toolCallId: string }>();
    const n = WEB_LIMITS.recentInteractionCards + 2;
    for (let i = 0; i < n; i++)
      rememberCard(
        recent,
        {
          interactionId: `ix${i}`,
          sessionId: 's1',
          kind: 'permission',
          toolCallId: `call_${i}`,
          title: '',
          options: [],
          questions: [],
        } as PendingInteraction,
        WEB_LIMITS.recentInteractionCards,
      );
    expect(recent.size).toBe(WEB_LIMITS.recentInteractionCards);
    expect(recent.has('ix0')).toBe(false);
    expect(recent.has('ix1')).toBe(false);
    expect(recent.get(`ix${n - 1}`)).toEqual({ sessionId: 's1', toolCallId: `call_${n - 1}` });
    // One without a card (a plan approval) is not remembered.
    rememberCard(
      recent,
      { interactionId: 'plan', sessionId: 's1', kind: 'plan_approval', title: '', options: [], questions: [] } as PendingInteraction,
      WEB_LIMITS.recentInteractionCards,
    );
    expect(recent.has('plan')).toBe(false);
  });
});
