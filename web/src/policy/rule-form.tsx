/**
 * One approval rule's editor (docs/SECURITY.md "Approval rules"): the fields of the hub's schema,
 * checked as the hub checks them (policy-rules.ts) with each error under its field.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { t, type MessageKey } from '../i18n.js';
import { APPROVER_SCOPES, DECISIONS, MATCH_FIELDS, RULE_KINDS, kindsOf, ruleErrors, type FieldError, type Rule } from './policy-rules.js';

const MATCH_LABELS: Record<(typeof MATCH_FIELDS)[number], string> = {
  tool: 'tool',
  command: 'command',
  path: 'path',
  workspace: 'workspace',
  session: 'session',
};

/** The errors of one field, shown under it (`role="alert"` so a screen reader hears them). */
export function FieldErrors({ errors, path }: { errors: readonly FieldError[]; path: string }) {
  const mine = errors.filter((e) => e.path === path);
  if (mine.length === 0) return null;
  return (
    <span class="error small" role="alert" data-testid="field-error" data-field={path}>
      {mine.map((e) => e.message).join('; ')}
    </span>
  );
}

const optional = (v: string) => (v.trim() === '' ? undefined : v.trim());

/** Who may pick "Always allow" under the rule, as the form offers it; another value set over the API is kept as it is. */
const ALWAYS_CHOICES: Record<'default' | 'nobody' | 'answerers' | 'admins' | 'originator', Rule['always']> = {
  default: undefined,
  nobody: false,
  answerers: {},
  admins: { scopes: ['admin'] },
  originator: { originator: true },
};
type AlwaysChoice = keyof typeof ALWAYS_CHOICES | 'kept';
const ALWAYS_LABELS: Record<AlwaysChoice, MessageKey> = {
  default: 'policyAlwaysDefault',
  nobody: 'policyAlwaysNobody',
  answerers: 'policyAlwaysAnswerers',
  admins: 'policyAlwaysAdmins',
  originator: 'policyAlwaysOriginator',
  kept: 'policyAlwaysKept',
};

function alwaysChoiceOf(a: Rule['always']): AlwaysChoice {
  const found = (Object.keys(ALWAYS_CHOICES) as Array<keyof typeof ALWAYS_CHOICES>).find(
    (k) => JSON.stringify(ALWAYS_CHOICES[k]) === JSON.stringify(a),
  );
  return found ?? 'kept';
}

/** What the form holds, as typed (before it is a rule). */
interface RuleFields {
  id: string;
  description: string;
  kinds: string[];
  match: Record<string, string>;
  decide: Rule['decide'];
  scopes: string[];
  people: string;
  originator: boolean;
  quorum: string;
  localOnly: boolean;
  always: ReturnType<typeof alwaysChoiceOf>;
}

/** The rule the form's fields say: empty fields left out, approvers only for `ask`, an unchanged `always` kept. */
function buildRule(f: RuleFields, initial: Rule | undefined): Rule {
  const { id, description, kinds, match, decide, scopes, people, originator, quorum, localOnly, always } = f;
  const rule: Rule = { id: id.trim(), match: {}, decide };
  const d = optional(description);
  if (d !== undefined) rule.description = d;
  if (kinds.length > 0) rule.match.kind = kinds.length === 1 ? (kinds[0] ?? '') : kinds;
  for (const f of MATCH_FIELDS) {
    const v = optional(match[f] ?? '');
    if (v !== undefined) rule.match[f] = v;
  }
  if (decide !== 'ask') return rule;
  const list = people
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const approvers: NonNullable<Rule['approvers']> = {};
  if (scopes.length > 0) approvers.scopes = scopes;
  if (list.length > 0) approvers.people = list;
  if (originator) approvers.originator = true;
  if (Object.keys(approvers).length > 0) rule.approvers = approvers;
  if (quorum.trim() !== '') rule.quorum = Number(quorum);
  if (localOnly) rule.localOnly = true;
  const a = always === 'kept' ? initial?.always : ALWAYS_CHOICES[always];
  if (a !== undefined) rule.always = a;
  return rule;
}

