/**
 * A multi-question question shown one card at a time (docs/CLIENT-PROTOCOL.md "Partial answers"):
 * the cards of the hub's question form (`q_<i>` choice + `q_<i>_other` text) or of an inbox
 * view's `questions`, the answers the hub keeps so far (`partialAnswers`, with who gave them),
 * and the one answer a card sends (`_zcode/partial_answer`). Pure; the sheet renders it.
 */
import { arr, num, rec, str } from '../wire.js';
import { authorText } from './author-text.js';
import type { FormField, FormValue } from './form-schema.js';
import type { QuestionView } from './interactions.js';

/** The hub's "skip this question" choice value. */
const SKIP = '__skip__';

/** One answer the hub keeps, as shown: `by` is the verified author's label. */
export interface PartialAnswerView {
  questionIndex: number;
  question: string;
  answer: string | string[];
  by: string;
}

/** One card: the question's choice field and its free-text field. */
export interface QuestionStep {
  index: number;
  title: string;
  header?: string;
  choice?: Extract<FormField, { type: 'choice' }>;
  other?: Extract<FormField, { type: 'text' }>;
}

/** `partialAnswers` of an InteractionView, a request's `_meta.zcode` or `_zcode/interaction_progress`. */
export function partialAnswersOf(v: unknown): PartialAnswerView[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return arr(v).flatMap((p) => {
    const r = rec(p);
    const questionIndex = num(r?.['questionIndex']);
    const raw = r?.['answer'];
    const answer = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : undefined;
    if (!r || questionIndex === undefined || answer === undefined) return [];
    return [{ questionIndex, question: str(r['question']) ?? '', answer, by: authorText(r['answeredBy']) ?? '' }];
  });
}

/**
 * The form's fields without the hub's "Skip this question" choice: a question left blank is
 * skipped (APP-SERVER.md §6.3) and the sheet's Skip button says so, so a second way to skip,
 * as a radio among the answers, is left out.
 */
export function withoutSkipChoice(fields: readonly FormField[]): FormField[] {
  return fields.map((f) =>
    f.type === 'choice' && f.options.some((o) => o.value === SKIP) ? { ...f, options: f.options.filter((o) => o.value !== SKIP) } : f,
  );
}

/** The cards of the hub's question form; empty when the form is not one (an MCP server's own schema). */
export function stepsOfFields(all: readonly FormField[]): QuestionStep[] {
  const fields = withoutSkipChoice(all);
  const steps = new Map<number, QuestionStep>();
  for (const f of fields) {
    const m = /^q_(\d+)(_other)?$/.exec(f.key);
    if (!m) return [];
    const index = Number(m[1]);
    const step = steps.get(index) ?? { index, title: f.title };
    if (m[2] === undefined && f.type === 'choice') {
      step.title = f.title;
      step.choice = f;
      if (f.description) step.header = f.description;
    } else if (m[2] !== undefined && f.type === 'text') step.other = f;
    else return [];
    steps.set(index, step);
  }
  return [...steps.values()].sort((a, b) => a.index - b.index);
}

/** The cards of an inbox view's questions (answered by label, as the REST body is). */
export function stepsOfView(questions: readonly QuestionView[], otherTitle: string): QuestionStep[] {
  return questions.map((q, index) => ({
    index,
    title: q.question,
    ...(q.header ? { header: q.header } : {}),
    choice: {
      type: 'choice',
      key: `q_${index}`,
      title: q.question,
      options: q.options.map((o) => ({ value: o.label, label: o.label, ...(o.description ? { description: o.description } : {}) })),
      multi: q.multiSelect,
      required: false,
    },
    other: { type: 'text', key: `q_${index}_other`, title: otherTitle, required: false },
  }));
}

/** The first card without a kept answer (undefined once every one has one). */
export function currentStep(steps: readonly QuestionStep[], kept: readonly PartialAnswerView[] | undefined): QuestionStep | undefined {
  const answered = new Set((kept ?? []).map((p) => p.questionIndex));
  return steps.find((s) => !answered.has(s.index));
}

/** What one card sends: typed text overrides a single choice and adds to a multi-select; `""`/`[]` skips. */
export function stepAnswer(step: QuestionStep, values: Record<string, FormValue>): string | string[] {
  const picked = step.choice ? values[step.choice.key] : undefined;
  const typedRaw = step.other ? values[step.other.key] : undefined;
  const typed = typeof typedRaw === 'string' ? typedRaw.trim() : '';
  if (step.choice?.multi) {
    const sel = Array.isArray(picked) ? picked : [];
    return typed ? [...sel, typed] : sel;
  }
  if (typed) return typed;
  return typeof picked === 'string' && picked !== SKIP ? picked : '';
}

/** How a kept answer reads: labels of the picked options, or the typed text. */
export function answerText(step: QuestionStep | undefined, answer: string | string[], skipped: string): string {
  const values = Array.isArray(answer) ? answer : answer === '' ? [] : [answer];
  if (values.length === 0) return skipped;
  const label = (v: string) => step?.choice?.options.find((o) => o.value === v)?.label ?? v;
  return values.map(label).join(', ');
}
