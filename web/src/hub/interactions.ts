/**
 * Pending interactions (ARCHITECTURE.md §4.5) as the app keeps them: from a live request
 * (`session/request_permission`, `elicitation/create`) or from the inbox list
 * (`InteractionView`, CLIENT-PROTOCOL "Interactions"), and the answers each kind takes.
 */
import { arr, bool, idOf, rec, str, zmeta, type Rec } from '../wire.js';
import { approvalInMeta, readApproval, readMayAnswer, type ApprovalWire } from './approval-wire.js';
import { partialAnswersOf, type PartialAnswerView } from './question-steps.js';

export type InteractionKind = 'permission' | 'question' | 'plan_approval';

export interface OptionView {
  optionId: string;
  name: string;
  kind: string;
}
export interface QuestionView {
  question: string;
  header: string;
  options: Array<{ label: string; description?: string }>;
  multiSelect: boolean;
}

export interface PendingInteraction {
  interactionId: string;
  sessionId: string;
  /** The machine that asks; undefined = the home hub. */
  hubId?: string;
  kind: InteractionKind;
  title: string;
  createdAt?: number;
  toolCallId?: string;
  /** Present when the hub sent this connection a request we must answer. */
  rpc?: { id: string | number; method: 'session/request_permission' | 'elicitation/create'; params: Rec };
  options?: OptionView[];
  questions?: QuestionView[];
  plan?: string;
  /** A permission's tool call from the hub's view (`InteractionView.toolCall`), for a copy without the request. */
  toolCall?: Rec;
  /** For whom it waits under an `ask` rule and the votes so far (the hub's `approval`), when a rule holds it. */
  approval?: ApprovalWire;
  /** The hub's `mayAnswer` of a view made for this device (inbox, `_zcode/interaction_opened`). */
  mayAnswer?: boolean;
  /** A question's answers the hub keeps so far, by whom (CLIENT-PROTOCOL "Partial answers"). */
  partialAnswers?: PartialAnswerView[];
}

function withPartial(v: unknown): { partialAnswers?: PartialAnswerView[] } {
  const partialAnswers = partialAnswersOf(v);
  return partialAnswers ? { partialAnswers } : {};
}

function withApproval(approval: ApprovalWire | undefined): { approval?: ApprovalWire } {
  return approval ? { approval } : {};
}

function kindOf(v: unknown, fallback: InteractionKind): InteractionKind {
  return v === 'permission' || v === 'question' || v === 'plan_approval' ? v : fallback;
}

function optionsOf(v: unknown): OptionView[] {
  return arr(v).flatMap((o) => {
    const r = rec(o);
    const optionId = str(r?.['optionId']);
    return r && optionId ? [{ optionId, name: str(r['name']) ?? optionId, kind: str(r['kind']) ?? 'other' }] : [];
  });
}

/** `session/request_permission` → a pending interaction. */
export function fromPermissionRequest(id: string | number, params: unknown): PendingInteraction | undefined {
  const p = rec(params);
  const sessionId = str(p?.['sessionId']);
  if (!p || !sessionId) return undefined;
  const z = zmeta(p);
  const tool = rec(p['toolCall']) ?? {};
  return {
    interactionId: str(z['interactionId']) ?? `rpc:${String(id)}`,
    sessionId,
    kind: kindOf(z['kind'], 'permission'),
    title: str(tool['title']) ?? str(z['title']) ?? 'Permission',
    toolCallId: str(tool['toolCallId']),
    rpc: { id, method: 'session/request_permission', params: p },
    options: optionsOf(p['options']),
    ...withApproval(approvalInMeta(p)),
  };
}

/** `elicitation/create` (form mode) → a pending interaction. */
export function fromElicitation(id: string | number, params: unknown): PendingInteraction | undefined {
  const p = rec(params);
  const sessionId = str(p?.['sessionId']);
  if (!p || !sessionId) return undefined;
  const z = zmeta(p);
  const props = rec(rec(p['requestedSchema'])?.['properties']) ?? {};
  const isPlan = z['kind'] === 'plan_approval' || (Object.keys(props).length === 1 && 'feedback' in props);
  return {
    interactionId: str(z['interactionId']) ?? `rpc:${String(id)}`,
    sessionId,
    kind: kindOf(z['kind'], isPlan ? 'plan_approval' : 'question'),
    title: str(p['message']) ?? '',
    // A plan approval's plan alone (the message adds how to answer the form, which the sheet's buttons replace).
    ...(isPlan && str(z['plan']) !== undefined ? { plan: str(z['plan']) } : {}),
    toolCallId: str(p['toolCallId']),
    rpc: { id, method: 'elicitation/create', params: p },
    ...withApproval(approvalInMeta(p)),
    ...withPartial(z['partialAnswers']),
  };
}

