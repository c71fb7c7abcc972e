import { describe, expect, it } from 'vitest';
import { HubError } from '../../src/errors.js';
import {
  classifyInteraction,
  elicitationAnswerToZcode,
  permissionAnswerToZcode,
  perQuestionAnswersToZcode,
  restAnswerToZcode,
  shapeForClient,
  toAcpPermissionRequest,
  toElicitationForm,
  toPerQuestionPermissionRequests,
  toPlanApprovalPermissionRequest,
  type PermissionInteraction,
  type PlanApprovalInteraction,
  type QuestionInteraction,
} from '../../src/acp/interactions.js';

const DENY_REASON =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

// APP-SERVER.md §6.2, with the three options S offers on the legacy wire.
const permissionParams = {
  requestId: 'perm_1',
  sessionId: 'sess_9f2c',
  turnId: 'turn_1',
  toolCallId: 'call_1',
  toolName: 'Bash',
  reason: 'Run command',
  riskLevel: 'medium',
  input: { command: 'npm test' },
  options: [
    { optionId: 'allow_once', kind: 'allow_once', name: 'Allow once', response: { decision: 'allow', reason: 'Approved once' } },
    {
      optionId: 'allow_project',
      kind: 'allow_always',
      name: 'Always allow in this project',
      response: {
        decision: 'allow',
        permissionUpdates: [{ type: 'addRules', behavior: 'allow', rules: [{ toolName: 'Bash', ruleContent: 'npm test' }] }],
        reason: 'Approved for this project',
      },
    },
    { optionId: 'deny', kind: 'deny', name: 'Deny', response: { decision: 'deny', reason: DENY_REASON } },
  ],
};

// §6.3 AskUserQuestion: each option's value equals its label.
const askParams = {
  requestId: 'ask_1',
  sessionId: 'sess_9f2c',
  turnId: 'turn_1',
  toolCallId: 'call_ask',
  toolName: 'AskUserQuestion',
  prompt: 'A few choices before I start',
  schema: { toolName: 'AskUserQuestion' },
  questions: [
    {
      question: 'Which files should I test?',
      header: 'Files',
      multiSelect: true,
      options: [
        { value: 'auth.test.ts', label: 'auth.test.ts' },
        { value: 'user.test.ts', label: 'user.test.ts' },
      ],
    },
    {
      question: 'Which runner?',
      header: 'Runner',
      options: [
        { value: 'vitest', label: 'vitest' },
        { value: 'jest', label: 'jest' },
      ],
    },
  ],
  input: { questions: [] },
};

// §6.3 ExitPlanMode.
const planParams = {
  requestId: 'plan_1',
  sessionId: 'sess_9f2c',
  toolCallId: 'call_plan',
  toolName: 'ExitPlanMode',
  prompt: 'Plan ready',
  schema: { interaction: 'plan_approval', toolName: 'ExitPlanMode' },
  questions: [
    {
      header: 'Plan',
      question: 'Review this implementation plan.',
      options: [{ value: 'approve', label: 'Approve', description: 'Exit plan mode and start implementation.' }],
    },
  ],
  input: { plan: '1. Implement login\n2. Implement signup' },
};

const perm = classifyInteraction('interaction/requestPermission', permissionParams) as PermissionInteraction;
const ask = classifyInteraction('interaction/requestUserInput', askParams) as QuestionInteraction;
const plan = classifyInteraction('interaction/requestUserInput', planParams) as PlanApprovalInteraction;

