/**
 * One client's copy of an interaction: the ACP request(s) shaped for that client's declared
 * capabilities (never OR-merged, HUB-DESIGN §4.5) and the parsing of its reply into a ZCode
 * result. Shapes follow seed 000 "Bridge routing":
 * - permission → `session/request_permission` (ZCode option ids kept);
 * - question → `elicitation/create` form (`q_<i>` choice + `q_<i>_other` free text) with
 *   `elicitation.form`, else one `session/request_permission` per question;
 * - plan approval → a feedback form (empty = approve) or approve/reject options.
 * Replying `cancelled` / `cancel` only dismisses this copy.
 */
import { z } from 'zod';
import type { ClientPort } from './client-port.js';
import type { InteractionCopy, InteractionRecord } from './interactions.js';
import { declineResult, permissionResult, planResult, questionResult, type ParsedInteraction } from './interaction-shapes.js';

/** What a copy's reply amounts to. */
export type CopyReply =
  | { type: 'answer'; result: unknown; outcome: Record<string, unknown> }
  | { type: 'dismiss' }
  | { type: 'invalid'; reason: string };

const SKIP = '__skip__';
const PLAN_APPROVE = 'approve';
const PLAN_REJECT = 'reject';

const permissionReplySchema = z.looseObject({
  outcome: z.union([z.looseObject({ outcome: z.literal('cancelled') }), z.looseObject({ outcome: z.literal('selected'), optionId: z.string() })]),
});
const elicitationReplySchema = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.unknown()).optional(),
});

interface AcpRequest {
  method: string;
  params: Record<string, unknown>;
}

/**
 * Sends this client its copy and calls `onReply` once with the client's verdict. A rejected
 * request (withdrawn, connection gone, client error) is silence, never an answer.
 */
export function openCopy(record: InteractionRecord, parsed: ParsedInteraction, client: ClientPort, onReply: (reply: CopyReply) => void): InteractionCopy {
  const requests = shapeFor(record, parsed, client);
  const ids: Array<string | number> = [];
  let open = true;
  const replies: unknown[] = new Array(requests.length);
  let remaining = requests.length;
  const finish = (reply: CopyReply): void => {
    if (!open) return;
    open = false;
    // A dismiss of one per-question request withdraws the rest of this client's copy.
    if (reply.type !== 'answer') for (let i = 0; i < ids.length; i += 1) if (replies[i] === undefined) client.cancelRequest(ids[i] as string | number);
    onReply(reply);
  };
  requests.forEach((req, i) => {
    const { id, response } = client.request(req.method, req.params);
    ids.push(id);
    response.then(
      (value) => {
        if (!open) return;
        replies[i] = value ?? null;
        const single = interpretOne(parsed, req, value);
        if (single.type !== 'answer' || requests.length === 1) return finish(single);
        remaining -= 1;
        if (remaining === 0) finish(combinePerQuestion(parsed, replies, requests));
      },
      () => {
        // Withdrawn or the connection closed: this copy is simply gone (§4.5 "hold").
        open = false;
      },
    );
  });
  return {
    withdraw(): void {
      if (!open) return;
      open = false;
      for (let i = 0; i < ids.length; i += 1) if (replies[i] === undefined) client.cancelRequest(ids[i] as string | number);
    },
  };
}

function meta(record: InteractionRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { zcode: { interactionId: record.view.interactionId, kind: record.view.kind, ...extra } };
}

function toolCall(record: InteractionRecord, title: string, rawInput?: unknown): Record<string, unknown> {
  return { toolCallId: record.view.toolCallId ?? record.view.interactionId, title, status: 'pending', ...(rawInput === undefined ? {} : { rawInput }) };
}

/** The ACP request(s) for one client. */
export function shapeFor(record: InteractionRecord, parsed: ParsedInteraction, client: Pick<ClientPort, 'elicitationForm'>): AcpRequest[] {
  const sessionId = record.view.sessionId;
  switch (parsed.kind) {
    case 'permission':
      return [
        {
          method: 'session/request_permission',
          params: { sessionId, toolCall: toolCall(record, record.view.title, parsed.params.input), options: record.view.options ?? [], _meta: meta(record) },
        },
      ];
    case 'question': {
      const qs = record.view.questions ?? [];
      if (client.elicitationForm) {
        const properties: Record<string, unknown> = {};
        qs.forEach((q, i) => {
          const choices = [...q.options.map((o) => ({ const: o.label, title: o.label })), { const: SKIP, title: 'Skip this question' }];
          properties[`q_${i}`] = q.multiSelect
            ? { type: 'array', title: q.question, items: { anyOf: choices } }
            : { type: 'string', title: q.question, oneOf: choices };
          properties[`q_${i}_other`] = { type: 'string', title: '↳ or type a custom value' };
        });
        const message = qs.length === 1 ? (qs[0]?.question ?? record.view.title) : `Please answer ${qs.length} questions.`;
        return [{ method: 'elicitation/create', params: { mode: 'form', sessionId, message, requestedSchema: { type: 'object', properties, required: [] }, _meta: meta(record) } }];
      }
      return qs.map((q, i) => ({
        method: 'session/request_permission',
        params: {
          sessionId,
          toolCall: toolCall(record, q.question),
          options: [...q.options.map((o, j) => ({ optionId: `q${i}_o${j}`, name: o.label, kind: 'allow_once' })), { optionId: `q${i}_skip`, name: 'Skip', kind: 'reject_once' }],
          _meta: meta(record, { questionIndex: i }),
        },
      }));
    }
    case 'plan_approval': {
      const plan = record.view.plan ?? '';
      if (client.elicitationForm) {
        const message = `${plan}\n\nLeave the box empty and submit to approve; type feedback to reject and redirect.`.trim();
        return [
          {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              sessionId,
              message,
              requestedSchema: { type: 'object', properties: { feedback: { type: 'string', title: 'Feedback', description: 'Empty = approve the plan. Anything typed = reject and use this text as the redirection.' } }, required: [] },
              _meta: meta(record),
            },
          },
        ];
      }
      return [
        {
          method: 'session/request_permission',
          params: {
            sessionId,
            toolCall: toolCall(record, plan ? `Approve this plan?\n\n${plan}` : record.view.title),
            options: [
              { optionId: PLAN_APPROVE, name: 'Approve', kind: 'allow_once' },
              { optionId: PLAN_REJECT, name: 'Reject', kind: 'reject_once' },
            ],
            _meta: meta(record),
          },
        },
      ];
    }
  }
}

