import { useEffect, useState } from 'preact/hooks';
import { store } from '../hub/app-state.js';
import { setLocale, t, useLocale, type Locale } from '../i18n.js';
import { enablePush, pushSupport, type PushSupport } from '../push-client.js';
import { navigate } from '../router.js';
import { api } from '../net/rest.js';
import { useSelector } from '../store.js';
import { TopBar } from './chrome.js';
import { Icon } from './icons.js';
import { markSignedOut } from '../hub/sign-out.js';
import { AdminOnly, ApiDocsRow } from './admin-help.js';
import { PublicUrlsCard } from './public-urls-card.js';
import { SettingsPage } from './settings-page.js';
import { MachinesView } from './machines-view.js';
import { removeMachine } from '../machines/registry.js';
import { PolicyView } from '../policy/policy-view.js';

function Notifications() {
  const [state, setState] = useState<PushSupport>(() => pushSupport());
  const [busy, setBusy] = useState(false);
  if (state === 'unsupported') return <p class="muted small">{t('notificationsUnsupported')}</p>;
  if (state === 'denied') return <p class="muted small">{t('notificationsDenied')}</p>;
  if (state === 'granted') return <p class="small">{t('notificationsOn')}</p>;
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        setState(await enablePush(true).catch(() => 'unsupported' as const));
        setBusy(false);
      }}
    >
      {t('enableNotifications')}
    </button>
  );
}

/** Forgets this device: the hub revokes its token and clears the cookie; the app shows pairing again. */
function SignOut() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class="danger sign-out"
      data-testid="sign-out"
      disabled={busy}
      onClick={async () => {
        if (!window.confirm(t('signOutConfirm'))) return;
        setBusy(true);
        markSignedOut('self');
        // The other machines' keys go too: each revokes this phone's token when it answers.
        await Promise.all(Object.keys(store.get().machines).map((hubId) => removeMachine(hubId).catch(() => undefined)));
        await api('/pair/forget', { method: 'POST' }).catch(() => undefined);
        window.location.reload();
      }}
    >
      {t('signOut')}
    </button>
  );
}

/** Settings: this device, language, notifications, providers and workflows, and (admin) devices and the doctor report. */
export function SettingsView({ page }: { page?: 'providers' | 'workflows' | 'devices' | 'machines' | 'policy' | 'doctor' }) {
  const locale = useLocale();
  const me = useSelector(store, (s) => s.me);
  const admin = me?.scope === 'admin';
  useEffect(() => {
    if (pushSupport() === 'granted') void enablePush(false).catch(() => undefined);
  }, []);
  if (page === 'machines') {
    return (
      <div class="page">
        <TopBar title={t('machines')} back={() => navigate({ name: 'settings' })} />
        <main class="scroll list-page">
          <MachinesView />
        </main>
      </div>
    );
  }
  if (page === 'policy') {
    return (
      <div class="page">
        <TopBar title={t('policy')} back={() => navigate({ name: 'settings' })} />
        <main class="scroll list-page">
          <PolicyView scope={me?.scope} />
        </main>
      </div>
    );
  }
  if (page) {
    const title = t(page);
    return (
      <div class="page">
        <TopBar title={title} back={() => navigate({ name: 'settings' })} />
        <main class="scroll list-page">
          <SettingsPage page={page} scope={me?.scope} />
        </main>
      </div>
    );
  }
  return (
    <div class="page">
      <TopBar title={t('settings')} here="settings" back={() => navigate({ name: 'sessions' })} />
      <main class="scroll list-page">
        {me ? <p class="muted small">{t('signedInAs', me.name, me.scope)}</p> : null}
        <SignOut />
        <section class="card">
          <label class="field">
            <span>{t('language')}</span>
            <select value={locale} onChange={(e) => setLocale(e.currentTarget.value as Locale)} data-testid="language">
              <option value="en">English</option>
              <option value="zh-CN">简体中文</option>
            </select>
          </label>
          <p class="muted small">{t('theme')}</p>
        </section>
        <ul class="rows">
          <li>
            <a
              class="session-row nav-row"
              href="/settings/machines"
              data-testid="settings-machines"
              onClick={(e) => {
                e.preventDefault();
                navigate({ name: 'settings', page: 'machines' });
              }}
            >
              <span>{t('machines')}</span>
              <Icon name="chevron" />
            </a>
          </li>
          <li>
            <a
              class="session-row nav-row"
              href="/settings/policy"
              data-testid="settings-policy"
              onClick={(e) => {
                e.preventDefault();
                navigate({ name: 'settings', page: 'policy' });
              }}
            >
              <span>{t('policy')}</span>
              <Icon name="chevron" />
            </a>
          </li>
        </ul>
        <section class="card">
          <h2>{t('notifications')}</h2>
          <Notifications />
        </section>
        <ul class="rows">
          {/* Every device reads providers and workflows (SECURITY.md "Scopes"); devices and the doctor report are for admins. */}
          {(admin ? (['providers', 'workflows', 'devices', 'doctor'] as const) : (['providers', 'workflows'] as const)).map((p) => (
            <li key={p}>
              <a
                class="session-row nav-row"
                href={`/settings/${p}`}
                data-testid={`settings-${p}`}
                onClick={(e) => {
                  e.preventDefault();
                  navigate({ name: 'settings', page: p });
                }}
              >
                <span>{t(p)}</span>
                <Icon name="chevron" />
              </a>
            </li>
          ))}
          {admin ? <ApiDocsRow /> : null}
        </ul>
        {admin ? null : <AdminOnly text={t('adminOnlySettings')} />}
        {admin ? <PublicUrlsCard /> : null}
      </main>
    </div>
  );
}
