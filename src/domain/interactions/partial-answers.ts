/**
 * Partial answers to a pending question (docs/CLIENT-PROTOCOL.md "Partial answers"): a client
 * that asks one question at a time hands each answer to the hub (`_zcode/partial_answer`), which
 * keeps it on the interaction, so any device that comes back — the same one after a reload, or
 * another — continues at the next question and sees who answered the earlier ones. Pure: the
 * interaction flow checks who may answer, stores the list and settles once every question has one.
 */
import { HubError } from '../../errors.js';
import type { Author } from '../people/author.js';

/** One kept answer; `answer` empty (`""` / `[]`) means the question was skipped. */
export interface PartialAnswer {
  questionIndex: number;
  question: string;
  answer: string | string[];
  /** From the token of the device that gave it, never from what the client says. */
  answeredBy: Author;
  answeredAt: number;
}

/** What a client sends for one question. */
export interface PartialAnswerInput {
  questionIndex: number;
  answer: string | string[];
}

function normalized(answer: string | string[]): string | string[] {
  return Array.isArray(answer) ? answer.map((s) => s.trim()).filter((s) => s !== '') : answer.trim();
}

function charsOf(answer: string | string[]): number {
  return Array.isArray(answer) ? answer.reduce((n, s) => n + s.length, 0) : answer.length;
}

/**
 * The kept list with this answer in it (a question answered again takes the newer answer),
 * ordered by question. Throws HUB_ERR_BAD_REQUEST for a question the interaction does not ask,
 * HUB_ERR_LIMIT for an answer longer than `maxChars` (LIMITS.partialAnswerChars).
 */
export function withPartialAnswer(
  kept: readonly PartialAnswer[] | undefined,
  questions: readonly { question: string }[],
  input: PartialAnswerInput,
  by: Author,
  maxChars: number,
  now: number,
): PartialAnswer[] {
  const q = questions[input.questionIndex];
  if (q === undefined) throw new HubError('HUB_ERR_BAD_REQUEST', `This interaction has no question ${input.questionIndex}`);
  const answer = normalized(input.answer);
  const chars = charsOf(answer);
  if (chars > maxChars)
    throw new HubError('HUB_ERR_LIMIT', `A partial answer holds at most ${maxChars} characters`, {
      limit: 'partialAnswerChars',
      max: maxChars,
      got: chars,
    });
  const entry: PartialAnswer = { questionIndex: input.questionIndex, question: q.question, answer, answeredBy: by, answeredAt: now };
  return [...(kept ?? []).filter((p) => p.questionIndex !== input.questionIndex), entry].sort((a, b) => a.questionIndex - b.questionIndex);
}

/** The whole answer (`answers[question]`, skipped ones left out) once every question has one, else undefined. */
export function completedAnswers(
  questions: readonly { question: string }[],
  kept: readonly PartialAnswer[],
): Record<string, string | string[]> | undefined {
  const byIndex = new Map(kept.map((p) => [p.questionIndex, p]));
  const answers: Record<string, string | string[]> = {};
  for (const [i, q] of questions.entries()) {
    const p = byIndex.get(i);
    if (p === undefined) return undefined;
    if (p.answer.length > 0) answers[q.question] = p.answer;
  }
  return answers;
}
