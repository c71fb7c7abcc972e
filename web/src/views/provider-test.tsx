/**
 * "Test" on a provider card: which model to test (and at which reasoning level, for models that
 * have levels) and the hub's answer (`POST /api/settings/providers/{id}/test {modelId,
 * reasoningLevel?}` → `{success, message?}`). A failed test is a result, not an error toast.
 */
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { api, RestError } from '../net/rest.js';
import { arr, rec, str } from '../wire.js';

/** Reasoning levels of each model of `providerId`, from the hub's model catalog. */
async function levelsOf(providerId: string): Promise<Record<string, { levels: string[]; defaultLevel?: string }>> {
  const { body } = await api('/settings/models');
  const out: Record<string, { levels: string[]; defaultLevel?: string }> = {};
  for (const m of arr(rec(body)?.['models'])) {
    const r = rec(m);
    const ref = rec(r?.['ref']);
    const modelId = str(ref?.['modelId']);
    if (!r || !modelId || str(ref?.['providerId']) !== providerId) continue;
    const reasoning = rec(r['reasoning']);
    const levels = arr(reasoning?.['levels']).flatMap((l) => (str(rec(l)?.['value']) ? [str(rec(l)?.['value']) ?? ''] : []));
    if (levels.length) out[modelId] = { levels, defaultLevel: str(reasoning?.['defaultLevel']) };
  }
  return out;
}

type Outcome = { ok: true } | { ok: false; message: string };

/** The test panel of one provider. */
export function ProviderTest({ providerId, models, onClose }: { providerId: string; models: string[]; onClose: () => void }) {
  const [modelId, setModelId] = useState(models[0] ?? '');
  const [catalog, setCatalog] = useState<Awaited<ReturnType<typeof levelsOf>>>({});
  const [level, setLevel] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  // A disabled or incomplete provider is not in the catalog: the test then runs without a level.
  useEffect(() => void levelsOf(providerId).then(setCatalog, () => undefined), [providerId]);
  const levels = catalog[modelId];
  useEffect(() => setLevel(levels ? (levels.defaultLevel ?? levels.levels[0] ?? '') : ''), [modelId, levels]);

  async function run() {
    setBusy(true);
    setOutcome(undefined);
    try {
      const { body } = await api(`/settings/providers/${encodeURIComponent(providerId)}/test`, {
        method: 'POST',
        body: { modelId, ...(level ? { reasoningLevel: level } : {}) },
      });
      const r = rec(body);
      setOutcome(r?.['success'] === true ? { ok: true } : { ok: false, message: str(r?.['message']) ?? '' });
    } catch (err) {
      setOutcome({ ok: false, message: err instanceof RestError ? `${err.status} ${err.message}` : (err as Error).message });
    } finally {
      setBusy(false);
    }
  }

  if (!models.length) return <p class="muted small">{t('testNoModels')}</p>;
  return (
    <div class="provider-test" data-testid="provider-test">
      <label class="field">
        <span>{t('testModel')}</span>
        <select value={modelId} onChange={(e) => setModelId(e.currentTarget.value)} data-testid="test-model">
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      {levels ? (
        <label class="field">
          <span>{t('thoughtLevel')}</span>
          <select value={level} onChange={(e) => setLevel(e.currentTarget.value)} data-testid="test-level">
            {levels.levels.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {outcome ? (
        <p class={outcome.ok ? 'ok small' : 'error small'} role="status" data-testid="test-result">
          {outcome.ok ? t('testOk') : t('testFailed', outcome.message)}
        </p>
      ) : null}
      <div class="actions">
        <button type="button" onClick={onClose}>
          {t('close')}
        </button>
        <button class="primary" type="button" onClick={() => void run()} disabled={busy || !modelId} data-testid="test-run">
          {busy ? t('testing') : t('test')}
        </button>
      </div>
    </div>
  );
}