describe('classifyInteraction (§6.2/§6.3)', () => {
  it('normalises the three producers', () => {
    expect(perm).toMatchObject({
      kind: 'permission',
      requestId: 'perm_1',
      sessionId: 'sess_9f2c',
      toolCallId: 'call_1',
      toolName: 'Bash',
      title: '`npm test`',
      riskLevel: 'medium',
    });
    expect(ask).toMatchObject({ kind: 'question', requestId: 'ask_1', toolCallId: 'call_ask', title: 'A few choices before I start' });
    expect(ask.questions).toHaveLength(2);
    expect(plan).toMatchObject({
      kind: 'plan_approval',
      requestId: 'plan_1',
      question: 'Review this implementation plan.',
      plan: '1. Implement login\n2. Implement signup',
    });
  });

  it('an MCP elicitation with a requested schema is kind elicitation', () => {
    const r = classifyInteraction('interaction/requestUserInput', {
      requestId: 'mcp_1',
      sessionId: 's',
      toolName: 'mcp_elicitation',
      prompt: 'GitHub needs a repo',
      schema: {
        interaction: 'mcp_elicitation',
        serverName: 'github',
        requestedSchema: { type: 'object', properties: { repo: { type: 'string' } } },
      },
      questions: [{ question: 'repo', header: 'github', options: [{ value: 'a', label: 'a' }] }],
    });
    expect(r).toMatchObject({ kind: 'elicitation', requestedSchema: { type: 'object' } });
  });

  it('rejects invalid params with a typed error', () => {
    expect(() => classifyInteraction('interaction/requestPermission', { ...permissionParams, options: [] })).toThrow(HubError);
    expect(() => classifyInteraction('interaction/requestPermission', { sessionId: 's' })).toThrow(HubError);
    expect(() =>
      classifyInteraction('interaction/requestUserInput', { requestId: 'r', sessionId: 's', toolName: 'AskUserQuestion' }),
    ).toThrow(HubError);
    expect(() => classifyInteraction('interaction/browserList', {})).toThrow(expect.objectContaining({ code: 'HUB_ERR_METHOD_NOT_FOUND' }));
  });

  it('tolerates extra keys (child output, §5.6)', () => {
    expect(classifyInteraction('interaction/requestPermission', { ...permissionParams, fullAccessSupported: true }).kind).toBe(
      'permission',
    );
  });
});

describe('ACP request shapes (ARCHITECTURE.md §4.5, APP-SERVER.md §14.6)', () => {
  it('permission → session/request_permission with ZCode optionIds and mapped kinds', () => {
    const req = toAcpPermissionRequest(perm);
    expect(req.options).toEqual([
      { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow_project', name: 'Always allow in this project', kind: 'allow_always' },
      { optionId: 'deny', name: 'Deny', kind: 'reject_once' },
    ]);
    expect(req.toolCall).toMatchObject({
      toolCallId: 'call_1',
      title: '`npm test`',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: 'npm test' },
    });
    expect(req._meta).toMatchObject({ zcode: { interactionId: 'perm_1', kind: 'permission', riskLevel: 'medium' } });
  });

  it('a command permission says where it runs: its own cwd, else the session’s, in toolCall._meta.zcode.cwd', () => {
    expect(toAcpPermissionRequest({ ...perm, cwd: '/work/app' }).toolCall._meta).toEqual({ zcode: { cwd: '/work/app' } });
    const own = { ...perm, input: { command: 'make', cwd: '/work/app/sub' }, cwd: '/work/app' };
    expect(toAcpPermissionRequest(own).toolCall._meta).toEqual({ zcode: { cwd: '/work/app/sub' } });
    // rawInput stays the agent's input verbatim.
    expect(toAcpPermissionRequest({ ...perm, cwd: '/work/app' }).toolCall.rawInput).toEqual({ command: 'npm test' });
    // Not a command: no cwd; an edit carries its diff and location instead.
    const edit = classifyInteraction('interaction/requestPermission', {
      ...permissionParams,
      toolName: 'Edit',
      input: { file_path: '/work/app/README.md', old_string: 'a', new_string: 'b' },
    }) as PermissionInteraction;
    const req = toAcpPermissionRequest({ ...edit, cwd: '/work/app' });
    expect(req.toolCall._meta).toBeUndefined();
    expect(req.toolCall.content).toEqual([{ type: 'diff', path: '/work/app/README.md', oldText: 'a', newText: 'b' }]);
    expect(req.toolCall.locations).toEqual([{ path: '/work/app/README.md' }]);
  });

  it('question → form with q_i enum + q_i_other text, skip sentinel, multi-select as array', () => {
    const form = toElicitationForm(ask);
    expect(form).toMatchObject({ mode: 'form', sessionId: 'sess_9f2c', toolCallId: 'call_ask', message: 'A few choices before I start' });
    const props = (form as { requestedSchema: { properties: Record<string, Record<string, unknown>>; required: string[] } })
      .requestedSchema;
    expect(Object.keys(props.properties)).toEqual(['q_0', 'q_0_other', 'q_1', 'q_1_other']);
    expect(props.properties['q_0']).toMatchObject({
      type: 'array',
      title: 'Which files should I test?',
      items: {
        anyOf: [
          { const: 'auth.test.ts', title: 'auth.test.ts' },
          { const: 'user.test.ts', title: 'user.test.ts' },
        ],
      },
    });
    expect(props.properties['q_1']).toMatchObject({
      type: 'string',
      oneOf: [{ const: 'vitest' }, { const: 'jest' }, { const: '__skip__', title: 'Skip this question' }],
    });
    expect(props.properties['q_1_other']).toMatchObject({ type: 'string' });
    expect(props.required).toEqual([]);
  });

  it('question without forms → one permission request per question (answers + skip)', () => {
    const reqs = toPerQuestionPermissionRequests(ask);
    expect(reqs).toHaveLength(2);
    expect(reqs[1]).toMatchObject({
      toolCall: { toolCallId: 'call_ask:q1', title: 'Which runner?' },
      options: [
        { optionId: 'option_0', name: 'vitest', kind: 'allow_once' },
        { optionId: 'option_1', name: 'jest', kind: 'allow_once' },
        { optionId: '__skip__', name: 'Skip this question', kind: 'reject_once' },
      ],
    });
  });

  it('plan approval → feedback form, or approve/reject options', () => {
    const form = toElicitationForm(plan) as { message: string; requestedSchema: { properties: Record<string, unknown> } };
    expect(form.message).toContain('1. Implement login');
    expect(Object.keys(form.requestedSchema.properties)).toEqual(['feedback']);
    // The plan alone rides in _meta.zcode.plan, without the form's how-to-answer text.
    expect((form as { _meta?: { zcode?: Record<string, unknown> } })._meta?.zcode).toMatchObject({
      kind: 'plan_approval',
      plan: '1. Implement login\n2. Implement signup',
    });
    expect(toPlanApprovalPermissionRequest(plan).options.map((o) => [o.optionId, o.kind])).toEqual([
      ['approve', 'allow_once'],
      ['reject', 'reject_once'],
    ]);
  });

  it('routing is per client capability', () => {
    expect(shapeForClient(perm, true).method).toBe('session/request_permission');
    expect(shapeForClient(ask, true).method).toBe('elicitation/create');
    expect(shapeForClient(ask, false)).toMatchObject({ method: 'session/request_permission', params: [{}, {}] });
    expect(shapeForClient(plan, true).method).toBe('elicitation/create');
    expect(shapeForClient(plan, false).method).toBe('session/request_permission');
  });
});

