/**
 * ZCode interaction reverse requests (APP-SERVER.md §6.2 `interaction/requestPermission`,
 * §6.3 `interaction/requestUserInput`) validated with zod and normalised into one record
 * shape per kind (ARCHITECTURE.md §4.5): permission, question (AskUserQuestion), plan_approval
 * (ExitPlanMode) and elicitation (an MCP server's form during a tool call).
 */
import { z } from 'zod';
import { HubError } from '../errors.js';
import { toolTitle } from './tool-info.js';

const str1 = z.string().min(1);

/** PermissionResponse (§6.2): what the child receives, verbatim from the chosen option. */
export const permissionResponseSchema = z.looseObject({
  decision: z.string(),
  reason: z.string().optional(),
  modifiedInput: z.unknown().optional(),
  permissionUpdates: z.array(z.unknown()).optional(),
});
export type PermissionResponse = z.infer<typeof permissionResponseSchema>;

/** PermissionOption (§6.2). */
export const permissionOptionSchema = z.looseObject({
  optionId: str1,
  kind: str1,
  name: str1,
  description: z.string().optional(),
  response: permissionResponseSchema,
});
export type ZCodePermissionOption = z.infer<typeof permissionOptionSchema>;

/** A sub-agent request's `origin` (§6.2, §6.3): the parent session owns it, whichever id `sessionId` holds. */
const originSchema = z.looseObject({
  kind: z.string().optional(),
  parentSessionId: z.string().optional(),
  childSessionId: z.string().optional(),
});

/**
 * The session whose clients get an interaction: a sub-agent's request belongs to its parent's
 * turn (§6.2 `origin`), even when the server puts the child's id in `sessionId`.
 */
function owningSession(sessionId: string, origin: z.infer<typeof originSchema> | undefined): string {
  const parent = origin?.parentSessionId;
  return parent !== undefined && parent.length > 0 ? parent : sessionId;
}

/** `interaction/requestPermission` params (§6.2). Lenient on extra keys (output of the child). */
export const requestPermissionParamsSchema = z.looseObject({
  requestId: str1,
  sessionId: str1,
  turnId: z.string().optional(),
  toolCallId: str1,
  toolName: str1,
  reason: z.string().default(''),
  riskLevel: z.string().default('medium'),
  input: z.unknown().optional(),
  origin: originSchema.optional(),
  options: z.array(permissionOptionSchema).min(1),
});

/** A question of AskUserQuestion (§6.3); `header` is tolerated missing (§14.6, §12 #10). */
export const questionSchema = z.looseObject({
  question: str1,
  header: z.string().default(''),
  options: z
    .array(z.looseObject({ value: str1, label: str1, description: z.string().optional(), preview: z.unknown().optional() }))
    .default([]),
  multiSelect: z.boolean().optional(),
});
export type ZCodeQuestion = z.infer<typeof questionSchema>;

/** `interaction/requestUserInput` params (§6.3). */
export const requestUserInputParamsSchema = z.looseObject({
  requestId: str1,
  sessionId: str1,
  turnId: z.string().optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  prompt: z.string().optional(),
  questions: z.array(questionSchema).optional(),
  input: z.unknown().optional(),
  origin: originSchema.optional(),
  schema: z.unknown().optional(),
});

/** The plan-approval question text ExitPlanMode sends (§6.3). */
export const PLAN_APPROVAL_QUESTION = 'Review this implementation plan.';

interface InteractionBase {
  /** ZCode `params.requestId`: the interaction id everywhere (ARCHITECTURE.md §4.5). */
  requestId: string;
  sessionId: string;
  turnId?: string;
  toolCallId?: string;
  toolName?: string;
  title: string;
}

/** A tool permission prompt. */
export interface PermissionInteraction extends InteractionBase {
  kind: 'permission';
  toolCallId: string;
  toolName: string;
  reason: string;
  riskLevel: string;
  input: unknown;
  options: ZCodePermissionOption[];
  /** The session's working directory, where a command without its own `cwd` runs (set by the hub, not the child). */
  cwd?: string;
}

