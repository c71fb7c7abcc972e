import { ProtocolError } from '../protocol-error.js';
import { newId } from '../session-runtime.js';
import { DENY_REASON, type PermissionOption } from '../interactions.js';
import { TurnAborted, type ToolOutcome, type TurnContext } from '../turn/turn-context.js';

/** `ruleContent` of the "always allow" option: the input if a string, else command/url/file_path/path/pattern (§6.2). */
export function ruleContent(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    for (const k of ['command', 'url', 'file_path', 'path', 'pattern']) if (typeof o[k] === 'string') return o[k];
  }
  return undefined;
}

/** The three options S offers on the legacy wire, in order (§6.2). */
export function permissionOptions(toolName: string, input: unknown): PermissionOption[] {
  const content = ruleContent(input);
  return [
    { optionId: 'allow_once', kind: 'allow_once', name: 'Allow once', response: { decision: 'allow', reason: 'Approved once' } },
    {
      optionId: 'allow_project',
      kind: 'allow_always',
      name: 'Always allow in this project',
      response: {
        decision: 'allow',
        permissionUpdates: [
          { type: 'addRules', behavior: 'allow', rules: [{ toolName, ...(content !== undefined ? { ruleContent: content } : {}) }] },
        ],
        reason: 'Approved for this project',
      },
    },
    { optionId: 'deny', kind: 'deny', name: 'Deny', response: { decision: 'deny', reason: DENY_REASON } },
  ];
}

export interface ToolSpec {
  name: string;
  input: Record<string, unknown>;
  /** Ask `interaction/requestPermission` first (only when the session mode asks, i.e. not yolo). */
  needsPermission?: boolean;
  reason?: string;
  riskLevel?: 'low' | 'medium' | 'high' | 'critical';
  run: (toolCallId: string) => Promise<ToolOutcome>;
}

/** Runs one tool call through scheduled → (permission) → started → result|error → batch (§5.5.7). */
export async function runTool(ctx: TurnContext, spec: ToolSpec): Promise<{ toolCallId: string; denied: boolean; outcome?: ToolOutcome }> {
  const toolCallId = await ctx.scheduleTool(spec.name, spec.input);
  if (spec.needsPermission && ctx.asksPermission) {
    const requestId = newId('perm');
    const options = permissionOptions(spec.name, spec.input);
    const reason = spec.reason ?? `Run ${spec.name}`;
    const riskLevel = spec.riskLevel ?? 'medium';
    ctx.emit('permission.requested', {
      requestId,
      toolCallId,
      toolName: spec.name,
      riskLevel,
      reason,
      input: spec.input,
      approvalMode: 'user-once',
      options,
    });
    let decision: 'allow' | 'deny';
    let why: string | undefined;
    try {
      const r = await ctx.sim.interactions.permission(
        ctx.rt,
        {
          requestId,
          sessionId: ctx.rt.sessionId,
          turnId: ctx.turnId,
          toolCallId,
          toolName: spec.name,
          reason,
          riskLevel,
          input: spec.input,
          options,
        },
        ctx.signal,
      );
      decision = r.decision === 'deny' ? 'deny' : 'allow';
      why = r.reason ?? (decision === 'deny' ? DENY_REASON : undefined);
    } catch (err) {
      if (ctx.signal.aborted) throw new TurnAborted();
      // An error answer fails the tool call (§6.2).
      const message = err instanceof ProtocolError ? err.message : String(err);
      ctx.emit('permission.resolved', { requestId, toolCallId, toolName: spec.name, decision: 'deny', reason: message });
      ctx.finishTool(toolCallId, spec.name, spec.input, Date.now(), { error: { type: 'permission_error', message } });
      return { toolCallId, denied: true };
    }
    ctx.emit('permission.resolved', { requestId, toolCallId, toolName: spec.name, decision, ...(why ? { reason: why } : {}) });
    if (decision === 'deny') {
      ctx.finishTool(toolCallId, spec.name, spec.input, Date.now(), { error: { type: 'permission_denied', message: why ?? DENY_REASON } });
      return { toolCallId, denied: true };
    }
  }
  const startedAt = ctx.startTool(toolCallId, spec.name);
  const outcome = await spec.run(toolCallId);
  ctx.finishTool(toolCallId, spec.name, spec.input, startedAt, outcome);
  ctx.drainSteers();
  return { toolCallId, denied: false, outcome };
}
