import { newId } from '../session-runtime.js';
import { TurnAborted, type TurnContext } from '../turn/turn-context.js';
import { extractAnswers } from './question.js';

/** The MCP server's own form (an elicitation `requestedSchema`). */
const REQUESTED_SCHEMA = {
  type: 'object',
  properties: {
    environment: { type: 'string', title: 'Which environment should I deploy to?', enum: ['staging', 'production'] },
    migrate: { type: 'boolean', title: 'Run the database migrations too?' },
  },
  required: ['environment'],
};

/** The questions the server derives from the schema, one per property in order (§6.3). */
const QUESTIONS = [
  {
    question: 'Which environment should I deploy to?',
    header: 'environment',
    options: [
      { value: 'staging', label: 'staging' },
      { value: 'production', label: 'production' },
    ],
  },
  {
    question: 'Run the database migrations too?',
    header: 'migrate',
    options: [
      { value: 'true', label: 'Yes' },
      { value: 'false', label: 'No' },
    ],
  },
];

/**
 * `deploy`: an MCP tool (`mcp__deployer__deploy`) whose server elicits a form while it runs
 * (APP-SERVER.md §6.3, third producer): `interaction/requestUserInput` with `schema:
 * {interaction: "mcp_elicitation", serverName, requestedSchema}`, `input: {serverName, message,
 * requestedSchema}` and questions derived from the schema. Like the real elicitation broker, the
 * answer is read only from `content.answers[question]`, `content.answer_<i>` or `content.answer`
 * — field-keyed content reaches the MCP server as `{}`; the tool result says what it received.
 */
export async function mcpFormScenario(ctx: TurnContext): Promise<void> {
  await ctx.reasoning('The deploy tool will ask where to deploy.');
  const toolName = 'mcp__deployer__deploy';
  const input = { service: 'web' };
  const toolCallId = await ctx.scheduleTool(toolName, input);
  const startedAt = ctx.startTool(toolCallId, toolName);
  const message = 'The deployer needs a target.';
  let received: Record<string, unknown> = {};
  try {
    const result = await ctx.sim.interactions.userInput(
      ctx.rt,
      {
        requestId: newId('elicit'),
        sessionId: ctx.rt.sessionId,
        turnId: ctx.turnId,
        toolCallId,
        toolName: 'mcp_elicitation',
        prompt: message,
        questions: QUESTIONS,
        input: { serverName: 'deployer', message, requestedSchema: REQUESTED_SCHEMA },
        schema: { interaction: 'mcp_elicitation', serverName: 'deployer', requestedSchema: REQUESTED_SCHEMA },
      },
      ctx.signal,
    );
    if (result.action === 'accept') {
      const answers = extractAnswers(result, QUESTIONS);
      received = Object.fromEntries(
        QUESTIONS.flatMap((q, i) =>
          answers[i] === undefined ? [] : [[q.header, q.header === 'migrate' ? answers[i] === 'true' : answers[i]]],
        ),
      );
    }
  } catch (err) {
    if (ctx.signal.aborted) throw new TurnAborted();
    ctx.finishTool(toolCallId, toolName, input, startedAt, {
      error: { type: 'tool_error', message: err instanceof Error ? err.message : String(err) },
    });
    return;
  }
  const content = `The MCP server received ${JSON.stringify(received)}`;
  ctx.finishTool(toolCallId, toolName, input, startedAt, { success: true, content });
  await ctx.say(
    typeof received['environment'] === 'string'
      ? `Deployed to ${received['environment']}.`
      : 'The deployer got no target; nothing was deployed.',
  );
}
