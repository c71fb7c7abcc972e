import { assertNever } from '../../errors.js';
import type { TurnContext } from '../turn/turn-context.js';
import { answerScenario, backgroundFollowupScenario } from './answer.js';
import { backgroundScenario } from './background.js';
import { benchScenario } from './bench.js';
import { editScenario } from './edit.js';
import { failScenario } from './fail.js';
import { mcpFormScenario } from './mcp-form.js';
import { permissionScenario } from './permission.js';
import { planScenario } from './plan.js';
import { questionScenario } from './question.js';
import { screenshotScenario } from './screenshot.js';
import { reviewScenario } from './review.js';
import type { Behaviour } from './select.js';
import { slowScenario } from './slow.js';
import { subagentScenario } from './subagent.js';
import { todoScenario } from './todo.js';
import { tourScenario } from './tour.js';

/** Runs the script of one behaviour on a turn (one file per behaviour). */
export async function runBehaviour(b: Behaviour, ctx: TurnContext): Promise<void> {
  switch (b) {
    case 'answer':
      return answerScenario(ctx);
    case 'permission':
      return permissionScenario(ctx);
    case 'question':
      return questionScenario(ctx);
    case 'plan':
      return planScenario(ctx);
    case 'background':
      return backgroundScenario(ctx);
    case 'fail':
      return failScenario(ctx);
    case 'edit':
      return editScenario(ctx);
    case 'screenshot':
      return screenshotScenario(ctx);
    case 'deploy':
      return mcpFormScenario(ctx);
    case 'slow':
      return slowScenario(ctx);
    case 'todo':
      return todoScenario(ctx);
    case 'subagent':
      return subagentScenario(ctx);
    case 'tour':
      return tourScenario(ctx);
    case 'review':
      return reviewScenario(ctx);
    case 'bench':
      return benchScenario(ctx);
    case 'background-followup':
      return backgroundFollowupScenario(ctx);
    case 'compact':
      await ctx.sleep(300);
      ctx.text = '';
      return;
    case 'goal':
      await ctx.say(`Working towards the goal: ${ctx.prompt}. Progress recorded.`);
      return;
    case 'workflow-launch':
      await ctx.say(ctx.prompt);
      return;
    default:
      return assertNever(b, 'behaviour');
  }
}