/** One `InteractionView` from `_zcode/interactions/list` or `GET /api/interactions`. */
export function fromView(view: unknown): PendingInteraction | undefined {
  const v = rec(view);
  const interactionId = str(v?.['interactionId']);
  const sessionId = str(v?.['sessionId']);
  if (!v || !interactionId || !sessionId) return undefined;
  if (v['state'] !== undefined && v['state'] !== 'pending') return undefined;
  const questions = arr(v['questions']).flatMap((q) => {
    const r = rec(q);
    const question = str(r?.['question']);
    if (!r || !question) return [];
    const options = arr(r['options']).flatMap((o) => {
      const label = str(rec(o)?.['label']);
      return label ? [{ label, description: str(rec(o)?.['description']) }] : [];
    });
    return [{ question, header: str(r['header']) ?? '', options, multiSelect: bool(r['multiSelect']) ?? false }];
  });
  const created = v['createdAt'];
  const plan = v['plan'];
  const mayAnswer = readMayAnswer(v);
  const toolCall = rec(v['toolCall']);
  return {
    interactionId,
    sessionId,
    kind: kindOf(v['kind'], 'permission'),
    title: str(v['title']) ?? '',
    toolCallId: str(v['toolCallId']),
    createdAt: typeof created === 'number' ? created : typeof created === 'string' ? Date.parse(created) : undefined,
    options: optionsOf(v['options']),
    questions,
    plan: typeof plan === 'string' ? plan : (str(rec(plan)?.['plan']) ?? (plan === undefined ? undefined : JSON.stringify(plan))),
    ...(toolCall ? { toolCall } : {}),
    ...withApproval(readApproval(v['approval'])),
    ...(mayAnswer === undefined ? {} : { mayAnswer }),
    ...withPartial(v['partialAnswers']),
  };
}

/** Merges a list copy into what we hold: a live request copy wins, the view fills gaps. */
export function mergeInteraction(held: PendingInteraction | undefined, incoming: PendingInteraction): PendingInteraction {
  if (!held) return incoming;
  const rpc = incoming.rpc ?? held.rpc;
  return {
    ...held,
    ...incoming,
    ...(rpc ? { rpc } : {}),
    title: held.rpc && held.title ? held.title : incoming.title || held.title,
    options: incoming.options?.length ? incoming.options : held.options,
    questions: incoming.questions?.length ? incoming.questions : held.questions,
    plan: incoming.plan ?? held.plan,
    ...(incoming.toolCall || held.toolCall ? { toolCall: incoming.toolCall ?? held.toolCall } : {}),
    partialAnswers: incoming.partialAnswers ?? held.partialAnswers,
    createdAt: held.createdAt ?? incoming.createdAt,
  };
}

/** What the user decided in a sheet, before it is shaped for the wire. */
export type Answer =
  | { kind: 'option'; optionId: string }
  | { kind: 'form'; content: Record<string, string | string[] | number | boolean> }
  | { kind: 'questions'; answers: Record<string, string | string[]> }
  | { kind: 'approve' }
  | { kind: 'feedback'; text: string }
  | { kind: 'decline' };

/** The JSON-RPC result for a live request (ACP RequestPermissionResponse / CreateElicitationResponse). */
export function rpcResult(method: 'session/request_permission' | 'elicitation/create', answer: Answer): unknown {
  if (method === 'session/request_permission') {
    if (answer.kind === 'option') return { outcome: { outcome: 'selected', optionId: answer.optionId } };
    // A permission copy has no "decline" of its own: the deny option is the answer; cancelled only dismisses.
    return { outcome: { outcome: 'cancelled' } };
  }
  switch (answer.kind) {
    case 'form':
      return { action: 'accept', content: answer.content };
    case 'approve':
      return { action: 'accept', content: { feedback: '' } };
    case 'feedback':
      return { action: 'accept', content: { feedback: answer.text } };
    case 'decline':
      return { action: 'decline' };
    case 'questions':
      return { action: 'accept', content: { answers: answer.answers } };
    case 'option':
      return { action: 'accept', content: { answer: answer.optionId } };
  }
}

/** The body of `POST /api/interactions/{id}/answer` (CLIENT-PROTOCOL "REST answer body"). */
export function restBody(answer: Answer): unknown {
  switch (answer.kind) {
    case 'option':
      return { optionId: answer.optionId };
    case 'questions':
      return { answers: answer.answers };
    case 'approve':
      return { approve: true };
    case 'feedback':
      return { feedback: answer.text };
    case 'decline':
      return { decline: true };
    case 'form':
      return { answers: answer.content };
  }
}

/** The `$/cancel_request` id (`requestId`, legacy `id`). */
export function cancelledRequestId(params: unknown): string | number | undefined {
  const p = rec(params);
  return idOf(p?.['requestId']) ?? idOf(p?.['id']);
}

/**
 * Remembers the card of an interaction leaving the store (answered here, withdrawn), so the
 * `_zcode/interaction_resolved` that follows can say on that card who answered. Keeps the
 * newest `max` (WEB_LIMITS.recentInteractionCards).
 */
export function rememberCard(
  recent: Map<string, { sessionId: string; toolCallId: string }>,
  i: PendingInteraction | undefined,
  max: number,
): void {
  if (!i?.toolCallId) return;
  recent.delete(i.interactionId);
  recent.set(i.interactionId, { sessionId: i.sessionId, toolCallId: i.toolCallId });
  for (const key of recent.keys()) {
    if (recent.size <= max) break;
    recent.delete(key);
  }
}
