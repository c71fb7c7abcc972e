import type { Todo } from '../session-runtime.js';
import type { TurnContext } from '../turn/turn-context.js';
import { runTool } from './tools.js';

async function todoWrite(ctx: TurnContext, todos: Todo[]): Promise<void> {
  await runTool(ctx, {
    name: 'TodoWrite',
    input: { todos },
    run: async () => {
      ctx.setTodos(todos);
      return { success: true, content: `Todo list updated (${todos.length} items)` };
    },
  });
}

/** `todo`: TodoWrite calls that build and then complete a todo list (snapshot `todos`, plan views). */
export async function todoScenario(ctx: TurnContext): Promise<void> {
  const items = ['Inspect the project layout', 'Add the missing test', 'Update the changelog'];
  await todoWrite(
    ctx,
    items.map((content, i) => ({ content, status: i === 0 ? 'in_progress' : 'pending', priority: i === 1 ? 'high' : 'low' })),
  );
  await ctx.say('Working through the list.\n');
  await ctx.sleep(200);
  await todoWrite(
    ctx,
    items.map((content, i) => ({ content, status: i < 2 ? 'completed' : 'in_progress', priority: i === 1 ? 'high' : 'low' })),
  );
  await ctx.sleep(200);
  await todoWrite(
    ctx,
    items.map((content, i) => ({ content, status: 'completed', priority: i === 1 ? 'high' : 'low' })),
  );
  await ctx.say('All three items are done.');
}
