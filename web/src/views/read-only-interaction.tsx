/**
 * What a device that may not answer sees of a question or plan approval: what is asked, and for
 * whom it waits — no form, no buttons (a view device, or an operator an `ask` rule leaves out;
 * docs/SECURITY.md "Team control"). A permission's read-only sheet is PermissionBody's own.
 */
import type { Approval } from '../hub/permission-facts.js';
import type { PendingInteraction } from '../hub/interactions.js';
import { t } from '../i18n.js';
import { Markdown } from './markdown-view.js';

/** "waiting for an admin: this device cannot answer it", or without a rule, that someone else will. */
export function ReadOnlyNotice({ approval }: { approval: Approval }) {
  return (
    <p class="muted small" data-testid="perm-read-only">
      {approval.waitingFor ? t('permReadOnlyWaiting', approval.waitingFor) : t('permReadOnly')}
    </p>
  );
}

/** A question's questions with their choices, or the plan to approve, read-only. */
export function ReadOnlyInteraction({ i, approval }: { i: PendingInteraction; approval: Approval }) {
  const plan = i.kind === 'plan_approval' ? (i.plan ?? i.title) : undefined;
  return (
    <div data-testid="interaction-read-only">
      {plan ? <Markdown text={plan} class="md plan-text" /> : i.title ? <Markdown text={i.title} /> : null}
      {(i.questions ?? []).map((q) => (
        <section class="choices" key={q.question}>
          <p>
            <strong>
              {q.header ? `${q.header}: ` : ''}
              {q.question}
            </strong>
          </p>
          <ul>
            {q.options.map((o) => (
              <li key={o.label}>
                {o.label}
                {o.description ? <span class="muted small block">{o.description}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
      <ReadOnlyNotice approval={approval} />
    </div>
  );
}
