import type { TurnContext } from '../turn/turn-context.js';

/** `slow`: streams for about 10 s in small text deltas (stop/reconnect tests). */
export async function slowScenario(ctx: TurnContext): Promise<void> {
  const sentences: string[] = [];
  for (let i = 1; i <= 100; i++) sentences.push(`Step ${i} of a long answer.`);
  // 100 sentences ≈ 250 two-word deltas at 40 ms ≈ 10 s.
  await ctx.say(sentences.join(' '), 40);
}
