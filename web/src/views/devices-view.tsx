/**
 * Paired devices (tokens) grouped by the person they belong to (docs/SECURITY.md "People"):
 * revoke a device, give it to another person, and a pairing code for a new device of a person.
 */
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

interface PersonView {
  person: string;
  admin: boolean;
  tokens: TokenView[];
}

function parseTokens(list: unknown[]): TokenView[] {
  return list.flatMap((x) => {
    const r = rec(x);
    const id = str(r?.['id']);
    if (!r || !id || (r['state'] !== undefined && r['state'] !== 'active')) return [];
    return [{ id, name: str(r['name']) ?? id, scope: str(r['scope']) ?? '?', expiresAt: num(r['expiresAt']) }];
  });
}

/** `GET /api/people`: people with their active devices; people with none are left out, admin is kept. */
export function parsePeople(body: unknown): PersonView[] {
  return arr(rec(body)?.['people']).flatMap((x) => {
    const r = rec(x);
    const person = str(r?.['person']);
    if (!r || !person) return [];
    const tokens = parseTokens(arr(r['tokens']));
    const admin = r['admin'] === true;
    return tokens.length > 0 || admin ? [{ person, admin, tokens }] : [];
  });
}

function DeviceRow({ tok, reload }: { tok: TokenView; reload: () => void }) {
  return (
    <li class="row-between" data-testid="device">
      <div>
        <strong>{tok.name}</strong>
        <div class="muted small">
          {tok.scope} · {t('expires', tok.expiresAt ? new Date(tok.expiresAt).toLocaleDateString() : t('never'))}
        </div>
      </div>
      <div class="row-between">
        <button
          type="button"
          onClick={async () => {
            const person = prompt(t('movePrompt', tok.name))?.trim();
            if (!person) return;
            try {
              await api(`/tokens/${encodeURIComponent(tok.id)}`, { method: 'PATCH', body: { person } });
              toast(t('moved', tok.name, person));
            } catch (err) {
              toast(t('error', (err as Error).message));
            }
            reload();
          }}
        >
          {t('moveDevice')}
        </button>
        <button
          type="button"
          class="danger"
          onClick={async () => {
            if (!confirm(t('confirmDelete', tok.name))) return;
            await api(`/tokens/${encodeURIComponent(tok.id)}`, { method: 'DELETE' }).catch((err: Error) => toast(t('error', err.message)));
            toast(t('revoked'));
            reload();
          }}
        >
          {t('revoke')}
        </button>
      </div>
    </li>
  );
}

/** The devices screen. */
export function DevicesView() {
  const [people, setPeople] = useState<PersonView[] | undefined>();
  const [code, setCode] = useState<{ code: string; url?: string; person?: string } | undefined>();
  const [forPerson, setForPerson] = useState('');
  const [error, setError] = useState('');
  const load = () =>
    api('/people')
      .then(({ body }) => setPeople(parsePeople(body)))
      .catch((err: Error) => setError(err.message));
  useEffect(() => void load(), []);
  if (error) return <p class="error">{t('error', error)}</p>;
  return (
    <div>
      <h2>{t('tokens')}</h2>
      {!people ? <p class="muted">{t('loading')}</p> : null}
      {(people ?? []).map((p) => (
        <section key={p.person} class="card" data-testid="person">
          <h2 data-testid="person-name">
            {p.admin ? t('personAdmin', p.person) : p.person} <span class="muted small">{t('personDevices', String(p.tokens.length))}</span>
          </h2>
          <ul class="rows">
            {p.tokens.map((tok) => (
              <DeviceRow key={tok.id} tok={tok} reload={() => void load()} />
            ))}
          </ul>
        </section>
      ))}
      <section class="card">
        <label class="small">
          {t('pairFor')}
          <input
            name="pair-person"
            list="people-names"
            value={forPerson}
            maxLength={64}
            onInput={(e) => setForPerson((e.target as HTMLInputElement).value)}
          />
        </label>
        <datalist id="people-names">
          {(people ?? [])
            .filter((p) => !p.admin)
            .map((p) => (
              <option key={p.person} value={p.person} />
            ))}
        </datalist>
        <p class="muted small">{t('pairForHint')}</p>
        <button
          type="button"
          class="primary wide"
          onClick={async () => {
            const person = forPerson.trim();
            try {
              const { body } = await api('/pair/codes', { method: 'POST', body: { scope: 'operate', ...(person ? { person } : {}) } });
              const c = str(rec(body)?.['code']);
              if (c)
                setCode({
                  code: c,
                  url: str(rec(body)?.['url']) ?? `${location.origin}/#pair=${encodeURIComponent(c)}`,
                  ...(person ? { person } : {}),
                });
            } catch (err) {
              toast(t('error', (err as Error).message));
            }
          }}
        >
          {t('pairNew')}
        </button>
        {code ? (
          <div class="pair-code">
            {code.person ? <p class="small">{t('pairCodeFor', code.person)}</p> : null}
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
