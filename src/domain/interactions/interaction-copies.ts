/**
 * One client's copy of an interaction: the ACP request(s) shaped for that client's declared
 * capabilities by src/acp (`shapeForClient`: never OR-merged, ARCHITECTURE.md §4.5) and the reply
 * turned into a ZCode result by src/acp's answer mappers. Replying `cancelled` / `cancel`
 * only dismisses this copy; a rejected request (withdrawn, connection gone) is silence.
 */
import {
  elicitationAnswerToZcode,
  permissionAnswerToZcode,
  perQuestionAnswersToZcode,
  shapeForClient,
  toAcpPermissionRequest,
  type InteractionRecord as AcpInteraction,
  type ZcodeAnswer,
} from '../../acp/interactions.js';
import { boundedToolCall } from '../../acp/bounded-tool-call.js';
import type { ClientPort } from '../delivery/client-port.js';
import type { InteractionCopy, InteractionView } from './interactions.js';
import { openStepwiseCopy } from './stepwise-copy.js';

/**
 * Sends this client its copy; `onReply` is called at most once with the client's verdict and the
 * id of the request it answered. `zcodeMeta` is added to each request's `_meta.zcode`.
 * `questionPrefaceMs` spaces a question card's tool_call and its request on clients that are
 * asked one question at a time (stepwise-copy.ts). `onLate` hears, with its request id, an
 * answer (not a dismissal) the client sends after its copy was withdrawn.
 */
export function openCopy(
  acp: AcpInteraction,
  client: ClientPort,
  onReply: (reply: ZcodeAnswer, requestId?: string | number) => void,
  questionPrefaceMs = 0,
  zcodeMeta?: Record<string, unknown>,
  onLate?: (requestId: string | number) => void,
): InteractionCopy {
  if (client.oneQuestionAtATime === true && !client.elicitationForm && (acp.kind === 'question' || acp.kind === 'elicitation')) {
    return openStepwiseCopy(acp, client, questionPrefaceMs, onReply);
  }
  const shaped = shapeForClient(acp, client.elicitationForm);
  const shapedRequests: unknown[] = shaped.method === 'elicitation/create' ? [shaped.params] : shaped.params;
  const requests = zcodeMeta === undefined ? shapedRequests : shapedRequests.map((p) => withZcodeMeta(p, zcodeMeta));
  const ids: Array<string | number> = [];
  const replies: unknown[] = [];
  const answered: boolean[] = requests.map(() => false);
  let open = true;
  const withdrawRest = (): void => {
    ids.forEach((id, i) => {
      if (!answered[i]) client.cancelRequest(id);
    });
  };
  const finish = (reply: ZcodeAnswer, id: string | number): void => {
    if (!open) return;
    open = false;
    if (reply.type !== 'answer') withdrawRest();
    onReply(reply, id);
  };
  requests.forEach((params, i) => {
    const late =
      onLate === undefined
        ? undefined
        : (value: unknown): void => {
            if (!isDismissal(value)) onLate(ids[i] as string | number);
          };
    const { id, response } = client.request(shaped.method, params, late);
    ids.push(id);
    response.then(
      (value) => {
        if (!open) return;
        answered[i] = true;
        replies[i] = value;
        if (shaped.method === 'elicitation/create')
          return finish(elicitationAnswerToZcode(acp as Exclude<AcpInteraction, { kind: 'permission' }>, value), id);
        if (acp.kind === 'permission' || acp.kind === 'plan_approval') return finish(permissionAnswerToZcode(acp, value), id);
        // Per-question fallback: one dismissed question dismisses the whole copy.
        if (isCancelledOutcome(value)) return finish({ type: 'dismissed' }, id);
        if (answered.every(Boolean)) finish(perQuestionAnswersToZcode(acp, replies), id);
      },
      () => {
        open = false;
      },
    );
  });
  return {
    withdraw(): void {
      if (!open) return;
      open = false;
      withdrawRest();
    },
  };
}

/** The hub's own `_meta.zcode` fields of a copy: `approval` (ask rules) and a question's kept `partialAnswers`. */
export function copyMeta(v: InteractionView): Record<string, unknown> | undefined {
  const extra = {
    ...(v.approval === undefined ? {} : { approval: v.approval }),
    ...(v.partialAnswers === undefined || v.partialAnswers.length === 0 ? {} : { partialAnswers: v.partialAnswers }),
  };
  return Object.keys(extra).length === 0 ? undefined : extra;
}

/** `params._meta.zcode` with `extra` added (the hub's own fields: `approval`). */
function withZcodeMeta(params: unknown, extra: Record<string, unknown>): unknown {
  if (typeof params !== 'object' || params === null) return params;
  const p = params as { _meta?: Record<string, unknown> };
  const zcode = (p._meta?.['zcode'] as Record<string, unknown> | undefined) ?? {};
  return { ...p, _meta: { ...p._meta, zcode: { ...zcode, ...extra } } };
}

/** The reply a withdrawn request asks for (`cancelled` outcome, `cancel` action): not an answer. */
function isDismissal(value: unknown): boolean {
  if (isCancelledOutcome(value)) return true;
  return typeof value === 'object' && value !== null && (value as { action?: unknown }).action === 'cancel';
}

function isCancelledOutcome(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const outcome = (value as { outcome?: unknown }).outcome;
  return typeof outcome === 'object' && outcome !== null && (outcome as { outcome?: unknown }).outcome === 'cancelled';
}

/** The ZCode result of a decline/deny — for cancel, the pending cap and lost records (§4.5, §6.2/§6.3). */
export function declineResult(acp: AcpInteraction, reason: string): unknown {
  if (acp.kind === 'permission') {
    const deny = acp.options.find((o) => o.response.decision === 'deny');
    return deny ? { ...deny.response, reason } : { decision: 'deny', reason };
  }
  return { action: 'decline', reason };
}

/** The client-facing InteractionView of a new interaction (docs/CLIENT-PROTOCOL.md). */
export function toView(
  acp: AcpInteraction,
  createdAt: number,
  acpOptionKind: (k: string) => string,
  textMax: number = Number.POSITIVE_INFINITY,
): InteractionView {
  const base = {
    interactionId: acp.requestId,
    sessionId: acp.sessionId,
    ...(acp.toolCallId === undefined ? {} : { toolCallId: acp.toolCallId }),
    createdAt,
    state: 'pending' as const,
  };
  switch (acp.kind) {
    case 'permission':
      return {
        ...base,
        kind: 'permission',
        title: acp.reason ? `${acp.title} — ${acp.reason}` : acp.title,
        options: acp.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: acpOptionKind(o.kind) })),
        toolCall: boundedToolCall(toAcpPermissionRequest(acp).toolCall, textMax),
      };
    case 'plan_approval':
      return { ...base, kind: 'plan_approval', title: acp.title, ...(acp.plan === undefined ? {} : { plan: acp.plan }) };
    case 'question':
    case 'elicitation':
      // MCP elicitations are shown as questions (the client contract has three kinds).
      return {
        ...base,
        kind: 'question',
        title: acp.title,
        questions: acp.questions.map((q) => ({
          question: q.question,
          header: q.header,
          options: q.options.map((o) => ({ label: o.label, ...(o.description === undefined ? {} : { description: o.description }) })),
          multiSelect: q.multiSelect === true,
        })),
      };
  }
}
