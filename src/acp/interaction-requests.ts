/**
 * Interaction records → the ACP requests a client is sent (ARCHITECTURE.md §4.5, APP-SERVER.md
 * §14.6): `session/request_permission` for permissions (and as the fallback for questions
 * and plan approval), `elicitation/create` forms for clients that declared
 * `clientCapabilities.elicitation.form`. Routing is per client, never OR-merged.
 */
import type {
  CreateElicitationRequest,
  ElicitationPropertySchema,
  ElicitationSchema,
  PermissionOption,
  PermissionOptionKind,
  RequestPermissionRequest,
} from '@agentclientprotocol/sdk';
import { assertNever } from '../errors.js';
import type {
  ElicitationInteraction,
  InteractionRecord,
  PermissionInteraction,
  PlanApprovalInteraction,
  QuestionInteraction,
  ZCodeQuestion,
} from './interaction-schema.js';
import { asInput, diffContent, isTerminalTool, toolKind, toolLocations } from './tool-info.js';
import { textContent } from './tool-output.js';

/** Sentinel value of the "Skip this question" choice (APP-SERVER.md §14.6). */
export const SKIP_SENTINEL = '__skip__';
/** Option ids of the plan-approval permission fallback. */
export const PLAN_APPROVE_OPTION = 'approve';
export const PLAN_REJECT_OPTION = 'reject';

/** ACP option kind for a ZCode permission option kind (§6.2: allow_once, allow_always, deny). */
export function acpOptionKind(kind: string): PermissionOptionKind {
  switch (kind) {
    case 'allow_once':
      return 'allow_once';
    case 'allow_always':
    case 'allow_project':
    case 'allow_session':
    case 'allowSession':
      return 'allow_always';
    case 'deny_always':
    case 'reject_always':
      return 'reject_always';
    case 'deny':
    case 'deny_once':
    case 'reject':
    case 'reject_once':
      return 'reject_once';
    default:
      return kind.startsWith('allow') ? 'allow_once' : 'reject_once';
  }
}

function zcodeMeta(record: InteractionRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { zcode: { interactionId: record.requestId, kind: record.kind, ...extra } };
}

/** The toolCallId an interaction is shown on; questions without a tool call get a stable synthetic id. */
export function interactionToolCallId(record: InteractionRecord): string {
  return record.toolCallId ?? `interaction_${record.requestId}`;
}

/**
 * Where a command asked about will run: its input's own `cwd`, else the session's. ACP's tool
 * call has no field for it and `rawInput` stays the agent's input verbatim, so it goes in
 * `toolCall._meta.zcode.cwd` (docs/CLIENT-PROTOCOL.md "Interactions").
 */
function commandCwd(record: PermissionInteraction): string | undefined {
  if (!isTerminalTool(record.toolName)) return undefined;
  const own = asInput(record.input)['cwd'];
  return typeof own === 'string' && own.length > 0 ? own : record.cwd;
}

/** `session/request_permission` params for a tool permission (ZCode optionIds kept as `optionId`). */
export function toAcpPermissionRequest(record: PermissionInteraction, sessionId: string = record.sessionId): RequestPermissionRequest {
  const diffs = diffContent(record.toolName, record.input);
  const locations = toolLocations(record.input);
  const cwd = commandCwd(record);
  // ACP's tool call has no field for either: where a command runs, and that a Write replaces a file.
  const zcode = { ...(cwd === undefined ? {} : { cwd }), ...(record.overwrites === true ? { overwrites: true } : {}) };
  return {
    sessionId,
    toolCall: {
      toolCallId: record.toolCallId,
      title: record.title,
      kind: toolKind(record.toolName),
      status: 'pending',
      rawInput: record.input,
      ...(diffs.length > 0 ? { content: diffs } : {}),
      ...(locations.length > 0 ? { locations } : {}),
      ...(Object.keys(zcode).length === 0 ? {} : { _meta: { zcode } }),
    },
    options: record.options.map((o): PermissionOption => ({ optionId: o.optionId, name: o.name, kind: acpOptionKind(o.kind) })),
    _meta: zcodeMeta(record, { toolName: record.toolName, riskLevel: record.riskLevel, reason: record.reason }),
  };
}

function questionProperties(q: ZCodeQuestion, i: number): Record<string, ElicitationPropertySchema> {
  const choices = q.options.map((o) => ({
    const: o.value,
    title: o.label,
    ...(o.description === undefined ? {} : { description: o.description }),
  }));
  const description = q.header.length > 0 ? q.header : null;
  const select: ElicitationPropertySchema =
    q.multiSelect === true
      ? { type: 'array', title: q.question, description, items: { anyOf: choices } }
      : { type: 'string', title: q.question, description, oneOf: [...choices, { const: SKIP_SENTINEL, title: 'Skip this question' }] };
  const other: ElicitationPropertySchema = {
    type: 'string',
    title:
      q.multiSelect === true ? '↳ or type another value (added to the selection)' : '↳ or type a custom value (overrides the selection)',
  };
  return { [`q_${i}`]: select, [`q_${i}_other`]: other };
}

function questionsSchema(questions: readonly ZCodeQuestion[]): ElicitationSchema {
  return { type: 'object', properties: Object.assign({}, ...questions.map(questionProperties)), required: [] };
}

