/**
 * Pure mapping between ZCode interaction requests (ZCODE-PROTOCOL §6.2/§6.3) and what clients
 * see and answer: the `InteractionView`, the ACP request shapes per client capability
 * (HUB-DESIGN §4.5, seed 000 "Bridge routing") and the exact ZCode results of every answer.
 *
 * Written here because src/acp/interactions.ts had not landed when the race needed it; the
 * functions are pure so they can move there unchanged.
 */
import { z } from 'zod';
import { HubError } from '../errors.js';
import type { InteractionKind, InteractionView } from './interactions.js';

const permissionOptionSchema = z.looseObject({ optionId: z.string().min(1), kind: z.string(), name: z.string(), description: z.string().optional(), response: z.unknown() });
const questionSchema = z.looseObject({
  question: z.string().min(1),
  header: z.string().default(''),
  options: z.array(z.looseObject({ value: z.string().optional(), label: z.string(), description: z.string().optional() })).default([]),
  multiSelect: z.boolean().optional(),
});

/** `interaction/requestPermission` params (§6.2), leniently. */
export const permissionParamsSchema = z.looseObject({
  requestId: z.string().min(1),
  sessionId: z.string().min(1),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  reason: z.string().optional(),
  input: z.unknown().optional(),
  options: z.array(permissionOptionSchema).min(1),
});

/** `interaction/requestUserInput` params (§6.3), leniently. */
export const userInputParamsSchema = z.looseObject({
  requestId: z.string().min(1),
  sessionId: z.string().min(1),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  prompt: z.string().optional(),
  questions: z.array(questionSchema).optional(),
  input: z.unknown().optional(),
  schema: z.unknown().optional(),
});

/** The parsed request, discriminated by kind. */
export type ParsedInteraction =
  | { kind: 'permission'; params: z.infer<typeof permissionParamsSchema> }
  | { kind: 'question'; params: z.infer<typeof userInputParamsSchema> }
  | { kind: 'plan_approval'; params: z.infer<typeof userInputParamsSchema> };

/** The plan-approval question text the child expects answers under (§6.3). */
export const PLAN_QUESTION = 'Review this implementation plan.';
const ACP_KIND: Record<string, 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always'> = {
  allow_once: 'allow_once',
  allow_always: 'allow_always',
  deny: 'reject_once',
  reject_once: 'reject_once',
  reject_always: 'reject_always',
};

/** Parses and classifies a ZCode interaction request; throws on params that are no interaction. */
export function classifyInteraction(method: string, params: unknown): ParsedInteraction {
  if (method === 'interaction/requestPermission') return { kind: 'permission', params: permissionParamsSchema.parse(params) };
  const p = userInputParamsSchema.parse(params);
  const schema = z.looseObject({ interaction: z.string().optional() }).safeParse(p.schema);
  const plan = p.toolName === 'ExitPlanMode' || (schema.success && schema.data.interaction === 'plan_approval');
  return plan ? { kind: 'plan_approval', params: p } : { kind: 'question', params: p };
}

function planText(input: unknown): string | undefined {
  const parsed = z.looseObject({ plan: z.string() }).safeParse(input);
  return parsed.success ? parsed.data.plan : undefined;
}

/** The client-facing view of a new interaction. */
export function toView(parsed: ParsedInteraction, createdAt: number): InteractionView {
  const base = { interactionId: parsed.params.requestId, sessionId: parsed.params.sessionId, kind: parsed.kind as InteractionKind, createdAt, state: 'pending' as const };
  const toolCallId = parsed.params.toolCallId === undefined ? {} : { toolCallId: parsed.params.toolCallId };
  switch (parsed.kind) {
    case 'permission': {
      const p = parsed.params;
      return { ...base, ...toolCallId, title: p.reason ? `${p.toolName ?? 'Tool'}: ${p.reason}` : (p.toolName ?? 'Permission'), options: p.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: ACP_KIND[o.kind] ?? 'allow_once' })) };
    }
    case 'question': {
      const qs = parsed.params.questions ?? [];
      return {
        ...base,
        ...toolCallId,
        title: parsed.params.prompt ?? qs[0]?.question ?? 'Question',
        questions: qs.map((q) => ({ question: q.question, header: q.header, options: q.options.map((o) => ({ label: o.label, ...(o.description === undefined ? {} : { description: o.description }) })), multiSelect: q.multiSelect ?? false })),
      };
    }
    case 'plan_approval': {
      const plan = planText(parsed.params.input);
      return { ...base, ...toolCallId, title: PLAN_QUESTION, ...(plan === undefined ? {} : { plan }) };
    }
  }
}

