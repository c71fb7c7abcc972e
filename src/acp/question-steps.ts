/**
 * Questions asked one at a time (the zcode-acp-remote profile, docs/CLIENT-PROTOCOL.md): a
 * client without elicitation forms that keeps a single pending permission card gets one
 * `session/request_permission` per step, each after a `tool_call` of its own that carries the
 * question text. The client finds a card's text by the request's `toolCall.toolCallId` among the
 * tool calls it has seen, and calls it a question when that tool call's
 * `_meta.claudeCode.toolName` is `AskUserQuestion`. A permission answer picks one option, so a
 * multi-select question becomes one Include/Skip step per option.
 */
import type { PermissionOption, RequestPermissionRequest, SessionUpdate } from '@agentclientprotocol/sdk';
import { interactionToolCallId, questionOptionId, SKIP_SENTINEL } from './interaction-requests.js';
import type { ZcodeAnswer } from './interaction-answers.js';
import type { ElicitationInteraction, QuestionInteraction } from './interaction-schema.js';
import { textContent } from './tool-output.js';

/** Option ids of a multi-select step. */
export const INCLUDE_OPTION = 'include';
export const EXCLUDE_OPTION = 'skip';
/** The tool name the client recognises a question card by. */
export const QUESTION_TOOL_NAME = 'AskUserQuestion';

/** One card: the tool_call shown first, then the request that points at it. */
export interface QuestionStep {
  questionIndex: number;
  /** Set on a multi-select step: the option it includes or skips. */
  optionIndex?: number;
  toolCallId: string;
  /** `session/update` params announcing the card's tool call (sent to this client only). */
  preface: { sessionId: string; update: SessionUpdate };
  /** `session/update` params closing the card's tool call once answered. */
  done: { sessionId: string; update: SessionUpdate };
  request: RequestPermissionRequest;
}

type Questioned = QuestionInteraction | ElicitationInteraction;

function step(
  record: Questioned,
  sessionId: string,
  at: { questionIndex: number; optionIndex?: number },
  title: string,
  text: string,
  options: PermissionOption[],
): QuestionStep {
  const suffix = at.optionIndex === undefined ? `${at.questionIndex}` : `${at.questionIndex}_${at.optionIndex}`;
  const toolCallId = `${interactionToolCallId(record)}_${suffix}`;
  const zcode = {
    interactionId: record.requestId,
    kind: record.kind,
    questionIndex: at.questionIndex,
    ...(at.optionIndex === undefined ? {} : { optionIndex: at.optionIndex }),
  };
  const meta = { claudeCode: { toolName: QUESTION_TOOL_NAME }, zcode };
  return {
    ...at,
    toolCallId,
    preface: {
      sessionId,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId,
        title,
        kind: 'other',
        status: 'pending',
        content: [textContent(text)],
        _meta: meta,
      },
    },
    done: { sessionId, update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', _meta: meta } },
    request: { sessionId, toolCall: { toolCallId, title, kind: 'other', status: 'pending' }, options, _meta: { zcode } },
  };
}

/** The cards of a question interaction, in the order they are asked. */
export function toQuestionSteps(record: Questioned, sessionId: string = record.sessionId): QuestionStep[] {
  const steps: QuestionStep[] = [];
  for (const [i, q] of record.questions.entries()) {
    const heading = q.header.length > 0 && q.header !== q.question ? `**${q.header}** — ${q.question}` : q.question;
    if (q.multiSelect === true) {
      for (const [j, o] of q.options.entries()) {
        steps.push(
          step(
            record,
            sessionId,
            { questionIndex: i, optionIndex: j },
            `${q.question} — include "${o.label}"?`,
            `${heading}\n\nInclude "${o.label}"?${o.description ? ` (${o.description})` : ''}`,
            [
              { optionId: INCLUDE_OPTION, name: `Include: ${o.label}`, kind: 'allow_once' },
              { optionId: EXCLUDE_OPTION, name: `Skip: ${o.label}`, kind: 'reject_once' },
            ],
          ),
        );
      }
      continue;
    }
    const described = q.options.some((o) => o.description);
    const text = described
      ? `${heading}\n\n${q.options.map((o) => `- **${o.label}**${o.description ? ` — ${o.description}` : ''}`).join('\n')}`
      : heading;
    steps.push(
      step(record, sessionId, { questionIndex: i }, q.question, text, [
        ...q.options.map((o, j): PermissionOption => ({ optionId: questionOptionId(j), name: o.label, kind: 'allow_once' })),
        { optionId: SKIP_SENTINEL, name: 'Skip this question', kind: 'reject_once' },
      ]),
    );
  }
  return steps;
}

type StepReply = { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string };

function outcomeOf(reply: unknown): StepReply | undefined {
  if (typeof reply !== 'object' || reply === null) return undefined;
  const outcome = (reply as { outcome?: unknown }).outcome;
  if (typeof outcome !== 'object' || outcome === null) return undefined;
  const o = outcome as { outcome?: unknown; optionId?: unknown };
  if (o.outcome === 'cancelled') return { outcome: 'cancelled' };
  if (o.outcome === 'selected' && typeof o.optionId === 'string') return { outcome: 'selected', optionId: o.optionId };
  return undefined;
}

/** Whether one step's reply is usable: `cancelled` dismisses the copy, an unknown option is refused. */
export function checkStepReply(s: QuestionStep, reply: unknown): 'ok' | 'dismissed' | { invalid: string } {
  const r = outcomeOf(reply);
  if (r === undefined) return { invalid: 'Not a session/request_permission response' };
  if (r.outcome === 'cancelled') return 'dismissed';
  return s.request.options.some((o) => o.optionId === r.optionId) ? 'ok' : { invalid: `Option not offered: ${r.optionId}` };
}

/** Every step's (checked) reply → one §6.3 result; a skipped or empty question is left out. */
export function questionStepAnswersToZcode(record: Questioned, steps: readonly QuestionStep[], replies: readonly unknown[]): ZcodeAnswer {
  if (replies.length !== steps.length) return { type: 'invalid', reason: `Expected ${steps.length} answers, got ${replies.length}` };
  const answers: Record<string, string | string[]> = {};
  for (const [k, s] of steps.entries()) {
    const r = outcomeOf(replies[k]);
    const q = record.questions[s.questionIndex];
    if (r === undefined || q === undefined) return { type: 'invalid', reason: 'Not a session/request_permission response' };
    if (r.outcome === 'cancelled') return { type: 'dismissed' };
    if (s.optionIndex !== undefined) {
      const option = q.options[s.optionIndex];
      if (r.optionId !== INCLUDE_OPTION || option === undefined) continue;
      const picked = answers[q.question];
      answers[q.question] = Array.isArray(picked) ? [...picked, option.value] : [option.value];
      continue;
    }
    if (r.optionId === SKIP_SENTINEL) continue;
    const option = q.options.find((_, j) => questionOptionId(j) === r.optionId);
    if (option === undefined) return { type: 'invalid', reason: `Option not offered: ${r.optionId}` };
    answers[q.question] = option.value;
  }
  return { type: 'answer', result: { action: 'accept', content: { answers } }, outcome: 'answered' };
}