/** AskUserQuestion. */
export interface QuestionInteraction extends InteractionBase {
  kind: 'question';
  prompt?: string;
  questions: ZCodeQuestion[];
}

/** ExitPlanMode's plan approval. */
export interface PlanApprovalInteraction extends InteractionBase {
  kind: 'plan_approval';
  /** The plan text from the tool input, when present. */
  plan?: string;
  /** The question text to key the answer by (§6.3). */
  question: string;
}

/** An MCP server elicitation relayed by the child (shape partly unverified, §13). */
export interface ElicitationInteraction extends InteractionBase {
  kind: 'elicitation';
  prompt?: string;
  questions: ZCodeQuestion[];
  /** The MCP `requestedSchema`, when the child passed it through. */
  requestedSchema?: Record<string, unknown>;
}

export type InteractionRecord = PermissionInteraction | QuestionInteraction | PlanApprovalInteraction | ElicitationInteraction;
export type InteractionKind = InteractionRecord['kind'];

function invalid(method: string, error: z.ZodError): HubError {
  return new HubError('HUB_ERR_BAD_REQUEST', `Invalid ${method} params`, error.issues);
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Validates a ZCode interaction reverse request and normalises it; throws HUB_ERR_BAD_REQUEST on invalid params. */
export function classifyInteraction(method: string, params: unknown): InteractionRecord {
  if (method === 'interaction/requestPermission') {
    const r = requestPermissionParamsSchema.safeParse(params);
    if (!r.success) throw invalid(method, r.error);
    const p = r.data;
    return {
      kind: 'permission',
      requestId: p.requestId,
      sessionId: owningSession(p.sessionId, p.origin),
      ...(p.turnId === undefined ? {} : { turnId: p.turnId }),
      toolCallId: p.toolCallId,
      toolName: p.toolName,
      title: toolTitle(p.toolName, p.input),
      reason: p.reason,
      riskLevel: p.riskLevel,
      input: p.input,
      options: p.options,
    };
  }
  if (method !== 'interaction/requestUserInput') {
    throw new HubError('HUB_ERR_METHOD_NOT_FOUND', `Not an interaction method: ${method}`);
  }
  const r = requestUserInputParamsSchema.safeParse(params);
  if (!r.success) throw invalid(method, r.error);
  const p = r.data;
  const schema = record(p.schema);
  const base = {
    requestId: p.requestId,
    sessionId: owningSession(p.sessionId, p.origin),
    ...(p.turnId === undefined ? {} : { turnId: p.turnId }),
    ...(p.toolCallId === undefined ? {} : { toolCallId: p.toolCallId }),
    ...(p.toolName === undefined ? {} : { toolName: p.toolName }),
  };
  const questions = p.questions ?? [];
  if (schema['interaction'] === 'plan_approval' || p.toolName === 'ExitPlanMode') {
    const plan = record(p.input)['plan'];
    return {
      ...base,
      kind: 'plan_approval',
      title: 'Plan approval',
      question: questions[0]?.question ?? PLAN_APPROVAL_QUESTION,
      ...(typeof plan === 'string' ? { plan } : {}),
    };
  }
  const prompt = p.prompt === undefined ? {} : { prompt: p.prompt };
  const isAsk =
    p.toolName === 'AskUserQuestion' ||
    schema['toolName'] === 'AskUserQuestion' ||
    (p.toolName === undefined && schema['interaction'] === undefined);
  if (isAsk) {
    if (questions.length === 0) throw new HubError('HUB_ERR_BAD_REQUEST', 'AskUserQuestion without questions');
    return { ...base, ...prompt, kind: 'question', title: p.prompt ?? questions[0]?.question ?? 'Question', questions };
  }
  const requested = record(schema['requestedSchema'] ?? record(p.input)['requestedSchema']);
  if (questions.length === 0 && Object.keys(requested).length === 0) {
    throw new HubError('HUB_ERR_BAD_REQUEST', 'User input request without questions or schema');
  }
  return {
    ...base,
    ...prompt,
    kind: 'elicitation',
    title: p.prompt ?? questions[0]?.question ?? 'Input requested',
    questions,
    ...(Object.keys(requested).length > 0 ? { requestedSchema: requested } : {}),
  };
}
