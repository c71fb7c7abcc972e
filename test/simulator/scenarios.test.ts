import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReverse, SimClient, type Message } from './sim-client.js';

let sim: SimClient;
beforeAll(async () => {
  sim = await SimClient.start({ args: ['--turn-delay-scale', '0.2'] });
});
afterAll(async () => sim.close());

/** Answers interaction requests with `answer(m)`; everything else as usual. */
function answering(answer: (m: Message) => unknown): void {
  sim.onReverse = (m) => (m.method.startsWith('interaction/') ? { result: answer(m) } : defaultReverse(m));
}
const types = (sessionId: string): string[] =>
  sim
    .events(sessionId)
    .map((e) => (e.type === 'tool.updated' ? `tool.${e.payload.kind}` : e.type === 'model.streaming' ? `ms.${e.payload.kind}` : e.type));

describe('default scenario keywords, end to end', () => {
  it('no keyword: reasoning, one Read tool call, Markdown answer, title, usage', async () => {
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'Explain this repo');
    const t = types(sessionId);
    expect(t.indexOf('turn.started')).toBeLessThan(t.indexOf('ms.reasoning_delta'));
    expect(t.indexOf('ms.reasoning_delta')).toBeLessThan(t.indexOf('ms.tool_call'));
    for (const k of [
      'tool.scheduled',
      'tool.started',
      'tool.result',
      'tool.batch',
      'ms.text_delta',
      'session.titleUpdated',
      'message.upserted',
      'turn.completed',
    ])
      expect(t).toContain(k);
    const scheduled = sim.events(sessionId, 'tool.updated').find((e) => e.payload.kind === 'scheduled')!;
    expect(scheduled.payload).toMatchObject({ toolName: 'Read', inputOmitted: true, inputRef: 'model_stream' });
    const done = sim.events(sessionId, 'turn.completed')[0]!.payload;
    expect(done).toMatchObject({ resultType: 'success', toolCallCount: 1 });
    expect(done.response).toMatch(/^## Answer/);
    expect(done.response).toContain('```ts');
    expect(done.usage).toMatchObject({ source: 'provider' });
    expect(sim.events(sessionId, 'session.updated').some((e) => e.payload.stopReason === 'end_turn' && e.payload.usage)).toBe(true);
    expect(sim.events(sessionId, 'session.titleUpdated')[0]!.payload).toMatchObject({
      previousTitle: '',
      source: 'first_input',
      title: 'Explain this repo',
    });
    const msgs = await sim.call('session/messages', { sessionId });
    expect(msgs.messages.map((m: any) => m.info.role)).toEqual(['user', 'assistant']);
  });

  it('permission allow: progress with stdoutTail, then result', async () => {
    answering((m) => m.params.options[0].response);
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'run with permission');
    const t = types(sessionId);
    expect(t.indexOf('tool.scheduled')).toBeLessThan(t.indexOf('permission.requested'));
    expect(t.indexOf('permission.resolved')).toBeLessThan(t.indexOf('tool.started'));
    const progress = sim.events(sessionId, 'tool.updated').filter((e) => e.payload.kind === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.payload.stdoutTail).toContain('passed');
    expect(sim.events(sessionId, 'turn.completed')[0]!.payload.response).toContain('8 tests passed');
  });

  it('permission deny → tool error; yolo never asks', async () => {
    answering((m) => m.params.options[2].response);
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'permission');
    expect(sim.events(sessionId, 'tool.updated').some((e) => e.payload.kind === 'error' && e.payload.toolName === 'Bash')).toBe(true);
    const yolo = await sim.openSession({ mode: 'yolo' });
    const from = sim.messages.length;
    await sim.prompt(yolo, 'permission');
    expect(sim.messages.slice(from).some((m) => m.method === 'interaction/requestPermission')).toBe(false);
    expect(sim.events(yolo, 'tool.updated').some((e) => e.payload.kind === 'result' && e.payload.toolName === 'Bash')).toBe(true);
  });

  it('question: one single-select and one multi-select; the answers are echoed', async () => {
    let asked: Message | undefined;
    answering((m) => {
      asked = m;
      return {
        action: 'accept',
        content: {
          answers: { 'Which package manager should I use?': 'pnpm', 'Which checks should run before commit?': ['lint', 'tests'] },
        },
      };
    });
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'I have a question');
    expect(asked!.params).toMatchObject({ toolName: 'AskUserQuestion', schema: { toolName: 'AskUserQuestion' } });
    const qs = asked!.params.questions;
    expect(qs).toHaveLength(2);
    expect(qs[1].multiSelect).toBe(true);
    for (const q of qs) {
      expect(q.header.length).toBeGreaterThan(0);
      for (const o of q.options) expect(o.value).toBe(o.label);
    }
    const response = sim.events(sessionId, 'turn.completed')[0]!.payload.response;
    expect(response).toContain('Tooling: pnpm');
    expect(response).toContain('Checks: lint, tests');
  });

  it('plan approve: exact §6.3 request, plan mode exits, todos completed', async () => {
    let req: Message | undefined;
    answering((m) => {
      req = m;
      return { action: 'accept', content: { answer: 'approve' } };
    });
    const sessionId = await sim.openSession({ mode: 'plan' });
    await sim.prompt(sessionId, 'make a plan');
    expect(req!.params).toMatchObject({
      toolName: 'ExitPlanMode',
      schema: { interaction: 'plan_approval', toolName: 'ExitPlanMode' },
      questions: [
        {
          header: 'Plan',
          question: 'Review this implementation plan.',
          options: [{ value: 'approve', label: 'Approve', description: 'Exit plan mode and start implementation.' }],
        },
      ],
    });
    expect(req!.params.input.plan).toContain('## Plan');
    const snap = await sim.call('session/read', { sessionId });
    expect(snap.session.mode).toBe('build');
    expect(snap.todos.every((t: any) => t.status === 'completed')).toBe(true);
    expect(sim.events(sessionId, 'turn.completed')[0]!.payload.response).toContain('approved');
  });

  it('plan feedback → steerQueued/steerDrained (plan_approval_feedback), re-plan once; decline → not approved', async () => {
    let n = 0;
    answering(() =>
      ++n === 1
        ? { action: 'accept', content: { answers: { 'Review this implementation plan.': 'add docs too' } } }
        : { action: 'decline' },
    );
    const sessionId = await sim.openSession({ mode: 'plan' });
    await sim.prompt(sessionId, 'plan it');
    expect(n).toBe(2);
    expect(sim.events(sessionId, 'turn.steerQueued')[0]!.payload).toMatchObject({
      source: 'plan_approval_feedback',
      input: 'add docs too',
    });
    expect(sim.events(sessionId, 'turn.steerDrained')).toHaveLength(1);
    const response = sim.events(sessionId, 'turn.completed')[0]!.payload.response;
    expect(response).toContain('Address feedback: add docs too');
    expect(response).toContain('not approved');
  });

  it('background: result mentions the id, task events running → completed, follow-up turn model-only', async () => {
    answering((m) => m.params.options[0].response);
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'start a background build');
    const result = sim.events(sessionId, 'tool.updated').find((e) => e.payload.kind === 'result')!;
    const taskId = /ID: (exec_\w+)/.exec(result.payload.result.content)![1]!;
    const follow = await sim.waitFor(
      (m) =>
        m.method === 'session/event' &&
        m.params.sessionId === sessionId &&
        m.params.type === 'turn.started' &&
        m.params.payload.inputSource === 'background_task',
      20_000,
      'follow-up',
    );
    expect(follow.params.payload).toMatchObject({ inputVisibility: 'model-only' });
    expect(follow.params.payload.input).toContain('<task-notification>');
    const statuses = sim
      .events(sessionId, 'session.updated')
      .filter((e) => e.payload.taskId === taskId)
      .map((e) => e.payload.status);
    expect(statuses[0]).toBe('running');
    expect(statuses.at(-1)).toBe('completed');
    expect(
      sim.events(sessionId, 'session.updated').find((e) => e.payload.taskId === taskId && e.payload.status === 'completed')!.payload
        .outputTail,
    ).toContain('Build finished');
    await sim.waitFor(
      (m) =>
        m.method === 'session/event' &&
        m.params.sessionId === sessionId &&
        m.params.type === 'turn.completed' &&
        m.params.turnId === follow.params.turnId,
      20_000,
      'follow-up done',
    );
  });

  it('fail: turn.failed with an ErrorDetail, then prompt_failed', async () => {
    const sessionId = await sim.openSession();
    const end = await sim.prompt(sessionId, 'please fail');
    expect(end.params.reason).toBe('prompt_failed');
    const failed = sim.events(sessionId, 'turn.failed')[0]!.payload;
    expect(failed.error).toMatchObject({ type: 'provider_error', code: 'sim_upstream_500' });
    expect(typeof failed.turnPhase).toBe('string');
    expect(sim.events(sessionId, 'turn.completed')).toHaveLength(0);
  });

  it('todo: TodoWrite calls build the snapshot todo list', async () => {
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'todo list please');
    const snap = await sim.call('session/read', { sessionId });
    expect(snap.todos).toHaveLength(3);
    expect(snap.todoGroups[0].todos).toHaveLength(3);
    expect(sim.events(sessionId, 'session.updated').filter((e) => Array.isArray(e.payload.todos)).length).toBeGreaterThanOrEqual(3);
  });

  it('slow: many small deltas, coalesced (merged deltas longer than one chunk)', async () => {
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'slow answer');
    const deltas = sim.events(sessionId, 'model.streaming').filter((e) => e.payload.kind === 'text_delta');
    expect(deltas.length).toBeGreaterThan(5);
    const text = deltas.map((d) => d.payload.delta).join('');
    expect(text).toContain('Step 100 of a long answer.');
    expect(sim.events(sessionId, 'turn.completed')[0]!.payload.response).toBe(text);
  });
});
