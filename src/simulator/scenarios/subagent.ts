import fs from 'node:fs/promises';
import path from 'node:path';
import { newId } from '../session-runtime.js';
import type { StoredMessage } from '../session-store.js';
import { DENY_REASON } from '../interactions.js';
import { endSubagent, spawnSubagent } from '../subagents.js';
import { TurnAborted, type TurnContext } from '../turn/turn-context.js';
import { permissionOptions } from './tools.js';

type Part = StoredMessage['parts'][number];

/** The sub-agent type the scenario spawns (Claude-style built-in agent). */
export const SUBAGENT_TYPE = 'Explore';

/** The fields every mirrored child `tool.updated` carries (§5.5.7 common fields, §5.2). */
interface Mirror {
  parentToolCallId: string;
  source: 'subagent';
  agentId: string;
  agentType: string;
  childSessionId: string;
  description: string;
}

interface ChildStep {
  toolName: string;
  input: Record<string, unknown>;
  output: string;
  ms: number;
  /** Asks permission first (with `--subagent-permission`). */
  asks?: boolean;
  /** What the tool does to the workspace once allowed. */
  run?: () => Promise<void>;
}

/** The file the child writes its survey to with `--subagent-write`. */
const SUBAGENT_WRITE_FILE = 'SURVEY.md';
const SURVEY = '# Survey\n\n- Entry point: `src/server.ts` (`buildApp()`, port 3000).\n- Routes live in `src/routes/`.\n';

function childSteps(workspacePath: string, write: boolean): ChildStep[] {
  const survey = path.join(workspacePath, SUBAGENT_WRITE_FILE);
  return [
    {
      toolName: 'Glob',
      input: { pattern: 'src/**/*.ts', path: workspacePath },
      output: 'src/index.ts\nsrc/server.ts\nsrc/routes/users.ts\n',
      ms: 150,
      asks: true,
    },
    {
      toolName: 'Read',
      input: { file_path: path.join(workspacePath, 'src', 'server.ts') },
      output: "import { buildApp } from './app.js';\n\nawait buildApp().listen({ port: 3000 });\n",
      ms: 200,
    },
    ...(write
      ? [
          {
            toolName: 'Write',
            input: { file_path: survey, content: SURVEY },
            output: `File written: ${survey}`,
            ms: 80,
            asks: true,
            run: () => fs.writeFile(survey, SURVEY),
          },
        ]
      : []),
  ];
}

/**
 * One tool call of the child, as the parent sees it: mirror `tool.updated` scheduled → started
 * → result on the *parent's* stream (the child's own events are not emitted, §5.2). The input
 * rides on `scheduled`: no `model.streaming tool_call` delivered it in this seq space (§5.5.7).
 */
async function runChildTool(ctx: TurnContext, mirror: Mirror, step: ChildStep, parts: Part[], childSessionId: string): Promise<void> {
  const toolCallId = newId('call');
  // `--mirror-child-ids`: the mirror is an update of the parent's Agent call; the child's own
  // call id rides in `childToolCallId` (§5.5.7), the shape a host must key mirror cards by.
  const ids = ctx.sim.options.mirrorChildIds ? { toolCallId: mirror.parentToolCallId, childToolCallId: toolCallId } : { toolCallId };
  const base = { ...ids, toolName: step.toolName, ...mirror };
  ctx.emit('tool.updated', { kind: 'scheduled', ...base, input: step.input });
  await ctx.sleep(30);
  if (step.asks === true && !(await childPermission(ctx, mirror, toolCallId, step))) {
    ctx.emit('tool.updated', { kind: 'error', ...base, error: { type: 'permission_denied', message: DENY_REASON } });
    parts.push({
      partId: newId('prt'),
      sessionId: childSessionId,
      messageId: '',
      type: 'tool',
      callId: toolCallId,
      tool: step.toolName,
      state: { status: 'error', input: step.input, error: DENY_REASON, startedAt: Date.now(), completedAt: Date.now() },
    });
    return;
  }
  const startedAt = Date.now();
  ctx.emit('tool.updated', { kind: 'started', ...base, startedAt });
  await ctx.sleep(step.ms);
  await step.run?.();
  const completedAt = Date.now();
  ctx.emit('tool.updated', { kind: 'result', ...base, result: { success: true, content: step.output }, duration: completedAt - startedAt });
  parts.push({
    partId: newId('prt'),
    sessionId: childSessionId,
    messageId: '',
    type: 'tool',
    callId: toolCallId,
    tool: step.toolName,
    state: { status: 'completed', input: step.input, output: step.output, title: step.toolName, metadata: {}, startedAt, completedAt },
  });
}

/**
 * `--subagent-permission parent|child` (in modes that ask): the child's `Glob` (and, with
 * `--subagent-write`, its `Write`) asks
 * `interaction/requestPermission` with `origin {kind: "subagent", agentId, agentType,
 * childSessionId, parentSessionId, parentToolCallId, parentTurnId, description}` (§6.2), and
 * `params.sessionId` is the parent's or the child's id — the real server's choice is not
 * documented, a host must route by `origin` either way. Returns whether it was allowed.
 */
