import type { TurnContext } from '../turn/turn-context.js';
import { answerScenario } from './answer.js';
import { permissionScenario } from './permission.js';
import { questionScenario } from './question.js';

/**
 * `tour`: one turn with every kind of update a client folds — thoughts, a Read tool, a Markdown
 * answer, a Bash call that asks permission (with progress output), then an AskUserQuestion — so
 * a continuity test can join it at any point.
 */
export async function tourScenario(ctx: TurnContext): Promise<void> {
  await answerScenario(ctx);
  await permissionScenario(ctx);
  await questionScenario(ctx);
}
