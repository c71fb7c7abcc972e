/** Admin screens' explanations: where built-in providers are, how workflows get here, the API docs. */
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { TopBar } from './chrome.js';
import { Icon } from './icons.js';

/** The pairing command that makes a device an admin (`zcode-hub pair`, src/cli/pair.ts). */
export const ADMIN_PAIR_COMMAND = 'zcode-hub pair --scope admin';
/** The pairing command that makes a device an operate one (operate is `zcode-hub pair`'s default scope). */
export const OPERATE_PAIR_COMMAND = 'zcode-hub pair';

/** "Only admin devices can change this", and how this device becomes one. */
export function AdminOnly({ text = t('adminOnly') }: { text?: string }) {
  const [before, after] = t('adminHowTo', '\u0000').split('\u0000');
  return (
    <div class="admin-only" data-testid="admin-only">
      <p class="muted small">{text}</p>
      <p class="muted small" data-testid="admin-how-to">
        {before}
        <code>{ADMIN_PAIR_COMMAND}</code>
        {after}
      </p>
    </div>
  );
}

/** The page a paired non-admin device lands on after opening /docs (the hub redirects it here). */
export function NeedsAdminView() {
  return (
    <div class="page">
      <TopBar title={t('apiDocs')} back={() => navigate({ name: 'sessions' })} />
      <main class="scroll list-page">
        <section class="card help-card" data-testid="needs-admin">
          <h2>{t('needsAdminTitle')}</h2>
          <AdminOnly text={t('needsAdminDocs')} />
        </section>
      </main>
    </div>
  );
}

/** The page a view device lands on after opening an operate-only address (the hub redirects it here). */
export function NeedsOperateView() {
  const [before, after] = t('operateHowTo', '\u0000').split('\u0000');
  return (
    <div class="page">
      <TopBar title={t('needsOperateBar')} back={() => navigate({ name: 'sessions' })} />
      <main class="scroll list-page">
        <section class="card help-card" data-testid="needs-operate">
          <h2>{t('needsOperateTitle')}</h2>
          <p class="muted small">{t('needsOperateWhy')}</p>
          <p class="muted small" data-testid="operate-how-to">
            {before}
            <code>{OPERATE_PAIR_COMMAND}</code>
            {after}
          </p>
        </section>
      </main>
    </div>
  );
}

/** Above the provider list: built-in providers need nothing here; this list is for your own keys. */
export function ProvidersIntro() {
  return (
    <section class="card help-card" data-testid="providers-intro">
      <h2>{t('providersBuiltInTitle')}</h2>
      <p class="muted small">{t('providersBuiltIn')}</p>
      <p class="muted small">{t('providersPersonal')}</p>
    </section>
  );
}

/** No saved workflows: what they are and the two ways to get one. */
export function WorkflowsEmpty() {
  return (
    <section class="card help-card" data-testid="workflows-empty">
      <h2>{t('noWorkflows')}</h2>
      <p class="muted small">{t('workflowsWhat')}</p>
      <ol class="muted small help-steps">
        <li>{t('workflowsHowAsk')}</li>
        <li>{t('workflowsHowFile')}</li>
      </ol>
    </section>
  );
}

/** A row in Settings that opens the REST API reference (Swagger UI) of this hub. */
export function ApiDocsRow() {
  return (
    <li>
      <a class="session-row nav-row" href="/docs" target="_blank" rel="noopener" data-testid="api-docs-link">
        <span>{t('apiDocs')}</span>
        <Icon name="chevron" />
      </a>
    </li>
  );
}
