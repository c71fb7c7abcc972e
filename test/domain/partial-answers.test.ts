import { describe, expect, it } from 'vitest';
import { HubError } from '../../src/errors.js';
import { completedAnswers, withPartialAnswer } from '../../src/domain/interactions/partial-answers.js';

const QUESTIONS = [{ question: 'Which package manager?' }, { question: 'Which checks?' }];
const ann = { name: 'ann · phone', person: 'ann', device: 'phone', tokenId: 't1' };
const bob = { name: 'bob · tablet', person: 'bob', device: 'tablet', tokenId: 't2' };

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    return err instanceof HubError ? err.code : 'not a HubError';
  }
  return undefined;
}

describe('partial answers of a question', () => {
  it('keeps one answer per question, ordered, with who gave it; a second answer to a question replaces the first', () => {
    const one = withPartialAnswer(undefined, QUESTIONS, { questionIndex: 1, answer: [' lint ', '', 'tests'] }, ann, 100, 1);
    const two = withPartialAnswer(one, QUESTIONS, { questionIndex: 0, answer: ' npm ' }, ann, 100, 2);
    const three = withPartialAnswer(two, QUESTIONS, { questionIndex: 0, answer: 'pnpm' }, bob, 100, 3);
    expect(three.map((p) => [p.questionIndex, p.question, p.answer, p.answeredBy.person])).toEqual([
      [0, 'Which package manager?', 'pnpm', 'bob'],
      [1, 'Which checks?', ['lint', 'tests'], 'ann'],
    ]);
  });

  it('is complete only once every question has an answer; a skipped one is left out of the whole answer', () => {
    const first = withPartialAnswer(undefined, QUESTIONS, { questionIndex: 0, answer: 'npm' }, ann, 100, 1);
    expect(completedAnswers(QUESTIONS, first)).toBeUndefined();
    const both = withPartialAnswer(first, QUESTIONS, { questionIndex: 1, answer: [] }, ann, 100, 2);
    expect(completedAnswers(QUESTIONS, both)).toEqual({ 'Which package manager?': 'npm' });
  });

  it('refuses a question the interaction does not ask, and an answer past the character limit (arrays count together)', () => {
    expect(codeOf(() => withPartialAnswer(undefined, QUESTIONS, { questionIndex: 2, answer: 'x' }, ann, 100, 1))).toBe(
      'HUB_ERR_BAD_REQUEST',
    );
    expect(codeOf(() => withPartialAnswer(undefined, QUESTIONS, { questionIndex: 0, answer: 'x'.repeat(10) }, ann, 10, 1))).toBeUndefined();
    expect(codeOf(() => withPartialAnswer(undefined, QUESTIONS, { questionIndex: 0, answer: 'x'.repeat(11) }, ann, 10, 1))).toBe(
      'HUB_ERR_LIMIT',
    );
    expect(
      codeOf(() => withPartialAnswer(undefined, QUESTIONS, { questionIndex: 1, answer: ['x'.repeat(6), 'y'.repeat(5)] }, ann, 10, 1)),
    ).toBe('HUB_ERR_LIMIT');
  });
});