/** The elicitation form for a question, plan approval or MCP elicitation (`elicitation/create`, mode form). */
export function toElicitationForm(
  record: QuestionInteraction | PlanApprovalInteraction | ElicitationInteraction,
  sessionId: string = record.sessionId,
): CreateElicitationRequest {
  const scope = { sessionId, ...(record.toolCallId === undefined ? {} : { toolCallId: record.toolCallId }) };
  switch (record.kind) {
    case 'question': {
      const n = record.questions.length;
      const message = record.prompt ?? (n === 1 ? (record.questions[0]?.question ?? 'Please answer.') : `Please answer ${n} questions.`);
      return { mode: 'form', ...scope, message, requestedSchema: questionsSchema(record.questions), _meta: zcodeMeta(record) };
    }
    case 'plan_approval':
      // One feedback field: empty = approve, text = reject with that feedback (APP-SERVER.md §14.6).
      return {
        mode: 'form',
        ...scope,
        message: `Ready to code?\n\n${record.plan ?? ''}\n\nLeave the box empty and submit to approve; type feedback to reject and redirect.`,
        requestedSchema: {
          type: 'object',
          properties: {
            feedback: {
              type: 'string',
              title: 'Feedback',
              description: 'Empty = approve the plan. Anything typed = reject and use this text as the redirection.',
            },
          },
          required: [],
        },
        // The plan alone, for a client that shows it with buttons of its own (the phone), not as a form's text.
        _meta: zcodeMeta(record, record.plan === undefined ? {} : { plan: record.plan }),
      };
    case 'elicitation': {
      // The MCP server's own schema when we have it; otherwise the derived questions.
      const requestedSchema =
        record.requestedSchema === undefined ? questionsSchema(record.questions) : (record.requestedSchema as ElicitationSchema);
      return {
        mode: 'form',
        ...scope,
        message: record.prompt ?? record.title,
        requestedSchema,
        _meta: zcodeMeta(record, { passthrough: record.requestedSchema !== undefined }),
      };
    }
    default:
      return assertNever(record, 'form interaction');
  }
}

/** Option id of answer `j` in the per-question fallback. */
export function questionOptionId(j: number): string {
  return `option_${j}`;
}

/** Fallback for clients without forms: one `session/request_permission` per question, options = answers + skip. */
export function toPerQuestionPermissionRequests(
  record: QuestionInteraction | ElicitationInteraction,
  sessionId: string = record.sessionId,
): RequestPermissionRequest[] {
  const base = interactionToolCallId(record);
  const n = record.questions.length;
  return record.questions.map((q, i) => ({
    sessionId,
    toolCall: {
      toolCallId: n === 1 ? base : `${base}:q${i}`,
      title: q.question,
      kind: 'other',
      status: 'pending',
      ...(q.header.length > 0 ? { content: [textContent(q.header)] } : {}),
    },
    options: [
      ...q.options.map((o, j): PermissionOption => ({ optionId: questionOptionId(j), name: o.label, kind: 'allow_once' })),
      { optionId: SKIP_SENTINEL, name: 'Skip this question', kind: 'reject_once' },
    ],
    _meta: zcodeMeta(record, { questionIndex: i, questionCount: n, multiSelect: q.multiSelect === true }),
  }));
}

/** Fallback for plan approval without forms: approve / keep planning as permission options. */
export function toPlanApprovalPermissionRequest(
  record: PlanApprovalInteraction,
  sessionId: string = record.sessionId,
): RequestPermissionRequest {
  return {
    sessionId,
    toolCall: {
      toolCallId: interactionToolCallId(record),
      title: 'Ready to code?',
      kind: 'switch_mode',
      status: 'pending',
      // `rawInput.plan` is ExitPlanMode's own input; clients without a tool-call store (the
      // zcode-acp-remote card) read the plan there.
      ...(record.plan === undefined ? {} : { content: [textContent(record.plan)], rawInput: { plan: record.plan } }),
    },
    options: [
      { optionId: PLAN_APPROVE_OPTION, name: 'Approve plan and start', kind: 'allow_once' },
      { optionId: PLAN_REJECT_OPTION, name: 'Keep planning', kind: 'reject_once' },
    ],
    _meta: zcodeMeta(record),
  };
}

/** What one client is sent for an interaction, chosen by that client's own capabilities. */
export type AcpInteractionRequest =
  | { method: 'session/request_permission'; params: RequestPermissionRequest[] }
  | { method: 'elicitation/create'; params: CreateElicitationRequest };

/** Routes an interaction for one client (APP-SERVER.md §14.6). */
export function shapeForClient(record: InteractionRecord, supportsElicitationForm: boolean): AcpInteractionRequest {
  switch (record.kind) {
    case 'permission':
      return { method: 'session/request_permission', params: [toAcpPermissionRequest(record)] };
    case 'plan_approval':
      return supportsElicitationForm
        ? { method: 'elicitation/create', params: toElicitationForm(record) }
        : { method: 'session/request_permission', params: [toPlanApprovalPermissionRequest(record)] };
    case 'question':
    case 'elicitation':
      return supportsElicitationForm
        ? { method: 'elicitation/create', params: toElicitationForm(record) }
        : { method: 'session/request_permission', params: toPerQuestionPermissionRequests(record) };
    default:
      return assertNever(record, 'interaction kind');
  }
}
