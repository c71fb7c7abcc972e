import { newId } from '../session-runtime.js';
import { TurnAborted, type TurnContext } from '../turn/turn-context.js';
import type { UserInputResult } from '../schemas/session-params.js';

/** AskUserQuestion auto-resolution deadline and its hidden grace (§6.3), scaled by `--reannounce-scale`. */
export const AUTO_RESOLVE_MS = 300_000;
export const HIDDEN_GRACE_MS = 60_000;

const QUESTIONS = [
  {
    question: 'Which package manager should I use?',
    header: 'Tooling',
    options: [
      { value: 'npm', label: 'npm' },
      { value: 'pnpm', label: 'pnpm' },
      { value: 'yarn', label: 'yarn' },
    ],
    multiSelect: false,
  },
  {
    question: 'Which checks should run before commit?',
    header: 'Checks',
    options: [
      { value: 'lint', label: 'lint', description: 'ESLint' },
      { value: 'typecheck', label: 'typecheck' },
      { value: 'tests', label: 'tests' },
    ],
    multiSelect: true,
  },
];

/** Extracts answers per §6.3: `answers[question]`, then `answer_<i>`, then `answer` for one question. */
export function extractAnswers(result: UserInputResult, questions: readonly { question: string }[]): (string | undefined)[] {
  const c = result.content ?? {};
  const answers = (c['answers'] && typeof c['answers'] === 'object' ? c['answers'] : {}) as Record<string, unknown>;
  return questions.map((q, i) => {
    const raw = answers[q.question] ?? c[`answer_${i}`] ?? (questions.length === 1 ? c['answer'] : undefined);
    const text = Array.isArray(raw)
      ? raw.filter((s) => typeof s === 'string' && s.trim() !== '').join(', ')
      : typeof raw === 'string'
        ? raw
        : '';
    return text.trim() === '' ? undefined : text;
  });
}

/** `question`: AskUserQuestion with one single-select and one multi-select question; echoes the answers. */
export async function questionScenario(ctx: TurnContext): Promise<void> {
  await ctx.reasoning('There are choices only the user can make; I will ask.');
  const input = { questions: QUESTIONS };
  const toolCallId = await ctx.scheduleTool('AskUserQuestion', input);
  const startedAt = ctx.startTool(toolCallId, 'AskUserQuestion');
  const requestId = newId('ask');
  const scale = ctx.sim.options.reannounceScale;
  const auto = ctx.rt.prefs.askUserQuestionAutoResolutionEnabled !== false;
  const timers: NodeJS.Timeout[] = [];
  if (auto) {
    const now = Date.now();
    const autoResolution = {
      state: 'hiddenGrace',
      startedAt: now,
      visibleAt: now + HIDDEN_GRACE_MS * scale,
      deadlineAt: now + AUTO_RESOLVE_MS * scale,
    };
    ctx.emit('session.updated', { interactionId: requestId, toolCallId, autoResolution });
    timers.push(
      setTimeout(
        () =>
          ctx.emit('session.updated', {
            interactionId: requestId,
            toolCallId,
            autoResolution: { ...autoResolution, state: 'visibleCountdown' },
          }),
        HIDDEN_GRACE_MS * scale,
      ),
    );
  }
  let result: UserInputResult;
  try {
    result = await ctx.sim.interactions.userInput(
      ctx.rt,
      {
        requestId,
        sessionId: ctx.rt.sessionId,
        turnId: ctx.turnId,
        toolCallId,
        toolName: 'AskUserQuestion',
        prompt: 'A few choices before I continue',
        questions: QUESTIONS,
        input,
        schema: { toolName: 'AskUserQuestion' },
      },
      ctx.signal,
      auto ? AUTO_RESOLVE_MS * scale : undefined,
    );
  } catch (err) {
    if (ctx.signal.aborted) throw new TurnAborted();
    ctx.finishTool(toolCallId, 'AskUserQuestion', input, startedAt, {
      error: { type: 'tool_error', message: err instanceof Error ? err.message : String(err) },
    });
    await ctx.say('I could not ask the question.');
    return;
  } finally {
    for (const t of timers) clearTimeout(t);
  }
  if (result.action !== 'accept') {
    const reason = result.reason ?? (result.action === 'decline' ? 'AskUserQuestion was declined' : 'AskUserQuestion was cancelled');
    ctx.finishTool(toolCallId, 'AskUserQuestion', input, startedAt, { error: { type: 'permission_denied', message: reason } });
    await ctx.say(`You did not answer (${reason}). I will use sensible defaults.`);
    return;
  }
  const answers = extractAnswers(result, QUESTIONS);
  const lines = QUESTIONS.map((q, i) => `- ${q.header}: ${answers[i] ?? '(skipped)'}`);
  ctx.finishTool(toolCallId, 'AskUserQuestion', input, startedAt, { success: true, content: lines.join('\n') });
  await ctx.say(`Thanks. Your answers:\n\n${lines.join('\n')}\n`);
}
