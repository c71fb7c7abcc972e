import { startBashTask } from '../background-tasks.js';
import type { TurnContext } from '../turn/turn-context.js';
import { runTool } from './tools.js';

/** `background`: a Bash run in the background; the turn ends at once, the task reports later (§5.5.7). */
export async function backgroundScenario(ctx: TurnContext): Promise<void> {
  await ctx.reasoning('The build takes a while; I will run it in the background and report when it finishes.');
  const command = 'npm run build';
  let taskId = '';
  const r = await runTool(ctx, {
    name: 'Bash',
    input: { command, run_in_background: true, description: 'Build the project' },
    needsPermission: true,
    reason: 'Run command in background',
    run: async (toolCallId) => {
      taskId = startBashTask(ctx.sim, ctx.rt, toolCallId, command).taskId;
      return { success: true, content: `Command running in background with ID: ${taskId}` };
    },
  });
  if (r.denied) await ctx.say('I did not start the build because permission was denied.');
  else await ctx.say(`The build is running in the background (\`${taskId}\`). I will report when it finishes.`);
}
