/**
 * Saved workflows (ARCHITECTURE.md §6, APP-SERVER.md §8): list, start with arguments, watch the
 * run (polled), stop it. Routes: src/http/routes/settings-workflows.ts.
 */
import { useEffect, useState } from 'preact/hooks';
import { toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { WorkflowsEmpty } from './admin-help.js';
import { api } from '../net/rest.js';
import { navigate } from '../router.js';
import { arr, rec, str } from '../wire.js';

interface Workflow {
  name: string;
  scope: string;
  description?: string;
}

function parseWorkflows(body: unknown): Workflow[] {
  return arr(rec(body)?.['workflows']).flatMap((w) => {
    const r = rec(w);
    const name = str(r?.['name']);
    return r && name ? [{ name, scope: str(r['scope']) ?? 'project', description: str(r['description']) }] : [];
  });
}

const POLL_MS = 2_000;
const FINAL = new Set(['completed', 'failed', 'cancelled', 'stopped', 'succeeded', 'error']);

function RunWatch({ sessionId, runId }: { sessionId: string; runId: string }) {
  const [run, setRun] = useState<Record<string, unknown> | undefined>();
  const base = `/settings/workflow-runs/${encodeURIComponent(sessionId)}/${encodeURIComponent(runId)}`;
  useEffect(() => {
    let stop = false;
    const tick = async () => {
      let status = '';
      try {
        const { body } = await api(base);
        if (!stop) setRun(rec(body));
        status = str(rec(body)?.['status']) ?? '';
      } catch {
        // Keep the last state; the next poll retries.
      }
      if (!stop && !FINAL.has(status)) setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      stop = true;
    };
  }, [runId]);
  const status = str(run?.['status']) ?? '…';
  return (
    <div class="run" data-testid="workflow-run">
      <div class="row-between">
        <span>
          {t('run', runId)} · {t('status', status)}
        </span>
        {!FINAL.has(status) ? (
          <button
            type="button"
            class="danger"
            onClick={() => void api(`${base}/stop`, { method: 'POST', body: {} }).catch((err: Error) => toast(t('error', err.message)))}
          >
            {t('stopRun')}
          </button>
        ) : null}
      </div>
      <button type="button" class="link" onClick={() => navigate({ name: 'chat', sessionId })}>
        {t('openSession')}
      </button>
    </div>
  );
}

/** A saved workflow; with `canRun` (an operate or admin device) its arguments, Start and the run started. */
function WorkflowCard({ w, canRun }: { w: Workflow; canRun: boolean }) {
  const [args, setArgs] = useState('{}');
  const [run, setRun] = useState<{ sessionId: string; runId: string } | undefined>();
  async function start() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args || '{}');
    } catch (err) {
      toast(t('error', (err as Error).message));
      return;
    }
    try {
      const { body } = await api(`/settings/workflows/${encodeURIComponent(w.scope)}/${encodeURIComponent(w.name)}/start`, {
        method: 'POST',
        body: { args: rec(parsed) ?? {} },
      });
      const sessionId = str(rec(body)?.['sessionId']);
      const runId = str(rec(body)?.['runId']);
      if (sessionId && runId) setRun({ sessionId, runId });
    } catch (err) {
      toast(t('error', (err as Error).message));
    }
  }
  return (
    <li class="card">
      <strong>{w.name}</strong> <span class="muted small">{w.scope}</span>
      {w.description ? <p class="muted small">{w.description}</p> : null}
      {canRun ? (
        <>
          <label class="field">
            <span>{t('arguments')}</span>
            <textarea rows={2} value={args} onInput={(e) => setArgs(e.currentTarget.value)} spellcheck={false} />
          </label>
          <button type="button" class="primary" onClick={() => void start()}>
            {t('start')}
          </button>
          {run ? <RunWatch sessionId={run.sessionId} runId={run.runId} /> : null}
        </>
      ) : null}
    </li>
  );
}

/** The workflows screen; without `canRun` (a view device) the saved workflows only. */
export function WorkflowsView({ canRun }: { canRun: boolean }) {
  const [list, setList] = useState<Workflow[] | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    api('/settings/workflows')
      .then(({ body }) => setList(parseWorkflows(body)))
      .catch((err: Error) => setError(err.message));
  }, []);
  if (error) return <p class="error">{t('error', error)}</p>;
  if (!list) return <p class="muted">{t('loading')}</p>;
  if (!list.length) return <WorkflowsEmpty />;
  return (
    <ul class="rows">
      {list.map((w) => (
        <WorkflowCard key={`${w.scope}/${w.name}`} w={w} canRun={canRun} />
      ))}
    </ul>
  );
}
