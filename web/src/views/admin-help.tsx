/** Admin screens' explanations: where built-in providers are, how workflows get here, the API docs. */
import { type MessageKey, t } from '../i18n.js';
import { navigate } from '../router.js';
import { TopBar } from './chrome.js';
import { Icon } from './icons.js';

/** The pairing command that makes a device an admin (`zcode-hub pair`, src/cli/pair.ts). */
export const ADMIN_PAIR_COMMAND = 'zcode-hub pair --scope admin';
/** The pairing command that makes a device an operate one (operate is `zcode-hub pair`'s default scope). */
export const OPERATE_PAIR_COMMAND = 'zcode-hub pair';

/** A message with one placeholder `{0}` shown as code (a command, an address). */
function TextWithCode({ message, code, testId }: { message: MessageKey; code: string; testId?: string }) {
  const [before, after] = t(message, '\u0000').split('\u0000');
  return (
    <p class="muted small" {...(testId ? { 'data-testid': testId } : {})}>
      {before}
      <code>{code}</code>
      {after}
    </p>
  );
}

/** How this device becomes an admin: the pairing command to run on the computer. */
const AdminHowTo = () => <TextWithCode message="adminHowTo" code={ADMIN_PAIR_COMMAND} testId="admin-how-to" />;

/** How a view device gets the operate scope: the pairing command to run on the computer. */
const OperateHowTo = () => <TextWithCode message="operateHowTo" code={OPERATE_PAIR_COMMAND} testId="operate-how-to" />;

/** What this device may not do here without the admin scope (`text`, exact for the page), and how it becomes an admin. */
export function AdminOnly({ text }: { text: string }) {
  return (
    <div class="admin-only" data-testid="admin-only">
      <p class="muted small">{text}</p>
      <AdminHowTo />
    </div>
  );
}

/** The admin pages a navigation can be refused, by path prefix: the bar title and what the page is for. */
const ADMIN_PAGES: ReadonlyArray<readonly [prefix: string, title: MessageKey, why: MessageKey]> = [
  ['/docs', 'apiDocs', 'needsAdminDocs'],
  ['/api/people', 'needsAdminPeopleBar', 'needsAdminPeople'],
  ['/api/tokens', 'needsAdminTokensBar', 'needsAdminTokens'],
  ['/api/settings/public-urls', 'publicUrls', 'needsAdminPublicUrls'],
  ['/api/audit', 'needsAdminAuditBar', 'needsAdminAudit'],
];

/** The known admin page at `from` (the API docs when the hub named none), or undefined for another address. */
function adminPage(from: string | undefined): (typeof ADMIN_PAGES)[number] | undefined {
  if (from === undefined) return ADMIN_PAGES[0];
  return ADMIN_PAGES.find(([prefix]) => from === prefix || from.startsWith(`${prefix}/`));
}

/**
 * The page a paired non-admin device lands on after opening an admin address (the hub redirects
 * it here with `?from=` the path it opened): it names that page, then how to become an admin.
 */
export function NeedsAdminView({ from }: { from?: string }) {
  const page = adminPage(from);
  return (
    <div class="page">
      <TopBar title={t(page ? page[1] : 'needsAdminBar')} back={() => navigate({ name: 'sessions' })} />
      <main class="scroll list-page">
        <section class="card help-card" data-testid="needs-admin">
          <h2>{t('needsAdminTitle')}</h2>
          {page ? (
            <p class="muted small" data-testid="needs-admin-why">
              {t(page[2])}
            </p>
          ) : (
            <TextWithCode message="needsAdminOther" code={from ?? ''} testId="needs-admin-why" />
          )}
          <AdminHowTo />
        </section>
      </main>
    </div>
  );
}

/** What a view device may not see here (`text`), and how it gets the operate scope. */
export function OperateOnly({ text }: { text: string }) {
  return (
    <div class="admin-only" data-testid="operate-only">
      <p class="muted small">{text}</p>
      <OperateHowTo />
    </div>
  );
}

/** The page a view device lands on after opening an operate-only address (the hub redirects it here). */
export function NeedsOperateView() {
  return (
    <div class="page">
      <TopBar title={t('needsOperateBar')} back={() => navigate({ name: 'sessions' })} />
      <main class="scroll list-page">
        <section class="card help-card" data-testid="needs-operate">
          <h2>{t('needsOperateTitle')}</h2>
          <OperateOnly text={t('needsOperateWhy')} />
        </section>
      </main>
    </div>
  );
}

/** Above the provider list: built-in providers need nothing here; this list is for your own keys (added here by an admin device: `canAdd`). */
export function ProvidersIntro({ canAdd }: { canAdd: boolean }) {
  return (
    <section class="card help-card" data-testid="providers-intro">
      <h2>{t('providersBuiltInTitle')}</h2>
      <p class="muted small">{t('providersBuiltIn')}</p>
      {canAdd ? <p class="muted small">{t('providersPersonal')}</p> : null}
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
