import { startBashTask, startServerTask, startWatchTask } from '../background-tasks.js';
import type { TurnContext } from '../turn/turn-context.js';
import { runTool } from './tools.js';

/**
 * `background`: a Bash run in the background; the turn ends at once, the task reports later
 * (§5.5.7). With `watch` in the prompt the task is a long test watcher with coloured output; with
 * `server`, a dev server that prints one line and then stays quiet until it is stopped.
 */
export async function backgroundScenario(ctx: TurnContext): Promise<void> {
  const watch = /\bwatch\b/i.test(ctx.prompt);
  const server = !watch && /\bserver\b/i.test(ctx.prompt);
  await ctx.reasoning('The build takes a while; I will run it in the background and report when it finishes.');
  const command = watch ? 'npm run test:watch' : server ? 'npm run dev' : 'npm run build';
  const start = watch ? startWatchTask : server ? startServerTask : startBashTask;
  let taskId = '';
  const r = await runTool(ctx, {
    name: 'Bash',
    input: { command, run_in_background: true, description: watch ? 'Watch the tests' : server ? 'Serve the app' : 'Build the project' },
    needsPermission: true,
    reason: 'Run command in background',
    run: async (toolCallId) => {
      taskId = start(ctx.sim, ctx.rt, toolCallId, command).taskId;
      return { success: true, content: `Command running in background with ID: ${taskId}` };
    },
  });
  if (r.denied) await ctx.say('I did not start the build because permission was denied.');
  else if (server) await ctx.say(`The dev server is running in the background (\`${taskId}\`) until you stop it.`);
  else await ctx.say(`The build is running in the background (\`${taskId}\`). I will report when it finishes.`);
}
