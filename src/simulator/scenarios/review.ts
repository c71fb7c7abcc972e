import type { TurnContext } from '../turn/turn-context.js';

/** The command the simulator announces in its snapshot's `slashCommands` and answers itself. */
export const REVIEW_COMMAND = {
  name: 'review',
  description: 'Review the workspace changes and list what to fix',
  inputHint: '<focus>',
  source: 'builtin',
} as const;

/** The focus of a `/review …` prompt (`undefined` when the prompt is not that command). */
export function reviewFocus(prompt: string): string | undefined {
  const m = /^\s*\/review(?:\s+([\s\S]*))?$/.exec(prompt);
  return m ? (m[1] ?? '').trim() : undefined;
}

/**
 * `/review [focus]`: the agent's own slash command (a client only sends its text as a prompt):
 * reasoning, then a short review naming the focus, so a client can see the agent answered it.
 */
export async function reviewScenario(ctx: TurnContext): Promise<void> {
  const focus = reviewFocus(ctx.prompt) || 'the whole workspace';
  await ctx.reasoning(`A review was asked for (${focus}); I will look at the changes and list what to fix.`);
  await ctx.say(
    [`## Review: ${focus}`, '', '- No blocking issues found.', '- One suggestion: add a test for the new code path.'].join('\n'),
  );
}