describe('[APR-07] answers → the exact ZCode result shapes of §6.2/§6.3', () => {
  it('permission: the chosen option response verbatim', () => {
    expect(permissionAnswerToZcode(perm, { outcome: { outcome: 'selected', optionId: 'allow_once' } })).toEqual({
      type: 'answer',
      result: { decision: 'allow', reason: 'Approved once' },
      outcome: 'allow_once',
    });
    expect(permissionAnswerToZcode(perm, { outcome: { outcome: 'selected', optionId: 'allow_project' } })).toMatchObject({
      result: permissionParams.options[1]!.response,
    });
    expect(permissionAnswerToZcode(perm, { outcome: { outcome: 'selected', optionId: 'deny' } })).toMatchObject({
      result: { decision: 'deny', reason: DENY_REASON },
    });
  });

  it('dismiss is not deny: a cancelled outcome or a cancel action only withdraws that client', () => {
    expect(permissionAnswerToZcode(perm, { outcome: { outcome: 'cancelled' } })).toEqual({ type: 'dismissed' });
    // A form's cancel is marked: the last one of all the clients answers the agent `cancel`.
    expect(elicitationAnswerToZcode(ask, { action: 'cancel' })).toEqual({ type: 'dismissed', form: true });
    expect(elicitationAnswerToZcode(plan, { action: 'cancel' })).toEqual({ type: 'dismissed', form: true });
    expect(
      perQuestionAnswersToZcode(ask, [{ outcome: { outcome: 'selected', optionId: 'option_0' } }, { outcome: { outcome: 'cancelled' } }]),
    ).toEqual({ type: 'dismissed' });
  });

  it('AskUserQuestion via form: answers keyed by question text, multi-select as arrays, other text overrides/appends, skip', () => {
    const r = elicitationAnswerToZcode(ask, { action: 'accept', content: { q_0: ['auth.test.ts', 'user.test.ts'], q_1: 'vitest' } });
    expect(r).toEqual({
      type: 'answer',
      outcome: 'answered',
      result: {
        action: 'accept',
        content: { answers: { 'Which files should I test?': ['auth.test.ts', 'user.test.ts'], 'Which runner?': 'vitest' } },
      },
    });
    const other = elicitationAnswerToZcode(ask, {
      action: 'accept',
      content: { q_0: ['auth.test.ts'], q_0_other: 'e2e.test.ts', q_1: 'jest', q_1_other: ' node:test ' },
    });
    expect(other).toMatchObject({
      result: { content: { answers: { 'Which files should I test?': ['auth.test.ts', 'e2e.test.ts'], 'Which runner?': 'node:test' } } },
    });
    const skipped = elicitationAnswerToZcode(ask, { action: 'accept', content: { q_0: [], q_1: '__skip__', q_1_other: '   ' } });
    expect(skipped).toEqual({ type: 'answer', outcome: 'answered', result: { action: 'accept', content: { answers: {} } } });
    expect(elicitationAnswerToZcode(ask, { action: 'decline' })).toEqual({
      type: 'answer',
      outcome: 'declined',
      result: { action: 'decline' },
    });
  });

  it('AskUserQuestion via per-question permissions', () => {
    const r = perQuestionAnswersToZcode(ask, [
      { outcome: { outcome: 'selected', optionId: 'option_1' } },
      { outcome: { outcome: 'selected', optionId: '__skip__' } },
    ]);
    expect(r).toEqual({
      type: 'answer',
      outcome: 'answered',
      result: { action: 'accept', content: { answers: { 'Which files should I test?': ['user.test.ts'] } } },
    });
  });

  it('plan approval: empty feedback approves, text rejects with feedback, decline rejects', () => {
    const approve = {
      type: 'answer',
      outcome: 'approved',
      result: { action: 'accept', content: { answers: { 'Review this implementation plan.': 'approve' } } },
    };
    expect(elicitationAnswerToZcode(plan, { action: 'accept', content: { feedback: '' } })).toEqual(approve);
    expect(elicitationAnswerToZcode(plan, { action: 'accept', content: {} })).toEqual(approve);
    expect(elicitationAnswerToZcode(plan, { action: 'accept' })).toEqual(approve);
    expect(elicitationAnswerToZcode(plan, { action: 'accept', content: { feedback: 'Add a signup rate limit first.' } })).toEqual({
      type: 'answer',
      outcome: 'rejected_with_feedback',
      result: { action: 'accept', content: { answers: { 'Review this implementation plan.': 'Add a signup rate limit first.' } } },
    });
    expect(elicitationAnswerToZcode(plan, { action: 'decline' })).toEqual({
      type: 'answer',
      outcome: 'rejected',
      result: { action: 'decline' },
    });
    expect(permissionAnswerToZcode(plan, { outcome: { outcome: 'selected', optionId: 'approve' } })).toEqual(approve);
    expect(permissionAnswerToZcode(plan, { outcome: { outcome: 'selected', optionId: 'reject' } })).toMatchObject({
      outcome: 'rejected',
      result: { action: 'decline' },
    });
  });

  it('MCP elicitation with a forwarded schema: the form goes out as is, the field-keyed answer comes back keyed the way the server reads it (§6.3)', () => {
    const mcp = classifyInteraction('interaction/requestUserInput', {
      requestId: 'mcp_1',
      sessionId: 's',
      toolName: 'mcp_elicitation',
      schema: { requestedSchema: { type: 'object', properties: { repo: { type: 'string' } } } },
    });
    if (mcp.kind !== 'elicitation') throw new Error('kind');
    expect(toElicitationForm(mcp)).toMatchObject({ requestedSchema: { properties: { repo: { type: 'string' } } } });
    // No derived questions: by position only.
    expect(elicitationAnswerToZcode(mcp, { action: 'accept', content: { repo: 'zcode-hub' } })).toMatchObject({
      result: { action: 'accept', content: { answers: {}, answer_0: 'zcode-hub' } },
    });
    const withQuestions = classifyInteraction('interaction/requestUserInput', {
      requestId: 'mcp_2',
      sessionId: 's',
      toolName: 'mcp_elicitation',
      questions: [
        { question: 'Which branch?', header: 'branch', options: [{ value: 'main', label: 'main' }] },
        { question: 'Which repository?', header: 'repo', options: [{ value: 'a', label: 'a' }] },
      ],
      schema: {
        requestedSchema: {
          type: 'object',
          properties: { repo: { type: 'string' }, branch: { type: 'string' }, force: { type: 'boolean' } },
        },
      },
    });
    if (withQuestions.kind !== 'elicitation') throw new Error('kind');
    // Matched by header first, then by position; values as strings.
    expect(elicitationAnswerToZcode(withQuestions, { action: 'accept', content: { repo: 'hub', branch: 'dev', force: true } })).toEqual({
      type: 'answer',
      outcome: 'answered',
      result: {
        action: 'accept',
        content: { answers: { 'Which repository?': 'hub', 'Which branch?': 'dev' }, answer_1: 'hub', answer_0: 'dev', answer_2: 'true' },
      },
    });
  });
});

