import { newId } from '../session-runtime.js';
import { buildSettings } from '../snapshot.js';
import { TurnAborted, type TurnContext } from '../turn/turn-context.js';
import { extractAnswers } from './question.js';

/** The fixed plan-approval question of §6.3. */
export const PLAN_QUESTION = {
  header: 'Plan',
  question: 'Review this implementation plan.',
  options: [{ value: 'approve', label: 'Approve', description: 'Exit plan mode and start implementation.' }],
};

type Verdict = { kind: 'approved' } | { kind: 'feedback'; text: string } | { kind: 'rejected' };

async function askApproval(ctx: TurnContext, plan: string): Promise<Verdict> {
  const input = { plan };
  const toolCallId = await ctx.scheduleTool('ExitPlanMode', input);
  const startedAt = ctx.startTool(toolCallId, 'ExitPlanMode');
  let verdict: Verdict;
  try {
    const r = await ctx.sim.interactions.userInput(
      ctx.rt,
      {
        requestId: newId('plan'),
        sessionId: ctx.rt.sessionId,
        turnId: ctx.turnId,
        toolCallId,
        toolName: 'ExitPlanMode',
        prompt: 'Approve this plan to start implementation',
        questions: [PLAN_QUESTION],
        input,
        schema: { interaction: 'plan_approval', toolName: 'ExitPlanMode' },
      },
      ctx.signal,
    );
    // §6.3: "approve" approves; other non-empty text is feedback; nothing / decline / cancel rejects.
    const answer = r.action === 'accept' ? extractAnswers(r, [PLAN_QUESTION])[0] : undefined;
    verdict =
      answer === 'approve' ? { kind: 'approved' } : answer !== undefined ? { kind: 'feedback', text: answer } : { kind: 'rejected' };
  } catch {
    if (ctx.signal.aborted) throw new TurnAborted();
    verdict = { kind: 'rejected' };
  }
  const content =
    verdict.kind === 'approved'
      ? 'User approved the plan.'
      : verdict.kind === 'feedback'
        ? `User rejected the plan with feedback: ${verdict.text}`
        : 'User rejected the plan.';
  ctx.finishTool(toolCallId, 'ExitPlanMode', input, startedAt, { success: verdict.kind === 'approved', content });
  return verdict;
}

function exitPlanMode(ctx: TurnContext, toolCallId?: string): void {
  const previousMode = ctx.rt.info.mode;
  if (previousMode !== 'plan') return;
  ctx.rt.info.mode = 'build';
  ctx.emit('session.updated', { mode: 'build', previousMode, source: 'tool', ...(toolCallId ? { toolCallId } : {}) });
  ctx.rt.stateUpdated('mode_changed', buildSettings(ctx.rt, ctx.sim.registry, 'current'));
}

/** `plan`: a todo plan, ExitPlanMode approval (§6.3), re-plan once on feedback, then implement. */
export async function planScenario(ctx: TurnContext): Promise<void> {
  await ctx.reasoning('This needs a plan before touching code. I will outline the steps and ask for approval.');
  const steps = ['Read the current implementation', 'Write the change', 'Run the tests'];
  ctx.setTodos(steps.map((content, i) => ({ content, status: 'pending', priority: i === 1 ? 'high' : 'medium' })));
  let plan = `## Plan\n\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n`;
  await ctx.say(plan);
  let verdict = await askApproval(ctx, plan);
  if (verdict.kind === 'feedback') {
    // The feedback is fed back to the agent as a steer (source plan_approval_feedback), then one re-plan.
    ctx.queueSteer(verdict.text, 'plan_approval_feedback');
    const drained = ctx.drainSteers();
    steps.splice(2, 0, `Address feedback: ${drained[0]?.text ?? verdict.text}`);
    ctx.setTodos(steps.map((content) => ({ content, status: 'pending', priority: 'medium' })));
    plan = `## Revised plan\n\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n`;
    await ctx.say(`\nUnderstood. ${plan}`);
    verdict = await askApproval(ctx, plan);
  }
  if (verdict.kind !== 'approved') {
    await ctx.say('\nThe plan was not approved, so I made no changes. Tell me what to adjust.');
    return;
  }
  exitPlanMode(ctx);
  for (let i = 0; i < steps.length; i++) {
    ctx.setTodos(
      steps.map((content, j) => ({ content, status: j < i ? 'completed' : j === i ? 'in_progress' : 'pending', priority: 'medium' })),
    );
    await ctx.sleep(150);
  }
  ctx.setTodos(steps.map((content) => ({ content, status: 'completed', priority: 'medium' })));
  await ctx.say('\nPlan approved and implemented: every step is done.');
}
