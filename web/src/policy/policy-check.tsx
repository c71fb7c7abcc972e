/**
 * The dry run (`POST /api/policy/check`, admin): a request described by hand, or one of the
 * recent requests of a picked session (recent-requests.ts, read from its journal), answered with
 * the rule that decides it and who could answer it. The hub's 400 is shown as it says it.
 */
import { useEffect, useState } from 'preact/hooks';
import { store } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { api, RestError } from '../net/rest.js';
import { useSelector } from '../store.js';
import { arr, num, rec, str } from '../wire.js';
import { RULE_KINDS } from './policy-rules.js';
import { recentRequests, type RecentRequest } from './recent-requests.js';

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

/** The newest journal entries of a session (a window of WEB_LIMITS.policyRecentEvents). */
async function journalTail(sessionId: string): Promise<unknown[]> {
  const path = `/sessions/${encodeURIComponent(sessionId)}/events`;
  const head = rec((await api(`${path}?limit=1`)).body);
  const last = num(head?.['lastSeq']) ?? 0;
  const after = Math.max(0, last - WEB_LIMITS.policyRecentEvents);
  return arr(rec((await api(`${path}?afterSeq=${after}&limit=${WEB_LIMITS.policyRecentEvents}`)).body)?.['events']);
}

/**
 * A session's recent requests: from the journal, else — a session nobody loaded since the hub
 * started has an empty journal — from the conversation as the agent stored it
 * (`GET /api/sessions/{id}/history`, with who answered each request).
 */
async function recentOf(sessionId: string, pending: ReadonlySet<string>): Promise<RecentRequest[]> {
  // 404: the hub has not opened the session since it started, so it has no journal of it.
  const journal = await journalTail(sessionId).catch((err: unknown) => {
    if (err instanceof RestError && err.status === 404) return [];
    throw err;
  });
  const found = recentRequests(journal, pending, WEB_LIMITS.policyRecentRequests);
  if (found.length > 0) return found;
  const history = rec((await api(`/sessions/${encodeURIComponent(sessionId)}/history?limit=${WEB_LIMITS.policyRecentEvents}`)).body);
  return recentRequests(arr(history?.['updates']), pending, WEB_LIMITS.policyRecentRequests);
}

/** The picked session's recent requests, each a button that checks it. */
function RecentList({ sessionId, check, busy }: { sessionId: string; check: (r: RecentRequest) => void; busy: boolean }) {
  const interactions = useSelector(store, (s) => s.interactions);
  const [list, setList] = useState<RecentRequest[] | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    setList(undefined);
    setError('');
    const pending = new Set(
      Object.values(interactions).flatMap((i) =>
        i.sessionId === sessionId && i.toolCallId && i.hubId === undefined ? [i.toolCallId] : [],
      ),
    );
    recentOf(sessionId, pending)
      .then((found) => live && setList(found))
      .catch((err: Error) => live && setError(err.message));
    return () => void (live = false);
  }, [sessionId]);
  if (error) return <p class="error small">{t('error', error)}</p>;
  if (!list) return <p class="muted small">{t('loading')}</p>;
  if (list.length === 0)
    return (
      <p class="muted small" data-testid="recent-none">
        {t('policyRecentNone')}
      </p>
    );
  return (
    <ul class="rows recent-requests" data-testid="recent-requests" aria-label={t('policyRecent')}>
      {list.map((r) => (
        <li key={r.toolCallId} class="recent-request" data-testid="recent-request">
          <button type="button" class="link" disabled={busy} onClick={() => check(r)}>
            <code class="recent-title">{r.title}</code>
          </button>
          <div class="muted small">
            {r.tool}
            {r.pending ? ` · ${t('policyRecentPending')}` : r.answeredBy ? ` · ${t('policyRecentAnswered', r.answeredBy)}` : ''}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The "test a request" card. */
export function PolicyCheck() {
  const [kind, setKind] = useState('execute');
  const [tool, setTool] = useState('');
  const [command, setCommand] = useState('');
  const [path, setPath] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [result, setResult] = useState<CheckResult | undefined>();
  const [checked, setChecked] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Sessions of this hub (not of other machines: their rules are theirs), newest first.
  const sessions = useSelector(store, (s) => s.sessions);
  const here = Object.values(sessions)
    .filter((x) => x.hubId === undefined)
    .sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));

  async function run(request: Record<string, unknown>, what: string) {
    setBusy(true);
    setError('');
    try {
      const { body } = await api('/policy/check', {
        method: 'POST',
        body: { request, ...(sessionId ? { sessionId } : {}) },
      });
      setResult(parseCheck(body));
      setChecked(what);
    } catch (err) {
      setResult(undefined);
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  function runDescribed() {
    const request = kind === 'question' || kind === 'plan' ? { kind } : toolRequest(kind, tool.trim(), command.trim(), path.trim());
    void run(request, '');
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
      <label class="field">
        <span>{t('policyTestSession')}</span>
        <select name="check-session" value={sessionId} onChange={(e) => setSessionId(e.currentTarget.value)}>
          <option value="">{t('policyTestNoSession')}</option>
          {here.map((x) => (
            <option key={x.sessionId} value={x.sessionId}>
              {x.title ?? t('untitled')}
            </option>
          ))}
        </select>
      </label>
      {sessionId ? (
        <div class="recent">
          <h3 class="small">{t('policyRecent')}</h3>
          <RecentList sessionId={sessionId} busy={busy} check={(r) => void run(r.request, r.title)} />
        </div>
      ) : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          runDescribed();
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
        <div class="actions">
          <button class="primary" type="submit" disabled={busy}>
            {t('policyTestRun')}
          </button>
        </div>
      </form>
      {error ? (
        <p class="error small" data-testid="check-error">
          {t('error', error)}
        </p>
      ) : null}
      {result ? (
        <div class="check-result" data-testid="check-result" role="status">
          {checked ? (
            <div class="small" data-testid="check-of">
              <code>{checked}</code>
            </div>
          ) : null}
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