async function childPermission(ctx: TurnContext, mirror: Mirror, toolCallId: string, step: ChildStep): Promise<boolean> {
  const mode = ctx.sim.options.subagentPermission;
  if (mode === undefined || !ctx.asksPermission) return true;
  const origin = {
    kind: 'subagent',
    agentId: mirror.agentId,
    agentType: mirror.agentType,
    childSessionId: mirror.childSessionId,
    parentSessionId: ctx.rt.sessionId,
    parentToolCallId: mirror.parentToolCallId,
    parentTurnId: ctx.turnId,
    description: mirror.description,
  };
  const requestId = newId('perm');
  const options = permissionOptions(step.toolName, step.input);
  const reason = `Sub-agent wants to run ${step.toolName}`;
  ctx.emit('permission.requested', {
    requestId,
    toolCallId,
    toolName: step.toolName,
    riskLevel: 'low',
    reason,
    input: step.input,
    origin,
    options,
    childSessionId: mirror.childSessionId,
  });
  try {
    const r = await ctx.sim.interactions.permission(
      ctx.rt,
      {
        requestId,
        sessionId: mode === 'child' ? mirror.childSessionId : ctx.rt.sessionId,
        toolCallId,
        toolName: step.toolName,
        reason,
        riskLevel: 'low',
        input: step.input,
        options,
        origin,
      },
      ctx.signal,
    );
    ctx.emit('permission.resolved', {
      requestId,
      toolCallId,
      toolName: step.toolName,
      decision: r.decision,
      childSessionId: mirror.childSessionId,
    });
    return r.decision !== 'deny';
  } catch {
    if (ctx.signal.aborted) throw new TurnAborted();
    return false;
  }
}

/**
 * `subagent`: an `Agent` (Task-style) tool call spawns an Explore sub-agent. The parent stream
 * shows the Agent call, `session.updated` subagent_spawned, the child's tool calls mirrored
 * with `source:"subagent"`, subagent_stopped, then the Agent result carrying the sub-agent's
 * summary (§5.2, §5.5.7, §5.5.9). The child is a real `sess_subagent_…` session (§4.16).
 */
export async function subagentScenario(ctx: TurnContext): Promise<void> {
  await ctx.reasoning('This needs a look around the code base. An Explore sub-agent can survey it and hand back a short summary.');
  await ctx.say('I will ask an Explore sub-agent to survey the project.\n');
  const description = 'Survey the project layout';
  const asked = ctx.prompt.trim().slice(0, 200);
  const prompt = `Survey the workspace: list the TypeScript sources, read the entry point and summarise how the server starts. The user asked: ${asked || '(empty prompt)'}`;
  const input = { description, prompt, subagent_type: SUBAGENT_TYPE };
  const toolCallId = await ctx.scheduleTool('Agent', input);
  const startedAt = ctx.startTool(toolCallId, 'Agent');

  const child = spawnSubagent(ctx.sim, ctx.rt, { parentToolCallId: toolCallId, subagentType: SUBAGENT_TYPE, description, prompt });
  const agentId = child.subagent?.agentId ?? '';
  const ids = { agentId, childSessionId: child.sessionId, agentType: SUBAGENT_TYPE, parentToolCallId: toolCallId };
  ctx.parts.push({
    partId: newId('prt'),
    sessionId: ctx.rt.sessionId,
    messageId: ctx.assistantMessageId,
    type: 'subagent',
    prompt,
    description,
    agent: SUBAGENT_TYPE,
  });
  ctx.emit('session.updated', { ...ids, description });

  const mirror: Mirror = {
    parentToolCallId: toolCallId,
    source: 'subagent',
    agentId,
    agentType: SUBAGENT_TYPE,
    childSessionId: child.sessionId,
    description,
  };
  const childParts: Part[] = [];
  try {
    for (const step of childSteps(ctx.rt.info.workspace.workspacePath, ctx.sim.options.subagentWrite))
      await runChildTool(ctx, mirror, step, childParts, child.sessionId);
    await ctx.sleep(100);
  } catch (err) {
    // Stopped (or broken) mid-run: the child ends too, and says so on the parent's stream.
    const status = ctx.signal.aborted ? 'cancelled' : 'failed';
    endSubagent(child, status, undefined, childParts);
    ctx.emit('session.updated', { ...ids, status });
    throw err;
  }
  const summary =
    'The project has three TypeScript sources under `src/`. `src/server.ts` is the entry point: it builds the app with `buildApp()` and listens on port 3000; routes live in `src/routes/`.';
  endSubagent(child, 'success', summary, childParts);
  ctx.emit('session.updated', { ...ids, status: 'success', summary });

  ctx.finishTool(toolCallId, 'Agent', input, startedAt, { success: true, content: summary });
  // The history's Agent part names its child, as the spawned/stopped events do.
  const part = ctx.parts.find((p) => p.type === 'tool' && p['callId'] === toolCallId);
  const state = part?.['state'];
  if (state && typeof state === 'object')
    Object.assign(state, { title: description, metadata: { childSessionId: child.sessionId, agentId, agentType: SUBAGENT_TYPE } });
  ctx.drainSteers();
  await ctx.say(
    `The sub-agent surveyed the project:\n\n- Entry point: \`src/server.ts\` (\`buildApp()\`, port 3000).\n- Routes live in \`src/routes/\`.\n\nIts session is \`${child.sessionId}\` (${ctx.sim.options.subagentWrite ? `it wrote \`${SUBAGENT_WRITE_FILE}\`` : 'read-only'}).`,
  );
}
