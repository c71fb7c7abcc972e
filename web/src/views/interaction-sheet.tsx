/**
 * The bottom sheet for a pending permission, question or plan approval (ARCHITECTURE.md §4.5).
 * Closing it ("Later") only hides it here: dismiss is not deny, the inbox keeps it.
 */
import { useMemo, useState } from 'preact/hooks';
import { scopeOn, store } from '../hub/app-state.js';
import { contentOf, defaultsOf, fieldsOf, missingRequired, type FormValue } from '../hub/form-schema.js';
import type { HubClient } from '../hub/hub-client.js';
import { clientFor } from '../machines/registry.js';
import type { Answer, PendingInteraction } from '../hub/interactions.js';
import { t } from '../i18n.js';
import { useSelector } from '../store.js';
import { rec, str } from '../wire.js';
import { Sheet } from './chrome.js';
import { Field } from './form-fields.js';
import { Markdown } from './markdown-view.js';
import { PermissionBody } from './permission-sheet.js';
import { approvalOf } from '../hub/permission-facts.js';
import { stepsOfFields, stepsOfView, withoutSkipChoice } from '../hub/question-steps.js';
import { QuestionCards } from './question-cards.js';
import { ReadOnlyInteraction } from './read-only-interaction.js';
import { CodeText } from './tool-title.js';

/** A question or plan form sent as `elicitation/create` (rendered from its requestedSchema). */
function ElicitationForm({ i, answer }: { i: PendingInteraction; answer: (a: Answer) => void }) {
  const schema = i.rpc?.params['requestedSchema'];
  const fields = useMemo(() => withoutSkipChoice(fieldsOf(schema)), [schema]);
  const [values, setValues] = useState<Record<string, FormValue>>(() => defaultsOf(schema));
  const missing = missingRequired(fields, values);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        answer({ kind: 'form', content: contentOf(fields, values) });
      }}
    >
      {i.title ? <Markdown text={i.title} /> : null}
      {fields.map((f) => (
        <Field key={f.key} f={f} value={values[f.key]} set={(v) => setValues((cur) => ({ ...cur, [f.key]: v }))} />
      ))}
      <div class="actions">
        <button type="button" onClick={() => answer({ kind: 'decline' })} data-testid="decline">
          {t('skip')}
        </button>
        <button class="primary" type="submit" disabled={missing.length > 0} data-testid="submit">
          {t('submit')}
        </button>
      </div>
    </form>
  );
}

/** Questions from an InteractionView (inbox, answered over REST). */
function ViewQuestions({ i, answer }: { i: PendingInteraction; answer: (a: Answer) => void }) {
  const [picked, setPicked] = useState<Record<string, string[]>>({});
  const [other, setOther] = useState<Record<string, string>>({});
  const build = (): Record<string, string | string[]> => {
    const out: Record<string, string | string[]> = {};
    for (const q of i.questions ?? []) {
      const typed = (other[q.question] ?? '').trim();
      const sel = picked[q.question] ?? [];
      if (q.multiSelect) {
        const all = typed ? [...sel, typed] : sel;
        if (all.length) out[q.question] = all;
      } else if (typed || sel[0]) out[q.question] = typed || sel[0] || '';
    }
    return out;
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        answer({ kind: 'questions', answers: build() });
      }}
    >
      {(i.questions ?? []).map((q) => (
        <fieldset class="choices" key={q.question}>
          <legend>
            {q.header ? `${q.header}: ` : ''}
            {q.question}
          </legend>
          {q.options.map((o) => (
            <label class="choice" key={o.label}>
              <input
                type={q.multiSelect ? 'checkbox' : 'radio'}
                name={q.question}
                checked={(picked[q.question] ?? []).includes(o.label)}
                onChange={(e) => {
                  const cur = picked[q.question] ?? [];
                  const next = q.multiSelect ? (e.currentTarget.checked ? [...cur, o.label] : cur.filter((x) => x !== o.label)) : [o.label];
                  setPicked({ ...picked, [q.question]: next });
                }}
              />
              <span>
                {o.label}
                {o.description ? <span class="muted small block">{o.description}</span> : null}
              </span>
            </label>
          ))}
          <input
            class="other"
            placeholder={t('otherAnswer')}
            aria-label={t('otherAnswer')}
            value={other[q.question] ?? ''}
            onInput={(e) => setOther({ ...other, [q.question]: e.currentTarget.value })}
          />
        </fieldset>
      ))}
      <div class="actions">
        <button type="button" onClick={() => answer({ kind: 'decline' })} data-testid="decline">
          {t('skip')}
        </button>
        <button class="primary" type="submit" data-testid="submit">
          {t('submit')}
        </button>
      </div>
    </form>
  );
}

