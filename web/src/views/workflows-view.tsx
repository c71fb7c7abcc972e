/**
 * Saved workflows (HUB-DESIGN §6, ZCODE-PROTOCOL §8): list, start with arguments, watch a run
 * (polled), stop it. Shapes follow the settings API; unknown fields are shown as they come.
 */
import { useEffect, useState } from 'preact/hooks';
import { toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { api } from '../net/rest.js';
import { arr, rec, str } from '../wire.js';

interface Workflow {
  id: string;
  name: string;
  description?: string;
}

function parseWorkflows(body: unknown): Workflow[] {
  const list = Array.isArray(body) ? body : arr(rec(body)?.['workflows']);
  return list.flatMap((w) => {
    const r = rec(w);
    const id = str(r?.['workflowId']) ?? str(r?.['id']);
    return r && id ? [{ id, name: str(r['name']) ?? str(r['title']) ?? id, description: str(r['description']) }] : [];
  });
}

const POLL_MS = 2_000;

function RunWatch({ workflowId, runId }: { workflowId: string; runId: string }) {
  const [run, setRun] = useState<Record<string, unknown> | undefined>();
  useEffect(() => {
    let stop = false;
    const tick = async () => {
      try {
        const { body } = await api(`/settings/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(runId)}`);
        if (!stop) setRun(rec(body));
      } catch {
        // Keep the last state; the next poll retries.
      }
      if (!stop) setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      stop = true;
    };
  }, [runId]);
  const status = str(run?.['status']) ?? str(run?.['state']) ?? '…';
  return (
    <div class="run">
      <div class="row-between">
        <span>
          {t('run', runId)} · {t('status', status)}
        </span>
        <button
          class="danger"
          onClick={() =>
            void api(`/settings/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(runId)}/stop`, { method: 'POST', body: {} }).catch((err: Error) => toast(t('error', err.message)))
          }
        >
          {t('stopRun')}
        </button>
      </div>
      {run ? <pre class="tool-text">{JSON.stringify(run, null, 2).slice(0, 4000)}</pre> : null}
    </div>
  );
}

function WorkflowCard({ w }: { w: Workflow }) {
  const [args, setArgs] = useState('{}');
  const [runId, setRunId] = useState<string | undefined>();
  async function start() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(args || '{}');
    } catch (err) {
      toast(t('error', (err as Error).message));
      return;
    }
    try {
      const { body } = await api(`/settings/workflows/${encodeURIComponent(w.id)}/start`, { method: 'POST', body: { arguments: parsed } });
      const id = str(rec(body)?.['runId']) ?? str(rec(rec(body)?.['run'])?.['runId']);
      if (id) setRunId(id);
    } catch (err) {
      toast(t('error', (err as Error).message));
    }
  }
  return (
    <li class="card">
      <strong>{w.name}</strong>
      {w.description ? <p class="muted small">{w.description}</p> : null}
      <label class="field">
        <span>{t('arguments')}</span>
        <textarea rows={2} value={args} onInput={(e) => setArgs(e.currentTarget.value)} spellcheck={false} />
      </label>
      <button class="primary" onClick={() => void start()}>
        {t('start')}
      </button>
      {runId ? <RunWatch workflowId={w.id} runId={runId} /> : null}
    </li>
  );
}

/** The workflows screen. */
export function WorkflowsView() {
  const [list, setList] = useState<Workflow[] | undefined>();
  const [error, setError] = useState('');
  useEffect(() => {
    api('/settings/workflows')
      .then(({ body }) => setList(parseWorkflows(body)))
      .catch((err: Error) => setError(err.message));
  }, []);
  if (error) return <p class="error">{t('error', error)}</p>;
  if (!list) return <p class="muted">{t('loading')}</p>;
  if (!list.length) return <p class="muted">{t('noWorkflows')}</p>;
  return (
    <ul class="rows">
      {list.map((w) => (
        <WorkflowCard key={w.id} w={w} />
      ))}
    </ul>
  );
}
