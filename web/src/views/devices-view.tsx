/** Paired devices (tokens): list, revoke, and a pairing code for a new device. */
import { useEffect, useState } from 'preact/hooks';
import { toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { api } from '../net/rest.js';
import { arr, num, rec, str } from '../wire.js';

interface TokenView {
  id: string;
  name: string;
  scope: string;
  expiresAt?: number;
}

function parseTokens(body: unknown): TokenView[] {
  const list = Array.isArray(body) ? body : arr(rec(body)?.['tokens']);
  return list.flatMap((x) => {
    const r = rec(x);
    const id = str(r?.['jti']) ?? str(r?.['id']) ?? str(r?.['tokenId']);
    if (!r || !id || (r['state'] !== undefined && r['state'] !== 'active')) return [];
    const exp = r['expiresAt'];
    return [
      {
        id,
        name: str(r['name']) ?? str(r['sub']) ?? id,
        scope: str(r['scope']) ?? '?',
        expiresAt: typeof exp === 'string' ? Date.parse(exp) : num(exp),
      },
    ];
  });
}

/** The devices screen. */
export function DevicesView() {
  const [list, setList] = useState<TokenView[] | undefined>();
  const [code, setCode] = useState<{ code: string; url?: string } | undefined>();
  const [error, setError] = useState('');
  const load = () =>
    api('/tokens')
      .then(({ body }) => setList(parseTokens(body)))
      .catch((err: Error) => setError(err.message));
  useEffect(() => void load(), []);
  if (error) return <p class="error">{t('error', error)}</p>;
  return (
    <div>
      <h2>{t('tokens')}</h2>
      {!list ? <p class="muted">{t('loading')}</p> : null}
      <ul class="rows">
        {(list ?? []).map((tok) => (
          <li key={tok.id} class="card row-between">
            <div>
              <strong>{tok.name}</strong>
              <div class="muted small">
                {tok.scope} · {t('expires', tok.expiresAt ? new Date(tok.expiresAt).toLocaleDateString() : t('never'))}
              </div>
            </div>
            <button
              type="button"
              class="danger"
              onClick={async () => {
                if (!confirm(t('confirmDelete', tok.name))) return;
                await api(`/tokens/${encodeURIComponent(tok.id)}`, { method: 'DELETE' }).catch((err: Error) =>
                  toast(t('error', err.message)),
                );
                toast(t('revoked'));
                void load();
              }}
            >
              {t('revoke')}
            </button>
          </li>
        ))}
      </ul>
      <section class="card">
        <button
          type="button"
          class="primary wide"
          onClick={async () => {
            try {
              const { body } = await api('/pair/codes', { method: 'POST', body: { scope: 'operate' } });
              const c = str(rec(body)?.['code']);
              if (c) setCode({ code: c, url: str(rec(body)?.['url']) ?? `${location.origin}/#pair=${encodeURIComponent(c)}` });
            } catch (err) {
              toast(t('error', (err as Error).message));
            }
          }}
        >
          {t('pairNew')}
        </button>
        {code ? (
          <div class="pair-code">
            <p class="big-code">{t('pairCodeShown', code.code)}</p>
            {code.url ? (
              <p class="small">
                {t('pairUrl')} <a href={code.url}>{code.url}</a>
              </p>
            ) : null}
          </div>
        ) : null}
      </section>
    </div>
  );
}