function guard(fn: () => CopyReply): CopyReply {
  try {
    return fn();
  } catch (err) {
    return { type: 'invalid', reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Interprets one reply. For per-question copies an `answer` here is only that question's. */
function interpretOne(parsed: ParsedInteraction, req: AcpRequest, value: unknown): CopyReply {
  return guard(() => {
    if (req.method === 'session/request_permission') {
      const r = permissionReplySchema.safeParse(value);
      if (!r.success) return { type: 'invalid', reason: 'malformed permission reply' };
      if (r.data.outcome.outcome === 'cancelled') return { type: 'dismiss' };
      const optionId = r.data.outcome.optionId;
      const offered = z.array(z.looseObject({ optionId: z.string() })).parse(req.params.options);
      if (!offered.some((o) => o.optionId === optionId)) return { type: 'invalid', reason: `option ${optionId} was not offered` };
      switch (parsed.kind) {
        case 'permission':
          return { type: 'answer', result: permissionResult(parsed, optionId), outcome: { optionId } };
        case 'plan_approval':
          return optionId === PLAN_APPROVE ? { type: 'answer', result: planResult(parsed, undefined), outcome: { approved: true } } : { type: 'answer', result: declineResult(parsed), outcome: { approved: false } };
        case 'question':
          return { type: 'answer', result: null, outcome: { optionId } };
      }
    }
    const r = elicitationReplySchema.safeParse(value);
    if (!r.success) return { type: 'invalid', reason: 'malformed elicitation reply' };
    if (r.data.action === 'cancel') return { type: 'dismiss' };
    if (r.data.action === 'decline') return { type: 'answer', result: declineResult(parsed), outcome: { declined: true } };
    const content = r.data.content ?? {};
    if (parsed.kind === 'plan_approval') {
      const feedback = typeof content.feedback === 'string' ? content.feedback : '';
      return { type: 'answer', result: planResult(parsed, feedback), outcome: feedback.trim() ? { approved: false, feedback } : { approved: true } };
    }
    const answers = formAnswers(parsed, content);
    return { type: 'answer', result: questionResult(parsed, answers), outcome: { answers } };
  });
}

/** `q_<i>` / `q_<i>_other` form content → answers keyed by question text (seed 000). */
function formAnswers(parsed: ParsedInteraction, content: Record<string, unknown>): Record<string, string | string[]> {
  const answers: Record<string, string | string[]> = {};
  const qs = parsed.kind === 'question' ? (parsed.params.questions ?? []) : [];
  qs.forEach((q, i) => {
    const pick = content[`q_${i}`];
    const other = typeof content[`q_${i}_other`] === 'string' ? (content[`q_${i}_other`] as string).trim() : '';
    const picked = (Array.isArray(pick) ? pick : pick === undefined ? [] : [pick]).filter((v): v is string => typeof v === 'string' && v !== SKIP);
    if (q.multiSelect) {
      const all = other ? [...picked, other] : picked;
      if (all.length > 0) answers[q.question] = all;
    } else if (other || picked[0]) answers[q.question] = other || (picked[0] as string);
  });
  return answers;
}

/** Per-question permission replies → one AskUserQuestion answer. */
function combinePerQuestion(parsed: ParsedInteraction, replies: unknown[], requests: AcpRequest[]): CopyReply {
  return guard(() => {
    const answers: Record<string, string> = {};
    const qs = parsed.kind === 'question' ? (parsed.params.questions ?? []) : [];
    replies.forEach((value, i) => {
      const r = permissionReplySchema.safeParse(value);
      const q = qs[i];
      if (!r.success || r.data.outcome.outcome !== 'selected' || !q) return;
      const optionId = r.data.outcome.optionId;
      const offered = z.array(z.looseObject({ optionId: z.string(), name: z.string() })).parse(requests[i]?.params.options);
      const option = offered.find((o) => o.optionId === optionId);
      if (option && !optionId.endsWith('_skip')) answers[q.question] = option.name;
    });
    return { type: 'answer', result: questionResult(parsed, answers), outcome: { answers } };
  });
}
