/**
 * Client answers → the result written to the child (APP-SERVER.md §6.2/§6.3, ARCHITECTURE.md §4.5).
 * Every function takes the client's reply as `unknown` (it comes off the wire), validates it,
 * and returns one of: an answer (the exact ZCode result), a dismissal (the client withdrew;
 * the interaction stays pending for the others — dismiss is not deny), or an invalid reply
 * (a typed rejection, APR-02: nothing is written to the child).
 */
import { z } from 'zod';
import { assertNever } from '../errors.js';
import type { UserInputResult } from '../wire/interactions.js';
import { PLAN_APPROVE_OPTION, PLAN_REJECT_OPTION, questionOptionId, SKIP_SENTINEL } from './interaction-requests.js';
import type {
  ElicitationInteraction,
  InteractionRecord,
  PermissionInteraction,
  PermissionResponse,
  PlanApprovalInteraction,
  QuestionInteraction,
  ZCodeQuestion,
} from './interaction-schema.js';

/** Result of `interaction/requestUserInput` (§6.3), as the simulator checks it (src/wire/interactions.ts). */
export type { UserInputResult };

/** What a client reply means for the interaction. */
export type ZcodeAnswer =
  | { type: 'answer'; result: PermissionResponse | UserInputResult; outcome: string }
  | { type: 'dismissed'; form?: true }
  | { type: 'invalid'; reason: string };

const DISMISSED: ZcodeAnswer = { type: 'dismissed' };
/**
 * A form's `cancel`: this client withdraws, as any dismissal; `form` marks it so the hub can tell
 * the agent `cancel` once the last client able to answer has withdrawn (docs/CLIENT-PROTOCOL.md
 * "Interactions").
 */
const FORM_CANCELLED: ZcodeAnswer = { type: 'dismissed', form: true };
const invalid = (reason: string): ZcodeAnswer => ({ type: 'invalid', reason });

// ACP replies, validated leniently (the SDK exports types but no runtime schemas).
const permissionReplySchema = z.looseObject({
  outcome: z.union([
    z.looseObject({ outcome: z.literal('cancelled') }),
    z.looseObject({ outcome: z.literal('selected'), optionId: z.string() }),
  ]),
});
const elicitationReplySchema = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).nullish(),
});

/** True when `optionId` is one the interaction offered over `session/request_permission`. */
export function isOfferedOption(record: PermissionInteraction | PlanApprovalInteraction, optionId: string): boolean {
  return record.kind === 'permission'
    ? record.options.some((o) => o.optionId === optionId)
    : optionId === PLAN_APPROVE_OPTION || optionId === PLAN_REJECT_OPTION;
}

/** Plan approval as ZCode reads it (§6.3): "approve" approves, other text rejects with feedback, decline rejects. */
export function planResult(
  record: PlanApprovalInteraction,
  decision: { approve: true } | { feedback: string } | { decline: true },
): ZcodeAnswer {
  if ('approve' in decision)
    return { type: 'answer', result: { action: 'accept', content: { answers: { [record.question]: 'approve' } } }, outcome: 'approved' };
  if ('feedback' in decision) {
    const feedback = decision.feedback.trim();
    if (feedback.length === 0) return planResult(record, { approve: true });
    return {
      type: 'answer',
      result: { action: 'accept', content: { answers: { [record.question]: feedback } } },
      outcome: 'rejected_with_feedback',
    };
  }
  return { type: 'answer', result: { action: 'decline' }, outcome: 'rejected' };
}

/**
 * A `session/request_permission` reply for a permission or plan approval. `selected` → the
 * chosen option's `response` verbatim (§6.2); `cancelled` → dismissed, not denied.
 */
export function permissionAnswerToZcode(record: PermissionInteraction | PlanApprovalInteraction, reply: unknown): ZcodeAnswer {
  const r = permissionReplySchema.safeParse(reply);
  if (!r.success) return invalid('Not a session/request_permission response');
  const outcome = r.data.outcome;
  if (outcome.outcome === 'cancelled') return DISMISSED;
  const optionId = outcome.optionId;
  if (!isOfferedOption(record, optionId)) return invalid(`Option not offered: ${optionId}`);
  if (record.kind === 'plan_approval') return planResult(record, optionId === PLAN_APPROVE_OPTION ? { approve: true } : { decline: true });
  const option = record.options.find((o) => o.optionId === optionId);
  return option === undefined ? invalid(`Option not offered: ${optionId}`) : { type: 'answer', result: option.response, outcome: optionId };
}

