import { useEffect, useState } from 'preact/hooks';
import { toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { api } from '../net/rest.js';
import { rec, str } from '../wire.js';

interface Urls {
  configured?: string;
  added: string[];
}

function parse(body: unknown): Urls {
  const b = rec(body);
  const added = Array.isArray(b?.['added']) ? b['added'].flatMap((x) => (typeof x === 'string' ? [x] : [])) : [];
  const configured = str(b?.['configured']);
  return configured ? { configured, added } : { added };
}

/**
 * Admin: the addresses the hub answers to, and adding a tunnel's address without a restart
 * (`/api/settings/public-urls`). The phone must already reach the hub some other way to do it.
 */
export function PublicUrlsCard() {
  const [urls, setUrls] = useState<Urls | undefined>();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    api('/settings/public-urls').then(
      ({ body }) => setUrls(parse(body)),
      (err: Error) => setError(err.message),
    );
  }, []);
  const add = async () => {
    setError('');
    try {
      const { body } = await api('/settings/public-urls', { method: 'POST', body: { url: draft.trim() } });
      setUrls(parse(body));
      setDraft('');
      toast(t('publicUrlAdded'));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async (url: string) => {
    try {
      const { body } = await api(`/settings/public-urls?url=${encodeURIComponent(url)}`, { method: 'DELETE' });
      setUrls(parse(body));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section class="card help-card" data-testid="public-urls">
      <h2>{t('publicUrls')}</h2>
      <p class="muted small">{t('publicUrlsHelp')}</p>
      <ul class="url-list">
        {urls?.configured ? (
          <li>
            <code>{urls.configured}</code> <span class="muted small">--public-url</span>
          </li>
        ) : null}
        {urls?.added.map((u) => (
          <li key={u} data-testid="public-url">
            <code>{u}</code>
            <button type="button" class="link small" onClick={() => void remove(u)} aria-label={t('publicUrlRemove', u)}>
              {t('delete')}
            </button>
          </li>
        ))}
      </ul>
      <form
        class="url-add"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <input
          type="url"
          inputMode="url"
          placeholder="https://name.trycloudflare.com"
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
          aria-label={t('publicUrlNew')}
          data-testid="public-url-input"
        />
        <button type="submit" disabled={!draft.trim()} data-testid="public-url-add">
          {t('publicUrlAdd')}
        </button>
      </form>
      {error ? (
        <p class="error small" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
