/**
 * The approval rules screen (docs/SECURITY.md "Approval rules"): the rules in order, read by
 * operate devices, edited by admins (add, edit, move up/down, remove) and saved as one
 * `PUT /api/policy` with the revision they were read at, so a change made elsewhere meanwhile
 * answers 409 instead of being overwritten. View devices get the hub's 403 in words.
 */
import { useEffect, useState } from 'preact/hooks';
import { toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { api, RestError } from '../net/rest.js';
import { AlwaysGrants } from './always-grants.js';
import { PolicyCheck } from './policy-check.js';
import { apiFieldErrors, kindsOf, moveRule, parsePolicy, type FieldError, type Policy, type Rule } from './policy-rules.js';
import { RuleForm } from './rule-form.js';
import { AdminOnly, OperateOnly } from '../views/admin-help.js';

function matchText(rule: Rule): string {
  const kinds = kindsOf(rule);
  const parts = [
    ...(kinds.length > 0 ? [kinds.join(' | ')] : []),
    ...(['tool', 'command', 'path', 'workspace', 'session'] as const).flatMap((f) =>
      rule.match[f] === undefined ? [] : [`${f} ${rule.match[f]}`],
    ),
  ];
  return parts.length > 0 ? parts.join(' · ') : t('policyEverything');
}

function approversText(rule: Rule): string {
  const a = rule.approvers;
  const who = [...(a?.scopes ?? []), ...(a?.people ?? []), ...(a?.originator ? [t('policyOriginator')] : [])];
  return who.length > 0 ? who.join(', ') : 'operate';
}

function RuleSummary({ rule }: { rule: Rule }) {
  return (
    <div class="rule-summary">
      <div class="row-between">
        <strong class="rule-id" data-testid="rule-id">
          {rule.id}
        </strong>
        <span class={`decide decide-${rule.decide}`}>{rule.decide}</span>
      </div>
      {rule.description ? <div class="small">{rule.description}</div> : null}
      <div class="muted small">
        {t('policyMatches')}: {matchText(rule)}
      </div>
      {rule.decide === 'ask' ? (
        <div class="muted small">
          {t('policyApprovers')}: {approversText(rule)}
          {rule.quorum !== undefined ? ` · ${t('policyQuorum')} ${rule.quorum}` : ''}
          {rule.localOnly ? ` · ${t('policyLocalOnly')}` : ''}
          {rule.always === false ? ` · ${t('policyAlways')}: ${t('policyAlwaysNobody')}` : ''}
          {rule.always !== undefined && rule.always !== false
            ? ` · ${t('policyAlways')}: ${Object.keys(rule.always).length === 0 ? t('policyAlwaysAnswerers') : approversText({ ...rule, approvers: rule.always })}`
            : ''}
        </div>
      ) : null}
    </div>
  );
}

/** The rules as saved on the hub and as edited here, loading and saving them (a 409 names the newer revision, a 400 the fields). */
function usePolicy(scope: string | undefined) {
  const [saved, setSaved] = useState<Policy | undefined>();
  const [rules, setRules] = useState<Rule[]>([]);
  const [editing, setEditing] = useState<number | 'new' | undefined>();
  const [serverErrors, setServerErrors] = useState<Map<number, FieldError[]>>(new Map());
  const [conflict, setConflict] = useState<number | undefined>();
  const [error, setError] = useState('');
  const [denied, setDenied] = useState(false);
  const [busy, setBusy] = useState(false);

  async function load() {
    try {
      const p = parsePolicy((await api('/policy')).body);
      if (!p) throw new Error('unexpected answer');
      setSaved(p);
      setRules(p.rules);
      setEditing(undefined);
      setServerErrors(new Map());
      setConflict(undefined);
      setError('');
    } catch (err) {
      if (err instanceof RestError && err.status === 403) setDenied(true);
      else setError((err as Error).message);
    }
  }
  // The scope comes with the handshake: a view device is told at once, without a request the hub
  // would refuse (a 403 is a console error in every browser); a 403 still lands here if it changes.
  useEffect(() => {
    if (scope === 'view') setDenied(true);
    else if (scope !== undefined) void load();
  }, [scope]);

  async function save() {
    if (!saved) return;
    setBusy(true);
    try {
      const p = parsePolicy((await api('/policy', { method: 'PUT', body: { rules, revision: saved.revision } })).body);
      if (!p) throw new Error('unexpected answer');
      setSaved(p);
      setRules(p.rules);
      setServerErrors(new Map());
      toast(t('policySaved', String(p.revision)));
    } catch (err) {
      if (err instanceof RestError && err.status === 409) {
        const now = parsePolicy((await api('/policy').catch(() => ({ body: undefined }))).body);
        setConflict(now?.revision ?? saved.revision + 1);
      } else if (err instanceof RestError && err.status === 400) {
        const byRule = apiFieldErrors(err.body, err.message);
        setServerErrors(byRule);
        const first = [...byRule.keys()].find((i) => i >= 0);
        if (first !== undefined) setEditing(first);
        setError(
          byRule
            .get(-1)
            ?.map((e) => e.message)
            .join('; ') ?? '',
        );
      } else setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return { saved, rules, setRules, editing, setEditing, serverErrors, conflict, error, denied, busy, load, save };
}

/** The screen; `scope` = this device's (known once the handshake is done); admin may edit (the hub checks again on every write). */
export function PolicyView({ scope }: { scope: string | undefined }) {
  const admin = scope === 'admin';
  const { saved, rules, setRules, editing, setEditing, serverErrors, conflict, error, denied, busy, load, save } = usePolicy(scope);

  if (denied)
    return (
      <div data-testid="policy-denied">
        <OperateOnly text={t('policyViewDenied')} />
      </div>
    );
  if (!saved) return error ? <p class="error">{t('error', error)}</p> : <p class="muted">{t('loading')}</p>;
  const dirty = JSON.stringify(rules) !== JSON.stringify(saved.rules);
  const idsBut = (i: number) => rules.filter((_, j) => j !== i).map((r) => r.id);
  return (
    <div class="policy" data-testid="policy">
      <p class="muted small">{t('policyIntro')}</p>
      <p class="muted small" data-testid="policy-revision">
        {t('policyRevision', String(saved.revision))}
        {dirty ? ` · ${t('policyUnsaved')}` : ''}
      </p>
      <PolicyNotices admin={admin} conflict={conflict} error={error} onReload={() => void load()} />
      {rules.length === 0 ? <p class="muted">{t('policyNone')}</p> : null}
      <ol class="rows rule-list">
        {rules.map((rule, i) => (
          <li key={`${i}:${rule.id}`} class="card" data-testid="rule">
            {editing === i ? (
              <RuleForm
                initial={rule}
                otherIds={idsBut(i)}
                serverErrors={serverErrors.get(i) ?? []}
                onCancel={() => setEditing(undefined)}
                onDone={(r) => {
                  setRules(rules.map((x, j) => (j === i ? r : x)));
                  setEditing(undefined);
                }}
              />
            ) : (
              <>
                <RuleSummary rule={rule} />
                {admin ? <RuleActions rules={rules} index={i} onChange={setRules} onEdit={() => setEditing(i)} /> : null}
              </>
            )}
          </li>
        ))}
      </ol>
      {admin ? (
        <>
          {editing === 'new' ? (
            <section class="card">
              <RuleForm
                otherIds={rules.map((r) => r.id)}
                onCancel={() => setEditing(undefined)}
                onDone={(r) => {
                  setRules([...rules, r]);
                  setEditing(undefined);
                }}
              />
            </section>
          ) : (
            <button type="button" class="wide" onClick={() => setEditing('new')}>
              {t('policyAdd')}
            </button>
          )}
          <button type="button" class="primary wide" disabled={busy || !dirty || conflict !== undefined} onClick={() => void save()}>
            {t('save')}
          </button>
          <PolicyCheck />
        </>
      ) : null}
      <AlwaysGrants admin={admin} />
    </div>
  );
}

/** Move up, move down, edit and delete one rule (the list changes locally until Save). */
function RuleActions({
  rules,
  index,
  onChange,
  onEdit,
}: {
  rules: Rule[];
  index: number;
  onChange: (rules: Rule[]) => void;
  onEdit: () => void;
}) {
  const rule = rules[index]!;
  return (
    <div class="actions">
      <button
        type="button"
        aria-label={t('policyMoveUp', rule.id)}
        disabled={index === 0}
        onClick={() => onChange(moveRule(rules, index, -1))}
      >
        ↑
      </button>
      <button
        type="button"
        aria-label={t('policyMoveDown', rule.id)}
        disabled={index === rules.length - 1}
        onClick={() => onChange(moveRule(rules, index, 1))}
      >
        ↓
      </button>
      <button type="button" aria-label={t('policyEditRule', rule.id)} onClick={onEdit}>
        {t('edit')}
      </button>
      <button
        type="button"
        class="danger"
        aria-label={t('policyRemoveRule', rule.id)}
        onClick={() => onChange(rules.filter((_, j) => j !== index))}
      >
        {t('delete')}
      </button>
    </div>
  );
}

/** Read-only for this device, a newer revision saved elsewhere, or the last error. */
function PolicyNotices(p: { admin: boolean; conflict: number | undefined; error: string; onReload: () => void }) {
  const { admin, conflict, error, onReload } = p;
  return (
    <>
      {!admin ? (
        <div class="small" data-testid="policy-read-only">
          <AdminOnly text={t('policyReadOnly')} />
        </div>
      ) : null}
      {conflict !== undefined ? (
        <div class="card conflict" role="alert" data-testid="policy-conflict">
          <p>{t('policyConflict', String(conflict))}</p>
          <button type="button" class="primary" onClick={onReload}>
            {t('policyReload')}
          </button>
        </div>
      ) : null}
      {error ? (
        <p class="error" role="alert">
          {t('error', error)}
        </p>
      ) : null}
    </>
  );
}