/** Plan approval: approve, reject with feedback, or reject. */
function PlanApproval({ i, answer }: { i: PendingInteraction; answer: (a: Answer) => void }) {
  const [text, setText] = useState('');
  const plan = i.plan ?? i.title;
  return (
    <div>
      {plan ? <Markdown text={plan} class="md plan-text" /> : null}
      <label class="field">
        <span>{t('feedback')}</span>
        <textarea
          rows={3}
          value={text}
          placeholder={t('feedbackHint')}
          onInput={(e) => setText(e.currentTarget.value)}
          data-testid="plan-feedback"
        />
      </label>
      <div class="actions stack">
        <button
          type="button"
          class="primary"
          onClick={() => answer({ kind: 'approve' })}
          disabled={text.trim() !== ''}
          data-testid="plan-approve"
        >
          {t('approve')}
        </button>
        <button
          type="button"
          onClick={() => answer({ kind: 'feedback', text: text.trim() })}
          disabled={text.trim() === ''}
          data-testid="plan-feedback-send"
        >
          {t('rejectWithFeedback')}
        </button>
        <button type="button" class="danger" onClick={() => answer({ kind: 'decline' })} data-testid="plan-reject">
          {t('reject')}
        </button>
      </div>
    </div>
  );
}

/** The sheet body for one interaction. */
export function InteractionBody({ i, answer }: { i: PendingInteraction; answer: (a: Answer) => void }) {
  if (i.kind === 'permission') return <PermissionBody i={i} answer={answer} />;
  // Not this device's to answer (a view device, or one an ask rule leaves out): what is asked, no form.
  const approval = approvalOf(i);
  if (!approval.eligible) return <ReadOnlyInteraction i={i} approval={approval} />;
  if (i.kind === 'plan_approval') {
    // A live plan form's message is the plan itself; approve/reject shape follows rpcResult().
    return <PlanApproval i={i} answer={answer} />;
  }
  // More than one question: one card at a time, each answer kept on the hub (survives a reload).
  const steps = i.rpc ? stepsOfFields(fieldsOf(i.rpc.params['requestedSchema'])) : stepsOfView(i.questions ?? [], t('otherAnswer'));
  if (i.kind === 'question' && steps.length > 1) return <QuestionCards i={i} steps={steps} />;
  return i.rpc ? <ElicitationForm i={i} answer={answer} /> : <ViewQuestions i={i} answer={answer} />;
}

const TITLES = { permission: 'permissionTitle', question: 'questionTitle', plan_approval: 'planTitle' } as const;

/** Shows the active interaction (from the inbox) or the first one of the open session. */
export function InteractionHost({ sessionId }: { client?: HubClient; sessionId?: string }) {
  const active = useSelector(store, (s) => {
    if (s.activeInteraction && s.interactions[s.activeInteraction]) return s.interactions[s.activeInteraction];
    if (!sessionId) return undefined;
    return (
      Object.values(s.interactions)
        // One waiting for someone else does not pop up; the inbox opens it read-only.
        .filter((i) => i.sessionId === sessionId && !s.dismissed[i.interactionId] && approvalOf(i).eligible)
        .sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0))[0]
    );
  });
  // Answered by the machine that asks, with the scope this phone has there.
  const scope = useSelector(store, (s) => scopeOn(s, active?.hubId));
  // An answer given while the link reconnects: which one waits, the answers held until it goes or is refused.
  const waiting = useSelector(store, (s) => (active ? s.answersWaiting[active.interactionId] : undefined));
  if (!active) return null;
  // A view device opens one from the inbox or the "waiting for …" banner, read-only whatever a view
  // says (it never pops up by itself: only what this device may answer does).
  const shown = scope === 'view' ? { ...active, mayAnswer: false } : active;
  const close = () =>
    store.update((s) => ({ ...s, activeInteraction: undefined, dismissed: { ...s.dismissed, [active.interactionId]: true } }));
  const sessionTitle = store.get().sessions[active.sessionId]?.title;
  return (
    <Sheet key={active.interactionId} title={t(TITLES[active.kind])} onClose={close} testId="interaction-sheet">
      {sessionTitle && active.sessionId !== sessionId ? (
        <p class="muted small">
          <CodeText text={sessionTitle} />
        </p>
      ) : null}
      <fieldset class="ix-answer" disabled={waiting !== undefined}>
        <InteractionBody i={shown} answer={(a) => void clientFor(active.hubId).answer(active.interactionId, a)} />
      </fieldset>
      {waiting ? (
        <p class="ix-waiting" role="status" data-testid="answer-waiting">
          {t('answerWaiting', waiting.choice)}
        </p>
      ) : null}
      <button type="button" class="link later" onClick={close}>
        {t('later')}
      </button>
    </Sheet>
  );
}

/** Title line of an interaction for lists. */
export function interactionLine(i: PendingInteraction): string {
  return i.title || str(rec(i.rpc?.params['toolCall'])?.['title']) || t(TITLES[i.kind]);
}
