/**
 * Providers (ARCHITECTURE.md §6): list, add, edit, enable, test, delete. The API key is write-only:
 * the hub shows `hasKey` + the last four characters; an empty key field keeps the stored key.
 * Writes send the list's ETag as If-Match (a stale write answers 412: reload and retry).
 */
import { useEffect, useState } from 'preact/hooks';
import { toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { api } from '../net/rest.js';
import { arr, bool, rec, str } from '../wire.js';
import { ProviderTest } from './provider-test.js';
import { refusalText } from './provider-refusal.js';

interface Provider {
  providerId: string;
  name: string;
  enabled: boolean;
  apiType: string | null;
  baseUrl: string | null;
  hasKey: boolean;
  keyHint: string | null;
  models: string[];
  complete: boolean;
}

const API_TYPES = ['anthropic-messages', 'openai-chat-completions', 'openai-responses'];

function parseProviders(body: unknown): Provider[] {
  const list = Array.isArray(body) ? body : arr(rec(body)?.['providers']);
  return list.flatMap((p) => {
    const r = rec(p);
    const providerId = str(r?.['providerId']);
    if (!r || providerId === undefined) return [];
    return [
      {
        providerId,
        name: str(r['name']) ?? providerId,
        enabled: bool(r['enabled']) ?? true,
        apiType: str(r['apiType']) ?? null,
        baseUrl: str(r['baseUrl']) ?? null,
        hasKey: bool(r['hasKey']) ?? false,
        keyHint: str(r['keyHint']) ?? null,
        models: arr(r['models']).filter((m): m is string => typeof m === 'string'),
        complete: bool(r['complete']) ?? true,
      },
    ];
  });
}

function ProviderForm({ initial, etag, onDone }: { initial?: Provider; etag?: string; onDone: () => void }) {
  const [providerId, setId] = useState(initial?.providerId ?? '');
  const [name, setName] = useState(initial?.name ?? '');
  const [apiType, setApiType] = useState(initial?.apiType ?? API_TYPES[0] ?? '');
  const [baseUrl, setBaseUrl] = useState(initial?.baseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState((initial?.models ?? []).join('\n'));
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [busy, setBusy] = useState(false);
  const headers: Record<string, string> = etag ? { 'if-match': etag } : {};

  async function save() {
    setBusy(true);
    const body: Record<string, unknown> = {
      name: name.trim() || providerId.trim(),
      apiType,
      baseUrl: baseUrl.trim(),
      models: models
        .split('\n')
        .map((m) => m.trim())
        .filter(Boolean),
      enabled,
      ...(apiKey ? { apiKey } : {}),
    };
    try {
      if (initial) await api(`/settings/providers/${encodeURIComponent(initial.providerId)}`, { method: 'PATCH', body, headers });
      else await api('/settings/providers', { method: 'POST', body: { providerId: providerId.trim(), ...body }, headers });
      toast(t('saved'));
      onDone();
    } catch (err) {
      toast(t('error', refusalText(err)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="provider-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {!initial ? (
        <label class="field">
          <span>{t('providerId')}</span>
          <input value={providerId} onInput={(e) => setId(e.currentTarget.value)} required spellcheck={false} autocapitalize="off" />
        </label>
      ) : null}
      <label class="field">
        <span>{t('providerName')}</span>
        <input value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label class="field">
        <span>{t('apiType')}</span>
        <select value={apiType} onChange={(e) => setApiType(e.currentTarget.value)}>
          {API_TYPES.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>{t('baseUrl')}</span>
        <input
          type="url"
          value={baseUrl}
          onInput={(e) => setBaseUrl(e.currentTarget.value)}
          required
          spellcheck={false}
          autocapitalize="off"
        />
      </label>
      <label class="field">
        <span>{t('apiKey')}</span>
        <input
          type="password"
          autocomplete="off"
          value={apiKey}
          placeholder={initial?.hasKey ? t('apiKeyKeep') : ''}
          onInput={(e) => setApiKey(e.currentTarget.value)}
        />
      </label>
      <label class="field">
        <span>{t('models')}</span>
        <textarea rows={3} value={models} onInput={(e) => setModels(e.currentTarget.value)} spellcheck={false} />
      </label>
      <label class="choice">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <span>{t('enabled')}</span>
      </label>
      <div class="actions">
        <button type="button" onClick={onDone}>
          {t('cancel')}
        </button>
        <button class="primary" type="submit" disabled={busy}>
          {t('save')}
        </button>
      </div>
    </form>
  );
}

/** The providers screen; without `canChange` (a non-admin device) the list only, nothing to press. */
export function ProvidersView({ canChange }: { canChange: boolean }) {
  const [list, setList] = useState<Provider[] | undefined>();
  const [etag, setEtag] = useState<string | undefined>();
  const [editing, setEditing] = useState<string | undefined>();
  const [testing, setTesting] = useState<string | undefined>();
  const [error, setError] = useState('');

  async function load() {
    try {
      const { body, headers } = await api('/settings/providers');
      setList(parseProviders(body));
      setEtag(headers.get('etag') ?? undefined);
      setError('');
    } catch (err) {
      setError((err as Error).message);
    }
  }
  useEffect(() => void load(), []);

  async function act(p: Provider, what: 'delete' | 'toggle') {
    const path = `/settings/providers/${encodeURIComponent(p.providerId)}`;
    const headers: Record<string, string> = etag ? { 'if-match': etag } : {};
    try {
      if (what === 'delete') {
        if (!confirm(t('confirmDelete', p.name))) return;
        await api(path, { method: 'DELETE', headers });
        toast(t('deleted'));
      } else await api(path, { method: 'PATCH', body: { enabled: !p.enabled }, headers });
      await load();
    } catch (err) {
      toast(t('error', (err as Error).message));
    }
  }

  if (error) return <p class="error">{t('error', error)}</p>;
  if (!list) return <p class="muted">{t('loading')}</p>;
  return (
    <div>
      <ul class="rows">
        {list.map((p) => (
          <li key={p.providerId} class="card" data-testid="provider">
            <div class="row-between">
              <strong>{p.name}</strong>
              <label class="choice inline">
                <input
                  type="checkbox"
                  checked={p.enabled}
                  disabled={!canChange}
                  onChange={() => void act(p, 'toggle')}
                  aria-label={`${t('enabled')}: ${p.name}`}
                />
              </label>
            </div>
            <div class="muted small">
              {p.apiType ?? '?'} · {p.hasKey ? t('apiKeySet', p.keyHint ?? '') : t('apiKeyNone')} {p.complete ? '' : `· ${t('incomplete')}`}
            </div>
            <div class="muted small">{p.models.join(', ')}</div>
            {editing === p.providerId ? (
              <ProviderForm
                initial={p}
                etag={etag}
                onDone={() => {
                  setEditing(undefined);
                  void load();
                }}
              />
            ) : testing === p.providerId ? (
              <ProviderTest providerId={p.providerId} models={p.models} onClose={() => setTesting(undefined)} />
            ) : !canChange ? null : (
              <div class="actions">
                <button type="button" onClick={() => setTesting(p.providerId)} data-testid="provider-test-open">
                  {t('test')}
                </button>
                <button type="button" onClick={() => setEditing(p.providerId)}>
                  {t('edit')}
                </button>
                <button type="button" class="danger" onClick={() => void act(p, 'delete')}>
                  {t('delete')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {editing === '' ? (
        <section class="card">
          <ProviderForm
            etag={etag}
            onDone={() => {
              setEditing(undefined);
              void load();
            }}
          />
        </section>
      ) : canChange ? (
        <button type="button" class="primary wide" onClick={() => setEditing('')}>
          {t('addProvider')}
        </button>
      ) : null}
    </div>
  );
}