/** The ZCode result of an explicit decline/deny (also used for cancel, cap and lost, §4.5). */
export function declineResult(parsed: ParsedInteraction, reason?: string): unknown {
  if (parsed.kind === 'permission') {
    const deny = parsed.params.options.find((o) => o.kind === 'deny' || o.kind === 'reject_once');
    if (deny && reason === undefined) return deny.response;
    return { decision: 'deny', ...(reason === undefined ? {} : { reason }) };
  }
  return { action: 'decline', ...(reason === undefined ? {} : { reason }) };
}

/** A chosen permission option → its `response` verbatim (§6.2); an option not offered is refused. */
export function permissionResult(parsed: ParsedInteraction, optionId: string): unknown {
  if (parsed.kind !== 'permission') throw new HubError('HUB_ERR_BAD_REQUEST', 'This interaction has no options');
  const option = parsed.params.options.find((o) => o.optionId === optionId);
  if (!option) throw new HubError('HUB_ERR_BAD_REQUEST', `Option ${optionId} was not offered`, { optionId });
  return option.response;
}

/** Question answers keyed by question text → the canonical AskUserQuestion result (§6.3). */
export function questionResult(parsed: ParsedInteraction, answers: Record<string, string | string[]>): unknown {
  if (parsed.kind !== 'question') throw new HubError('HUB_ERR_BAD_REQUEST', 'This interaction is not a question');
  const known = new Set((parsed.params.questions ?? []).map((q) => q.question));
  const out: Record<string, string | string[]> = {};
  for (const [question, value] of Object.entries(answers)) {
    if (!known.has(question)) throw new HubError('HUB_ERR_BAD_REQUEST', 'Answer to a question that was not asked', { question });
    const v = Array.isArray(value) ? value.map((s) => s.trim()).filter((s) => s.length > 0) : value.trim();
    if (v.length > 0) out[question] = v; // blank = skipped (§6.3)
  }
  return { action: 'accept', content: { answers: out } };
}

/** Plan approval: approve, or reject with feedback (non-empty text, §6.3). */
export function planResult(parsed: ParsedInteraction, feedback: string | undefined): unknown {
  if (parsed.kind !== 'plan_approval') throw new HubError('HUB_ERR_BAD_REQUEST', 'This interaction is not a plan approval');
  const text = feedback?.trim() ?? '';
  return { action: 'accept', content: { answers: { [PLAN_QUESTION]: text.length === 0 ? 'approve' : text } } };
}

/** REST answer body (docs/CLIENT-PROTOCOL.md): permission `{optionId}`, question `{answers}`, plan `{approve}|{feedback}`, any `{decline}`. */
export const restAnswerSchema = z.union([
  z.strictObject({ optionId: z.string().min(1) }),
  z.strictObject({ answers: z.record(z.string(), z.union([z.string(), z.array(z.string())])) }),
  z.strictObject({ approve: z.literal(true) }),
  z.strictObject({ feedback: z.string() }),
  z.strictObject({ decline: z.literal(true) }),
]);
export type RestAnswer = z.infer<typeof restAnswerSchema>;

/** A REST answer → `{result, outcome}`; throws HUB_ERR_BAD_REQUEST when it does not fit the interaction. */
export function restAnswerToZcode(parsed: ParsedInteraction, answer: unknown): { result: unknown; outcome: Record<string, unknown> } {
  const a = restAnswerSchema.safeParse(answer);
  if (!a.success) throw new HubError('HUB_ERR_BAD_REQUEST', 'Invalid answer', { issues: a.error.issues.slice(0, 5) });
  const v = a.data;
  if ('decline' in v) return { result: declineResult(parsed), outcome: { declined: true } };
  if ('optionId' in v) return { result: permissionResult(parsed, v.optionId), outcome: { optionId: v.optionId } };
  if ('answers' in v) return { result: questionResult(parsed, v.answers), outcome: { answers: v.answers } };
  if ('approve' in v) return { result: planResult(parsed, undefined), outcome: { approved: true } };
  return { result: planResult(parsed, v.feedback), outcome: v.feedback.trim() ? { approved: false, feedback: v.feedback } : { approved: true } };
}