describe('[APR-02] answers naming something not offered are typed rejections', () => {
  it('unknown option ids and malformed replies are invalid', () => {
    expect(permissionAnswerToZcode(perm, { outcome: { outcome: 'selected', optionId: 'allow_forever' } })).toEqual({
      type: 'invalid',
      reason: 'Option not offered: allow_forever',
    });
    expect(permissionAnswerToZcode(perm, { nope: 1 })).toMatchObject({ type: 'invalid' });
    expect(permissionAnswerToZcode(plan, { outcome: { outcome: 'selected', optionId: 'allow_once' } })).toMatchObject({ type: 'invalid' });
    expect(elicitationAnswerToZcode(ask, { action: 'accept', content: { q_1: 'mocha' } })).toMatchObject({ type: 'invalid' });
    expect(elicitationAnswerToZcode(ask, { action: 'accept', content: { q_0: ['nope.ts'] } })).toMatchObject({ type: 'invalid' });
    expect(elicitationAnswerToZcode(ask, { action: 'maybe' })).toMatchObject({ type: 'invalid' });
    expect(
      perQuestionAnswersToZcode(ask, [
        { outcome: { outcome: 'selected', optionId: 'option_9' } },
        { outcome: { outcome: 'selected', optionId: '__skip__' } },
      ]),
    ).toMatchObject({ type: 'invalid' });
    expect(perQuestionAnswersToZcode(ask, [])).toMatchObject({ type: 'invalid' });
  });
});

