/**
 * The "always allow" grants the hub keeps (docs/SECURITY.md "Always allow"): what each one lets
 * through without asking (tool and rule content, in which workspace), who set it and when.
 * Operate devices read them; admins remove one, after a confirmation, and the hub asks again from
 * the next request. The hub checks the scope again on the DELETE.
 */
import { useEffect, useState } from 'preact/hooks';
import { toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { api } from '../net/rest.js';
import { arr, num, rec, str } from '../wire.js';

/** One grant as the phone shows it. */
export interface Grant {
  id: string;
  toolName: string;
  ruleContent?: string;
  workspace: string;
  person: string;
  device: string;
  client?: string;
  at: number;
}

/** `GET /api/policy/grants`, field by field; entries that are not grants are left out. */
export function parseGrants(body: unknown): Grant[] {
  return arr(rec(body)?.['grants']).flatMap((g): Grant[] => {
    const r = rec(g);
    const by = rec(r?.['by']);
    const id = str(r?.['id']);
    const toolName = str(r?.['toolName']);
    const workspace = str(r?.['workspace']);
    const person = str(by?.['person']);
    const device = str(by?.['device']);
    const at = num(r?.['at']);
    if (!id || !toolName || !workspace || !person || !device || at === undefined) return [];
    const ruleContent = str(r?.['ruleContent']);
    const client = str(by?.['client']);
    return [{ id, toolName, workspace, person, device, at, ...(ruleContent ? { ruleContent } : {}), ...(client ? { client } : {}) }];
  });
}

/** "Bash npm test": the tool and what it allows. */
function what(g: Grant): string {
  return `${g.toolName} ${g.ruleContent ?? ''}`.trim();
}

function who(g: Grant): string {
  const name = g.device === g.person ? g.person : `${g.person} · ${g.device}`;
  return g.client && g.client !== g.device ? `${name} · ${g.client}` : name;
}

/** The list; `admin` = this device may remove (the hub checks again). */
export function AlwaysGrants({ admin }: { admin: boolean }) {
  const [grants, setGrants] = useState<Grant[] | undefined>();
  const [error, setError] = useState('');

  async function load() {
    try {
      setGrants(parseGrants((await api('/policy/grants')).body));
      setError('');
    } catch (err) {
      setError((err as Error).message);
    }
  }
  useEffect(() => void load(), []);

  async function remove(g: Grant) {
    if (!window.confirm(t('grantRemoveConfirm', what(g)))) return;
    try {
      await api(`/policy/grants/${encodeURIComponent(g.id)}`, { method: 'DELETE' });
      toast(t('grantRemoved'));
    } catch (err) {
      setError((err as Error).message);
    }
    await load();
  }

  return (
    <section class="always-grants" data-testid="always-grants">
      <h3>{t('grantsTitle')}</h3>
      <p class="muted small">{t('grantsIntro')}</p>
      {error ? (
        <p class="error" role="alert">
          {t('error', error)}
        </p>
      ) : null}
      {grants === undefined ? null : grants.length === 0 ? (
        <p class="muted" data-testid="grants-none">
          {t('grantsNone')}
        </p>
      ) : (
        <ul class="rows">
          {grants.map((g) => (
            <li key={g.id} class="card" data-testid="grant">
              <div class="row-between">
                <strong class="grant-what">
                  {g.toolName}
                  {g.ruleContent ? <code> {g.ruleContent}</code> : null}
                </strong>
                {admin ? (
                  <button type="button" class="danger" aria-label={t('grantRemove', what(g))} onClick={() => void remove(g)}>
                    {t('delete')}
                  </button>
                ) : null}
              </div>
              <div class="muted small">{t('grantBy', who(g), new Date(g.at).toLocaleString())}</div>
              <div class="muted small">{t('grantWhere', g.workspace)}</div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
