/**
 * The doctor screen (admin): `GET /api/doctor`'s checks, and `zcode-hub doctor --probe` run by
 * the daemon (`POST /api/doctor/probe`, polled with GET) with its table of expectations, the
 * verdict and the report as a JSON file to attach to a bug report (docs/APP-SERVER.md §15).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { api, RestError } from '../net/rest.js';
import { arr, rec, str } from '../wire.js';

interface Check {
  id: string;
  status: string;
  message: string;
  fix?: string;
  details: string[];
}

interface Row {
  step: string;
  expectation: string;
  outcome: string;
  detail?: string;
}

type Job =
  | { state: 'idle' | 'running' }
  | { state: 'done'; report: Record<string, unknown>; rows: Row[]; verdict: string; backend: string }
  | { state: 'failed'; error: string };

function readChecks(body: unknown): Check[] {
  return arr(rec(body)?.['checks']).flatMap((c) => {
    const r = rec(c);
    const id = str(r?.['id']);
    const message = str(r?.['message']);
    if (!r || !id || message === undefined) return [];
    const fix = str(r['fix']);
    return [
      { id, status: str(r['status']) ?? 'warn', message, ...(fix ? { fix } : {}), details: arr(r['details']).flatMap((d) => str(d) ?? []) },
    ];
  });
}

function readJob(body: unknown): Job {
  const b = rec(body);
  const state = str(b?.['state']);
  if (state === 'failed') return { state, error: str(b?.['error']) ?? '' };
  if (state === 'done') {
    const report = rec(b?.['report']) ?? {};
    const rows = arr(report['rows']).flatMap((x) => {
      const r = rec(x);
      const step = str(r?.['step']);
      if (!r || !step) return [];
      const detail = str(r['detail']);
      return [{ step, expectation: str(r['expectation']) ?? '', outcome: str(r['outcome']) ?? '', ...(detail ? { detail } : {}) }];
    });
    const backend = rec(report['backend']);
    const what = str(backend?.['kind']) === 'sim' ? t('doctorProbeSim') : (str(backend?.['entry']) ?? 'ZCode CLI');
    return { state, report, rows, verdict: str(report['verdict']) ?? 'fail', backend: what };
  }
  return { state: state === 'running' ? 'running' : 'idle' };
}

const ICON: Record<string, string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL', differs: 'DIFFERS', missing: 'MISSING', skipped: 'skipped' };

/** Saves the report as `probe.json` (what docs/APP-SERVER.md §15.2 asks for). */
function download(report: Record<string, unknown>): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(report, null, 2)}\n`], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'probe.json';
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function Probe() {
  const [job, setJob] = useState<Job>({ state: 'idle' });
  const [noPrompt, setNoPrompt] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  async function poll() {
    try {
      const next = readJob((await api('/doctor/probe')).body);
      setJob(next);
      if (next.state === 'running') timer.current = setTimeout(() => void poll(), WEB_LIMITS.doctorProbePollMs);
    } catch (err) {
      setError((err as Error).message);
    }
  }
  useEffect(() => {
    void poll();
    return () => clearTimeout(timer.current);
  }, []);

  async function run() {
    setError(undefined);
    try {
      await api('/doctor/probe', { method: 'POST', body: { prompt: !noPrompt } });
    } catch (err) {
      // 409: one already runs (another admin started it): follow that one.
      if (!(err instanceof RestError && err.status === 409)) {
        setError(err instanceof RestError ? `${err.status} ${err.message}` : (err as Error).message);
        return;
      }
    }
    setJob({ state: 'running' });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void poll(), WEB_LIMITS.doctorProbePollMs);
  }

  const count = (o: string) => (job.state === 'done' ? job.rows.filter((r) => r.outcome === o).length : 0);
  return (
    <section class="card" data-testid="doctor-probe">
      <h2>{t('doctorProbeTitle')}</h2>
      <p class="muted small">{t('doctorProbeIntro')}</p>
      <label class="check-row">
        <input
          type="checkbox"
          checked={noPrompt}
          onChange={(e) => setNoPrompt(e.currentTarget.checked)}
          data-testid="doctor-probe-no-prompt"
        />
        <span>{t('doctorProbeNoPrompt')}</span>
      </label>
      <div class="actions">
        <button class="primary" type="button" disabled={job.state === 'running'} onClick={() => void run()} data-testid="doctor-probe-run">
          {job.state === 'running' ? t('doctorProbeRunning') : t('doctorProbeRun')}
        </button>
      </div>
      {error ? (
        <p class="error small" role="alert">
          {t('doctorProbeFailed', error)}
        </p>
      ) : null}
      {job.state === 'failed' ? (
        <p class="error small" role="status" data-testid="doctor-probe-verdict">
          {t('doctorProbeFailed', job.error)}
        </p>
      ) : null}
      {job.state === 'done' ? (
        <>
          <p class="muted small">{t('doctorProbeBackend', job.backend)}</p>
          <p class={job.verdict === 'pass' ? 'ok small' : 'error small'} role="status" data-testid="doctor-probe-verdict">
            {job.verdict === 'pass'
              ? t('doctorProbePass', String(count('ok')))
              : t('doctorProbeFail', String(count('differs')), String(count('missing')))}
          </p>
          <ul class="rows doctor-rows" data-testid="doctor-probe-rows">
            {job.rows.map((r, i) => (
              <li key={i} class={`doctor-row ${r.outcome}`} data-testid="doctor-probe-row" data-outcome={r.outcome}>
                <span class="small">
                  <b>{ICON[r.outcome] ?? r.outcome}</b> <code>{r.step}</code> {r.expectation}
                </span>
                {r.detail ? <span class="muted small doctor-detail">{r.detail}</span> : null}
              </li>
            ))}
          </ul>
          <div class="actions">
            <button type="button" onClick={() => download(job.report)} data-testid="doctor-probe-download">
              {t('doctorProbeDownload')}
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}

/** Settings › Doctor. */
export function DoctorView() {
  const [checks, setChecks] = useState<Check[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api('/doctor').then(
      ({ body }) => setChecks(readChecks(body)),
      (err: unknown) => setError((err as Error).message),
    );
  }, []);
  return (
    <>
      <section class="card">
        <h2>{t('doctor')}</h2>
        <p class="muted small">{t('doctorIntro')}</p>
        {error ? <p class="error small">{t('error', error)}</p> : null}
        {!checks && !error ? <p class="muted small">{t('doctorLoading')}</p> : null}
        {checks ? (
          <ul class="rows doctor-rows" data-testid="doctor-checks">
            {checks.map((c) => (
              <li
                key={`${c.id}-${c.message}`}
                class={`doctor-row ${c.status}`}
                data-testid="doctor-check"
                data-check={c.id}
                data-status={c.status}
              >
                <span class="small">
                  <b>{ICON[c.status] ?? c.status}</b> {c.message}
                </span>
                {c.details.map((d) => (
                  <span key={d} class="muted small doctor-detail">
                    {d}
                  </span>
                ))}
                {c.fix ? <span class="small doctor-detail">{t('doctorFix', c.fix)}</span> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      <Probe />
    </>
  );
}
