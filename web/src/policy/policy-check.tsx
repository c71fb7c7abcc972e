/**
 * The dry run (`POST /api/policy/check`, admin): a request described by hand, and optionally the
 * session it would come from, answered with the rule that decides it and who could answer it.
 */
import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { api } from '../net/rest.js';
import { arr, num, rec, str } from '../wire.js';
import { RULE_KINDS } from './policy-rules.js';

interface CheckResult {
  ruleId: string | null;
  decision: string;
  waitingFor: string;
  quorum: number;
  localOnly: boolean;
  scopes: string[];
  people: string[];
}

function parseCheck(body: unknown): CheckResult | undefined {
  const r = rec(body);
  const a = rec(r?.['approvers']);
  const decision = str(r?.['decision']);
  if (!r || !a || decision === undefined) return undefined;
  const list = (v: unknown) => arr(v).filter((x): x is string => typeof x === 'string');
  return {
    ruleId: str(r['ruleId']) ?? null,
    decision,
    waitingFor: str(a['waitingFor']) ?? '',
    quorum: num(a['quorum']) ?? 1,
    localOnly: a['localOnly'] === true,
    scopes: list(a['scopes']),
    people: list(a['people']),
  };
}

/** A tool of each kind (the hub reads the kind from the tool's name, src/acp/tool-info.ts): the tool when none is typed. */
const TOOL_OF_KIND: Record<string, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Grep',
  execute: 'Bash',
  think: 'Task',
  fetch: 'WebFetch',
  switch_mode: 'ExitPlanMode',
  other: 'Other',
};

/** The request the hub's matcher reads (src/policy/rule-match.ts toolFacts) for a described one. */
function toolRequest(kind: string, tool: string, command: string, path: string): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (command) input['command'] = command;
  if (path) input['path'] = path;
  return { kind: 'permission', tool: tool || (TOOL_OF_KIND[kind] ?? kind), input };
}

/** The "test a request" card. */
export function PolicyCheck() {
  const [kind, setKind] = useState('execute');
  const [tool, setTool] = useState('');
  const [command, setCommand] = useState('');
  const [path, setPath] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [result, setResult] = useState<CheckResult | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function run() {
    setBusy(true);
    setError('');
    const request = kind === 'question' || kind === 'plan' ? { kind } : toolRequest(kind, tool.trim(), command.trim(), path.trim());
    try {
      const { body } = await api('/policy/check', {
        method: 'POST',
        body: { request, ...(sessionId.trim() ? { sessionId: sessionId.trim() } : {}) },
      });
      setResult(parseCheck(body));
    } catch (err) {
      setResult(undefined);
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const field = (label: string, value: string, set: (v: string) => void, name: string) => (
    <label class="field">
      <span>{label}</span>
      <input name={name} value={value} onInput={(e) => set(e.currentTarget.value)} spellcheck={false} autocapitalize="off" />
    </label>
  );
  const toolLike = kind !== 'question' && kind !== 'plan';
  return (
    <section class="card" data-testid="policy-check">
      <h2>{t('policyTest')}</h2>
      <p class="muted small">{t('policyTestSaved')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <label class="field">
          <span>{t('policyTestKind')}</span>
          <select name="check-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            {RULE_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        {toolLike ? field(`${t('policyTestTool')} (${TOOL_OF_KIND[kind] ?? kind})`, tool, setTool, 'check-tool') : null}
        {toolLike ? field(t('policyTestCommand'), command, setCommand, 'check-command') : null}
        {toolLike ? field(t('policyTestPath'), path, setPath, 'check-path') : null}
        {field(t('policyTestSession'), sessionId, setSessionId, 'check-session')}
        <div class="actions">
          <button class="primary" type="submit" disabled={busy}>
            {t('policyTestRun')}
          </button>
        </div>
      </form>
      {error ? <p class="error small">{t('error', error)}</p> : null}
      {result ? (
        <div class="check-result" data-testid="check-result" role="status">
          <strong>{t('policyTestResult', result.ruleId ?? t('policyTestNoRule'), result.decision)}</strong>
          <div class="small">{result.waitingFor}</div>
          {result.decision === 'ask' ? (
            <div class="muted small">
              {[...result.scopes, ...result.people].join(', ')}
              {result.quorum > 1 ? ` · ${t('policyQuorum')} ${result.quorum}` : ''}
              {result.localOnly ? ` · ${t('policyLocalOnly')}` : ''}
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
