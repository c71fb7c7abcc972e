/**
 * A multi-question question one card at a time (docs/CLIENT-PROTOCOL.md "Partial answers"): the
 * questions answered so far — kept on the hub, so a reload or another device sees them, with who
 * answered — then the first unanswered card. Each card's answer goes to the hub; the last one
 * answers the question.
 */
import { useState } from 'preact/hooks';
import type { FormValue } from '../hub/form-schema.js';
import type { PendingInteraction } from '../hub/interactions.js';
import { answerText, currentStep, stepAnswer, type QuestionStep } from '../hub/question-steps.js';
import { clientFor } from '../machines/registry.js';
import { t } from '../i18n.js';
import { Field } from './form-fields.js';

interface CardProps {
  i: PendingInteraction;
  step: QuestionStep;
  steps: QuestionStep[];
  last: boolean;
}

function Card({ i, step, steps, last }: CardProps) {
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const [sending, setSending] = useState(false);
  const set = (key: string) => (v: FormValue) => setValues((cur) => ({ ...cur, [key]: v }));
  const position = steps.indexOf(step) + 1;
  const send = (answer: string | string[]) => {
    setSending(true);
    void clientFor(i.hubId)
      .answerQuestion(i.interactionId, step.index, answer, last)
      .finally(() => setSending(false));
  };
  return (
    <form
      data-testid="question-card"
      data-question={step.index}
      onSubmit={(e) => {
        e.preventDefault();
        send(stepAnswer(step, values));
      }}
    >
      <p class="muted small" data-testid="question-position">
        {t('questionStep', position, steps.length)}
      </p>
      {step.choice ? <Field f={step.choice} value={values[step.choice.key]} set={set(step.choice.key)} /> : null}
      {step.other ? <Field f={step.other} value={values[step.other.key]} set={set(step.other.key)} /> : null}
      <div class="actions">
        {/* The one way to skip: this question, kept as skipped like a blank answer (the next card follows). */}
        <button type="button" onClick={() => send(stepAnswer(step, {}))} disabled={sending} data-testid="question-skip">
          {t('skip')}
        </button>
        <button class="primary" type="submit" disabled={sending} data-testid={last ? 'submit' : 'question-next'}>
          {last ? t('submit') : t('questionNext')}
        </button>
      </div>
    </form>
  );
}

/** The cards of a question with more than one question. */
export function QuestionCards({ i, steps }: { i: PendingInteraction; steps: QuestionStep[] }) {
  const kept = i.partialAnswers ?? [];
  const step = currentStep(steps, kept);
  const open = steps.filter((s) => !kept.some((p) => p.questionIndex === s.index));
  return (
    <div>
      {kept.length > 0 ? (
        <section class="partial-answers" aria-label={t('questionEarlier')}>
          <p class="muted small">{t('questionEarlier')}</p>
          <ul>
            {kept.map((p) => {
              const s = steps.find((x) => x.index === p.questionIndex);
              return (
                <li key={p.questionIndex} data-testid="partial-answer" data-question={p.questionIndex}>
                  <span class="partial-question">{s?.title ?? p.question}</span>{' '}
                  <strong>{answerText(s, p.answer, t('questionSkipped'))}</strong>
                  {p.by ? <span class="muted small block">{t('answeredBy', p.by)}</span> : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {step ? <Card key={step.index} i={i} step={step} steps={steps} last={open.length === 1} /> : null}
    </div>
  );
}