/** The editor; `onDone(rule)` only with a rule the hub's schema accepts. */
export function RuleForm({
  initial,
  otherIds,
  serverErrors = [],
  onDone,
  onCancel,
}: {
  initial?: Rule;
  otherIds: readonly string[];
  serverErrors?: readonly FieldError[];
  onDone: (rule: Rule) => void;
  onCancel: () => void;
}) {
  const [id, setId] = useState(initial?.id ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [kinds, setKinds] = useState<string[]>(initial ? kindsOf(initial) : []);
  const [match, setMatch] = useState<Record<string, string>>(() =>
    Object.fromEntries(MATCH_FIELDS.map((f) => [f, initial?.match[f] ?? ''])),
  );
  const [decide, setDecide] = useState(initial?.decide ?? 'ask');
  const [scopes, setScopes] = useState<string[]>(initial?.approvers?.scopes ?? []);
  const [people, setPeople] = useState((initial?.approvers?.people ?? []).join(', '));
  const [originator, setOriginator] = useState(initial?.approvers?.originator === true);
  const [quorum, setQuorum] = useState(initial?.quorum === undefined ? '' : String(initial.quorum));
  const [localOnly, setLocalOnly] = useState(initial?.localOnly === true);
  const [always, setAlways] = useState(alwaysChoiceOf(initial?.always));
  const [errors, setErrors] = useState<readonly FieldError[]>(serverErrors);
  const formRef = useRef<HTMLFormElement>(null);
  // Opened for the hub's 400: its first named field may be far below the top of the form.
  useEffect(() => {
    if (serverErrors.length > 0) formRef.current?.querySelector('[data-testid="field-error"]')?.scrollIntoView({ block: 'center' });
  }, []);

  const build = () => buildRule({ id, description, kinds, match, decide, scopes, people, originator, quorum, localOnly, always }, initial);

  const toggle = (list: string[], v: string, on: boolean) => (on ? [...list, v] : list.filter((x) => x !== v));
  const text = (label: MessageKey | string, path: string, value: string, set: (v: string) => void, name: string) => (
    <label class="field">
      <span>{label}</span>
      <input name={name} value={value} onInput={(e) => set(e.currentTarget.value)} spellcheck={false} autocapitalize="off" />
      <FieldErrors errors={errors} path={path} />
    </label>
  );

  return (
    <form
      ref={formRef}
      class="rule-form"
      data-testid="rule-form"
      onSubmit={(e) => {
        e.preventDefault();
        const rule = build();
        const found = ruleErrors(rule, otherIds);
        setErrors(found);
        if (found.length === 0) onDone(rule);
        // The first bad field may be above the fold of a phone: bring it and its message into view.
        else {
          const form = e.currentTarget;
          requestAnimationFrame(() => form.querySelector('[data-testid="field-error"]')?.scrollIntoView({ block: 'center' }));
        }
      }}
    >
      {text(t('policyRuleId'), 'id', id, setId, 'rule-id')}
      {text(t('policyDescription'), 'description', description, setDescription, 'rule-description')}
      <fieldset class="choices">
        <legend>{t('policyKinds')}</legend>
        <div class="kind-grid">
          {RULE_KINDS.map((k) => (
            <label class="choice inline" key={k}>
              <input type="checkbox" checked={kinds.includes(k)} onChange={(e) => setKinds(toggle(kinds, k, e.currentTarget.checked))} />
              <span>{k}</span>
            </label>
          ))}
        </div>
        <FieldErrors errors={errors} path="match.kind" />
      </fieldset>
      {MATCH_FIELDS.map((f) => (
        <div key={f}>{text(MATCH_LABELS[f], `match.${f}`, match[f] ?? '', (v) => setMatch({ ...match, [f]: v }), `rule-${f}`)}</div>
      ))}
      <label class="field">
        <span>{t('policyDecide')}</span>
        <select name="rule-decide" value={decide} onChange={(e) => setDecide(e.currentTarget.value)}>
          {DECISIONS.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
        <FieldErrors errors={errors} path="decide" />
      </label>
      {decide === 'ask' ? (
        <fieldset class="choices">
          <legend>{t('policyApprovers')}</legend>
          {APPROVER_SCOPES.map((s) => (
            <label class="choice" key={s}>
              <input type="checkbox" checked={scopes.includes(s)} onChange={(e) => setScopes(toggle(scopes, s, e.currentTarget.checked))} />
              <span>{s}</span>
            </label>
          ))}
          <FieldErrors errors={errors} path="approvers.scopes" />
          {text(t('policyPeople'), 'approvers.people', people, setPeople, 'rule-people')}
          <label class="choice">
            <input type="checkbox" checked={originator} onChange={(e) => setOriginator(e.currentTarget.checked)} />
            <span>{t('policyOriginator')}</span>
          </label>
          <label class="field">
            <span>{t('policyQuorum')}</span>
            <input name="rule-quorum" type="number" inputMode="numeric" value={quorum} onInput={(e) => setQuorum(e.currentTarget.value)} />
            <FieldErrors errors={errors} path="quorum" />
          </label>
          <label class="choice">
            <input type="checkbox" checked={localOnly} onChange={(e) => setLocalOnly(e.currentTarget.checked)} />
            <span>{t('policyLocalOnly')}</span>
          </label>
          <label class="field">
            <span>{t('policyAlways')}</span>
            <select name="rule-always" value={always} onChange={(e) => setAlways(e.currentTarget.value as AlwaysChoice)}>
              {(Object.keys(ALWAYS_LABELS) as AlwaysChoice[])
                .filter((c) => c !== 'kept' || always === 'kept')
                .map((c) => (
                  <option key={c} value={c}>
                    {t(ALWAYS_LABELS[c])}
                  </option>
                ))}
            </select>
            <FieldErrors errors={errors} path="always" />
          </label>
        </fieldset>
      ) : null}
      <div class="actions">
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button class="primary" type="submit">
          {t('policyDone')}
        </button>
      </div>
    </form>
  );
}