function nonBlank(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** One question's answer from form fields `q_i` (choice) and `q_i_other` (free text), per APP-SERVER.md §14.6. */
function formAnswer(
  q: ZCodeQuestion,
  choice: unknown,
  other: unknown,
): { ok: true; value?: string | string[] } | { ok: false; reason: string } {
  const offered = new Set(q.options.map((o) => o.value));
  const text = nonBlank(other) ? other.trim() : undefined;
  if (q.multiSelect === true) {
    const picked = choice === undefined || choice === null ? [] : Array.isArray(choice) ? choice : [choice];
    const values: string[] = [];
    for (const v of picked) {
      if (v === SKIP_SENTINEL) continue;
      if (typeof v !== 'string' || !offered.has(v)) return { ok: false, reason: `Not an offered answer to "${q.question}": ${String(v)}` };
      values.push(v);
    }
    // Free text is appended to the picked values (multi-select).
    if (text !== undefined) values.push(text);
    return values.length > 0 ? { ok: true, value: values } : { ok: true };
  }
  // Free text overrides the choice (single-select).
  if (text !== undefined) return { ok: true, value: text };
  if (choice === undefined || choice === null || choice === '' || choice === SKIP_SENTINEL) return { ok: true };
  if (typeof choice !== 'string' || !offered.has(choice))
    return { ok: false, reason: `Not an offered answer to "${q.question}": ${String(choice)}` };
  return { ok: true, value: choice };
}

/** `content.answers` keyed by question text (§6.3), from the form's `q_i` / `q_i_other` fields. */
function answersFromForm(
  questions: readonly ZCodeQuestion[],
  content: Record<string, unknown>,
): { answers: Record<string, string | string[]> } | { reason: string } {
  const answers: Record<string, string | string[]> = {};
  for (const [i, q] of questions.entries()) {
    const a = formAnswer(q, content[`q_${i}`], content[`q_${i}_other`]);
    if (!a.ok) return { reason: a.reason };
    if (a.value !== undefined) answers[q.question] = a.value;
  }
  return { answers };
}

/**
 * An `elicitation/create` reply → `interaction/requestUserInput` result (§6.3). `cancel` is a
 * form dismissal (this client withdraws); `decline` declines (plan: rejected without feedback); `accept` maps the fields.
 */
export function elicitationAnswerToZcode(
  record: QuestionInteraction | PlanApprovalInteraction | ElicitationInteraction,
  reply: unknown,
): ZcodeAnswer {
  const r = elicitationReplySchema.safeParse(reply);
  if (!r.success) return invalid('Not an elicitation/create response');
  const { action } = r.data;
  const content = r.data.content ?? {};
  if (action === 'cancel') return FORM_CANCELLED;
  switch (record.kind) {
    case 'plan_approval':
      if (action === 'decline') return planResult(record, { decline: true });
      return planResult(record, { feedback: typeof content['feedback'] === 'string' ? content['feedback'] : '' });
    case 'question': {
      if (action === 'decline') return { type: 'answer', result: { action: 'decline' }, outcome: 'declined' };
      const a = answersFromForm(record.questions, content);
      return 'reason' in a
        ? invalid(a.reason)
        : { type: 'answer', result: { action: 'accept', content: { answers: a.answers } }, outcome: 'answered' };
    }
    case 'elicitation': {
      if (action === 'decline') return { type: 'answer', result: { action: 'decline' }, outcome: 'declined' };
      // The MCP server's own schema was forwarded: its field-keyed content is re-keyed the way the server reads it.
      if (record.requestedSchema !== undefined)
        return { type: 'answer', result: { action: 'accept', content: schemaContentToZcode(record, content) }, outcome: 'answered' };
      const a = answersFromForm(record.questions, content);
      return 'reason' in a
        ? invalid(a.reason)
        : { type: 'answer', result: { action: 'accept', content: { answers: a.answers } }, outcome: 'answered' };
    }
    default:
      return assertNever(record, 'form interaction');
  }
}

/**
 * A form filled against the MCP server's `requestedSchema` (keyed by field) → the content the
 * server reads (§6.3): it takes answers only from `answers[<question text>]`, `answer_<i>` or
 * `answer`, never by field name, so field-keyed content would reach the MCP server as `{}`. The
 * server derives one question per schema property, in order; a question whose `header` is the
 * field name wins over the position. Values become strings (arrays: strings each).
 */
export function schemaContentToZcode(record: ElicitationInteraction, content: Record<string, unknown>): Record<string, unknown> {
  const properties = record.requestedSchema?.['properties'];
  const fields = properties !== null && typeof properties === 'object' ? Object.keys(properties) : Object.keys(content);
  const answers: Record<string, string | string[]> = {};
  const indexed: Record<string, string | string[]> = {};
  fields.forEach((field, i) => {
    const v = content[field];
    if (v === undefined || v === null) return;
    const text = Array.isArray(v) ? v.map((x) => String(x)) : typeof v === 'object' ? JSON.stringify(v) : String(v);
    const question = record.questions.find((q) => q.header === field) ?? record.questions[i];
    const index = question === undefined ? i : record.questions.indexOf(question);
    if (question !== undefined) answers[question.question] = text;
    indexed[`answer_${index}`] = text;
  });
  return { answers, ...indexed };
}

/**
 * The per-question permission fallback's replies (in question order) → one §6.3 result.
 * Any `cancelled` reply is a dismissal; `__skip__` skips that question.
 */
export function perQuestionAnswersToZcode(record: QuestionInteraction | ElicitationInteraction, replies: readonly unknown[]): ZcodeAnswer {
  if (replies.length !== record.questions.length) return invalid(`Expected ${record.questions.length} answers, got ${replies.length}`);
  const answers: Record<string, string | string[]> = {};
  for (const [i, q] of record.questions.entries()) {
    const r = permissionReplySchema.safeParse(replies[i]);
    if (!r.success) return invalid('Not a session/request_permission response');
    const outcome = r.data.outcome;
    if (outcome.outcome === 'cancelled') return DISMISSED;
    if (outcome.optionId === SKIP_SENTINEL) continue;
    const j = q.options.findIndex((_, k) => questionOptionId(k) === outcome.optionId);
    const option = q.options[j];
    if (option === undefined) return invalid(`Option not offered: ${outcome.optionId}`);
    answers[q.question] = q.multiSelect === true ? [option.value] : option.value;
  }
  return { type: 'answer', result: { action: 'accept', content: { answers } }, outcome: 'answered' };
}

/**
 * REST / web-app answer body (`POST /api/interactions/{id}/answer`), one shape per kind:
 * - permission: `{optionId}` (one of the offered ZCode option ids);
 * - question: `{answers: {"<question text>": string | string[]}}` (free text allowed, blank = skipped) or `{decline: true}`;
 * - plan_approval: `{approve: true}` | `{feedback: "text"}` (reject with feedback) | `{decline: true}` (reject);
 * - elicitation: `{content: {...}}` (the MCP form's fields, verbatim) or `{answers}` / `{decline: true}`.
 */
export const restAnswerBodySchema = z.union([
  z.strictObject({ optionId: z.string().min(1).max(256) }),
  z.strictObject({ answers: z.record(z.string().max(4_096), z.union([z.string().max(65_536), z.array(z.string().max(65_536)).max(256)])) }),
  z.strictObject({ approve: z.literal(true) }),
  z.strictObject({ feedback: z.string().min(1).max(65_536) }),
  z.strictObject({ decline: z.literal(true) }),
  z.strictObject({ content: z.record(z.string().max(4_096), z.unknown()) }),
]);
export type RestAnswerBody = z.infer<typeof restAnswerBodySchema>;

/** Keeps the non-blank answers to questions that were asked; unknown question texts are invalid. */
function restAnswers(
  questions: readonly ZCodeQuestion[],
  answers: Record<string, string | string[]>,
): { answers: Record<string, string | string[]> } | { reason: string } {
  const asked = new Set(questions.map((q) => q.question));
  const out: Record<string, string | string[]> = {};
  for (const [question, value] of Object.entries(answers)) {
    if (!asked.has(question)) return { reason: `Not a question of this interaction: ${question}` };
    const kept = Array.isArray(value) ? value.filter(nonBlank) : nonBlank(value) ? value : undefined;
    if (kept !== undefined && (!Array.isArray(kept) || kept.length > 0)) out[question] = kept;
  }
  return { answers: out };
}

/** A REST/web answer body → the ZCode result (same race and validation as ACP answers). */
export function restAnswerToZcode(record: InteractionRecord, body: unknown): ZcodeAnswer {
  const parsed = restAnswerBodySchema.safeParse(body);
  if (!parsed.success) return invalid('Invalid answer body');
  const b = parsed.data;
  switch (record.kind) {
    case 'permission': {
      // `{decline: true}` (docs/CLIENT-PROTOCOL.md "REST answer body": any kind) picks the deny option.
      if ('decline' in b) {
        const deny = record.options.find((o) => o.response.decision === 'deny');
        return deny
          ? { type: 'answer', result: deny.response, outcome: deny.optionId }
          : { type: 'answer', result: { decision: 'deny' }, outcome: 'declined' };
      }
      if (!('optionId' in b)) return invalid('A permission is answered with {optionId} or {decline:true}');
      return permissionAnswerToZcode(record, { outcome: { outcome: 'selected', optionId: b.optionId } });
    }
    case 'plan_approval':
      if ('approve' in b || 'feedback' in b || 'decline' in b) return planResult(record, b);
      return invalid('A plan approval is answered with {approve:true}, {feedback} or {decline:true}');
    case 'question':
    case 'elicitation': {
      if ('decline' in b) return { type: 'answer', result: { action: 'decline' }, outcome: 'declined' };
      if ('content' in b && record.kind === 'elicitation')
        return { type: 'answer', result: { action: 'accept', content: schemaContentToZcode(record, b.content) }, outcome: 'answered' };
      if (!('answers' in b)) return invalid('A question is answered with {answers} or {decline:true}');
      const a = restAnswers(record.questions, b.answers);
      return 'reason' in a
        ? invalid(a.reason)
        : { type: 'answer', result: { action: 'accept', content: { answers: a.answers } }, outcome: 'answered' };
    }
    default:
      return assertNever(record, 'interaction kind');
  }
}
