import path from 'node:path';
import type { TurnContext } from '../turn/turn-context.js';
import { runTool } from './tools.js';

/** No keyword: reasoning deltas, one Read tool call, then a short Markdown answer. */
export async function answerScenario(ctx: TurnContext): Promise<void> {
  await ctx.reasoning('The user wants a short answer. I will glance at the README first so the reply matches the project, then summarise.');
  const filePath = path.join(ctx.rt.info.workspace.workspacePath, 'README.md');
  await runTool(ctx, {
    name: 'Read',
    input: { file_path: filePath },
    run: async () => {
      await ctx.sleep(60);
      return { success: true, content: '# Project\n\nA sample project used by the ZCode simulator.\n' };
    },
  });
  const prompt = ctx.prompt.trim().slice(0, 80);
  await ctx.say(
    [
      '## Answer',
      '',
      `You asked: *${prompt || '(empty prompt)'}*. Here is what I found:`,
      '',
      '- The workspace has a README describing the project.',
      '- Nothing needs to change to answer this question.',
      '- Type `permission`, `question`, `plan`, `background`, `subagent`, `edit`, `fail`, `slow` or `todo` to try other flows.',
      '',
      '```ts',
      'export function greet(name: string): string {',
      '  return `Hello, ${name}!`;',
      '}',
      '```',
      '',
      'Let me know if you want me to go further.',
    ].join('\n'),
  );
}

/** The follow-up turn a finished background task starts (§5.5.1, inputSource background_task). */
export async function backgroundFollowupScenario(ctx: TurnContext): Promise<void> {
  // The model reads the task's output first: a follow-up turn long enough to send into (§4.8 rule 4).
  await ctx.reasoning('Reading the background task output before answering.');
  await ctx.sleep(1500);
  await ctx.say('The background task finished successfully; the build output looks clean.');
}
