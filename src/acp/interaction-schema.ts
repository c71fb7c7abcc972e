/**
 * ZCode interaction reverse requests (APP-SERVER.md §6.2 `interaction/requestPermission`,
 * §6.3 `interaction/requestUserInput`) validated with zod and normalised into one record
 * shape per kind (ARCHITECTURE.md §4.5): permission, question (AskUserQuestion), plan_approval
 * (ExitPlanMode) and elicitation (an MCP server's form during a tool call).
 */
import type { z } from 'zod';
import { HubError } from '../errors.js';
import {
  type permissionOption,
  type permissionResponse,
  type question,
  type requestOrigin,
  requestPermissionParams,
  requestUserInputParams,
} from '../wire/interactions.js';
import { toolTitle } from './tool-info.js';

/*
 * The messages are defined once in src/wire/interactions.ts; the hub reads the child's requests
 * with their lenient readings (unknown keys kept, an older CLI's omissions defaulted).
 */
export type PermissionResponse = z.infer<typeof permissionResponse.lenient>;
export type ZCodePermissionOption = z.infer<typeof permissionOption.lenient>;
export type ZCodeQuestion = z.infer<typeof question.lenient>;

/**
 * The session whose clients get an interaction: a sub-agent's request belongs to its parent's
 * turn (§6.2 `origin`), even when the server puts the child's id in `sessionId`.
 */
function owningSession(sessionId: string, origin: z.infer<typeof requestOrigin.lenient> | undefined): string {
  const parent = origin?.parentSessionId;
  return parent !== undefined && parent.length > 0 ? parent : sessionId;
}

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
  /**
   * A Write whose file exists already: it replaces that file, though its diff has `oldText: null`
   * (the agent sends only the new content). Set by the hub from the disk, not by the child.
   */
  overwrites?: boolean;
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
    const r = requestPermissionParams.lenient.safeParse(params);
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
  const r = requestUserInputParams.lenient.safeParse(params);
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
