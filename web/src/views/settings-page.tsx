/**
 * One page of Settings, as this device's scope lets it (docs/SECURITY.md "Scopes"): every device
 * reads providers and saved workflows; an operate device also starts and stops workflow runs; an
 * admin changes providers and sees the devices and the doctor report. A page shows what the device
 * may see, read-only where it may not change it, with a note naming exactly what it cannot do.
 */
import { t } from '../i18n.js';
import { AdminOnly, OperateOnly, ProvidersIntro } from './admin-help.js';
import { DevicesView } from './devices-view.js';
import { DoctorView } from './doctor-view.js';
import { ProvidersView } from './providers-view.js';
import { WorkflowsView } from './workflows-view.js';

/** The settings pages that follow a scope (machines and policy have their own screens). */
export type ScopedPage = 'providers' | 'workflows' | 'devices' | 'doctor';

/** `scope`: this device's on the home hub (undefined until the handshake says: read as operate, as the hub's default). */
export function SettingsPage({ page, scope = 'operate' }: { page: ScopedPage; scope?: string | undefined }) {
  const admin = scope === 'admin';
  switch (page) {
    case 'providers':
      return (
        <>
          {admin ? null : <AdminOnly text={t('providersReadOnly')} />}
          <ProvidersIntro canAdd={admin} />
          <ProvidersView canChange={admin} />
        </>
      );
    case 'workflows':
      return (
        <>
          {scope === 'view' ? <OperateOnly text={t('workflowsReadOnly')} /> : null}
          <WorkflowsView canRun={scope !== 'view'} />
        </>
      );
    case 'devices':
      return admin ? <DevicesView /> : <AdminOnly text={t('needsAdminTokens')} />;
    case 'doctor':
      // Doctor changes nothing: a non-admin device is told what the report holds and why it is not shown.
      return admin ? <DoctorView /> : <AdminOnly text={t('doctorAdminOnly')} />;
    default: {
      const never: never = page;
      return never;
    }
  }
}