describe('REST answer bodies', () => {
  it('permission {optionId}', () => {
    expect(restAnswerToZcode(perm, { optionId: 'deny' })).toMatchObject({ type: 'answer', result: { decision: 'deny' } });
    expect(restAnswerToZcode(perm, { optionId: 'nope' })).toMatchObject({ type: 'invalid' });
    expect(restAnswerToZcode(perm, { approve: true })).toMatchObject({ type: 'invalid' });
  });

  it('question {answers} keyed by question text; blanks dropped; unknown questions invalid; {decline}', () => {
    expect(restAnswerToZcode(ask, { answers: { 'Which files should I test?': ['auth.test.ts', ''], 'Which runner?': '  ' } })).toEqual({
      type: 'answer',
      outcome: 'answered',
      result: { action: 'accept', content: { answers: { 'Which files should I test?': ['auth.test.ts'] } } },
    });
    expect(restAnswerToZcode(ask, { answers: { 'Which runner?': 'bun test' } })).toMatchObject({
      result: { content: { answers: { 'Which runner?': 'bun test' } } },
    });
    expect(restAnswerToZcode(ask, { answers: { 'Unasked?': 'x' } })).toMatchObject({ type: 'invalid' });
    expect(restAnswerToZcode(ask, { decline: true })).toEqual({ type: 'answer', outcome: 'declined', result: { action: 'decline' } });
  });

  it('plan {approve} | {feedback} | {decline}', () => {
    expect(restAnswerToZcode(plan, { approve: true })).toMatchObject({ outcome: 'approved' });
    expect(restAnswerToZcode(plan, { feedback: 'Smaller steps' })).toMatchObject({
      outcome: 'rejected_with_feedback',
      result: { content: { answers: { 'Review this implementation plan.': 'Smaller steps' } } },
    });
    expect(restAnswerToZcode(plan, { decline: true })).toMatchObject({ outcome: 'rejected' });
    expect(restAnswerToZcode(plan, { optionId: 'approve' })).toMatchObject({ type: 'invalid' });
  });

  it('malformed bodies are invalid', () => {
    for (const body of [null, 'approve', {}, { optionId: '' }, { approve: false }, { optionId: 'deny', extra: 1 }]) {
      expect(restAnswerToZcode(perm, body)).toMatchObject({ type: 'invalid' });
    }
  });
});
