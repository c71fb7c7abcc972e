import { describe, expect, it } from 'vitest';
import { classifyInteraction } from '../../src/acp/interactions.js';
import { toElicitationForm } from '../../src/acp/interaction-requests.js';
import { fieldsOf } from '../../web/src/hub/form-schema.js';
import { fromElicitation, fromView, mergeInteraction } from '../../web/src/hub/interactions.js';
import {
  answerText,
  currentStep,
  partialAnswersOf,
  stepAnswer,
  stepsOfFields,
  stepsOfView,
  withoutSkipChoice,
} from '../../web/src/hub/question-steps.js';

/** The hub's own question form for a two-question AskUserQuestion (src/acp, as the hub sends it). */
const asked = classifyInteraction('interaction/requestUserInput', {
  requestId: 'ask_1',
  sessionId: 's1',
  toolName: 'AskUserQuestion',
  questions: [
    {
      question: 'Which package manager?',
      header: 'Tooling',
      options: [
        { value: 'npm', label: 'npm' },
        { value: 'pnpm', label: 'pnpm' },
      ],
    },
    {
      question: 'Which checks?',
      header: 'Checks',
      multiSelect: true,
      options: [
        { value: 'lint', label: 'lint' },
        { value: 'tests', label: 'tests' },
      ],
    },
  ],
});
if (asked.kind !== 'question') throw new Error('expected a question');
const built = toElicitationForm(asked);
if (built.mode !== 'form') throw new Error('expected a form');
const form = built;
const zcodeMeta = form._meta?.['zcode'] as Record<string, unknown>;
const kept = [
  {
    questionIndex: 0,
    question: 'Which package manager?',
    answer: 'pnpm',
    answeredBy: { name: 'ann · Ann phone', person: 'ann', device: 'Ann phone', tokenId: 't', client: 'zcode-hub-web' },
    answeredAt: 1,
  },
];

describe('a question card by card (web)', () => {
  it('reads the hub form as one card per question, and continues after the kept answers', () => {
    const steps = stepsOfFields(fieldsOf(form.requestedSchema));
    expect(steps.map((s) => [s.index, s.title, s.header, s.choice?.multi, s.other !== undefined])).toEqual([
      [0, 'Which package manager?', 'Tooling', false, true],
      [1, 'Which checks?', 'Checks', true, true],
    ]);
    expect(currentStep(steps, undefined)?.index).toBe(0);
    expect(currentStep(steps, partialAnswersOf(kept))?.index).toBe(1);
    expect(currentStep(steps, partialAnswersOf([...kept, { ...kept[0], questionIndex: 1, answer: [] }]))).toBeUndefined();
  });

  it('the hub’s "Skip this question" choice is not offered: Skip (a blank answer) is the one way to skip', () => {
    const fields = fieldsOf(form.requestedSchema);
    // The hub's form does carry it (APP-SERVER.md §14.6) …
    const single = fields.find((f) => f.key === 'q_0');
    expect(single?.type === 'choice' && single.options.map((o) => o.value)).toEqual(['npm', 'pnpm', '__skip__']);
    // … the cards and the one-question form leave it out; other fields are untouched.
    const [card] = stepsOfFields(fields);
    expect(card?.choice?.options.map((o) => o.label)).toEqual(['npm', 'pnpm']);
    const plain = withoutSkipChoice(fields);
    expect(plain.map((f) => f.key)).toEqual(fields.map((f) => f.key));
    expect(plain.flatMap((f) => (f.type === 'choice' ? f.options.map((o) => o.value) : []))).not.toContain('__skip__');
    expect(stepAnswer(card!, {})).toBe('');
  });

  it('an MCP server’s own form is not split into cards', () => {
    expect(stepsOfFields(fieldsOf({ type: 'object', properties: { name: { type: 'string', title: 'Name' } } }))).toEqual([]);
  });

  it('one card’s answer: typed text overrides a single choice and adds to a multi-select, skip is ""', () => {
    const [single, multi] = stepsOfFields(fieldsOf(form.requestedSchema));
    expect(stepAnswer(single!, { q_0: 'pnpm' })).toBe('pnpm');
    expect(stepAnswer(single!, { q_0: 'pnpm', q_0_other: ' bun ' })).toBe('bun');
    expect(stepAnswer(single!, { q_0: '__skip__' })).toBe('');
    expect(stepAnswer(multi!, { q_1: ['lint'], q_1_other: 'e2e' })).toEqual(['lint', 'e2e']);
    expect(stepAnswer(multi!, {})).toEqual([]);
    expect(answerText(multi, ['lint', 'e2e'], '(skipped)')).toBe('lint, e2e');
    expect(answerText(single, '', '(skipped)')).toBe('(skipped)');
  });

  it('kept answers come with the re-sent request, the inbox view, and survive a merge; who answered is the verified author', () => {
    const live = fromElicitation(7, { ...form, _meta: { zcode: { ...zcodeMeta, partialAnswers: kept } } });
    expect(live?.partialAnswers).toEqual([
      { questionIndex: 0, question: 'Which package manager?', answer: 'pnpm', by: 'ann · Ann phone · zcode-hub-web' },
    ]);
    const view = fromView({ interactionId: 'ask_1', sessionId: 's1', kind: 'question', title: 'q', questions: [], partialAnswers: kept });
    expect(view?.partialAnswers?.[0]?.answer).toBe('pnpm');
    expect(mergeInteraction(live, { ...view!, partialAnswers: undefined }).partialAnswers?.[0]?.answer).toBe('pnpm');
    expect(
      stepsOfView([{ question: 'Q?', header: '', options: [{ label: 'A' }], multiSelect: false }], 'Other')[0]?.choice?.options,
    ).toEqual([{ value: 'A', label: 'A' }]);
  });
});
