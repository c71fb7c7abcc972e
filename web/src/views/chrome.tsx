/** App chrome: top bar, connection indicator, toasts, bottom sheet frame. */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { pendingList, store, type MachineState } from '../hub/app-state.js';
import { machineStatusText } from '../machines/machine-status.js';
import type { ConnStatus } from '../net/rpc-connection.js';
import { splitInbox } from '../hub/permission-facts.js';
import { promptWaitsOn } from '../hub/waiting-prompts.js';
import { t } from '../i18n.js';
import { WEB_LIMITS } from '../limits.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { Icon } from './icons.js';
import { plainTitle } from '../hub/tool-title.js';
import { CodeText } from './tool-title.js';

/** The top bar: optional back button, title, inbox and settings shortcuts. */
export function TopBar({
  title,
  back,
  children,
  onTitle,
  titleLabel,
  subtitle,
  lean,
  here,
}: {
  title: string;
  back?: () => void;
  children?: ComponentChildren;
  onTitle?: () => void;
  titleLabel?: string;
  subtitle?: ComponentChildren;
  lean?: boolean;
  here?: 'inbox' | 'settings';
}) {
  // The badge counts what waits for this device; what waits for others is listed, not counted.
  const pending = useSelector(store, (s) => splitInbox(pendingList(s)).mine.length);
  const heading = onTitle ? (
    <button
      type="button"
      class="title-btn"
      onClick={onTitle}
      aria-label={titleLabel ? `${titleLabel}: ${plainTitle(title)}` : plainTitle(title)}
      data-testid="title-button"
    >
      <CodeText text={title} />
    </button>
  ) : (
    <CodeText text={title} />
  );
  return (
    <header class={lean ? 'topbar topbar-lean' : 'topbar'}>
      {back ? (
        <button type="button" class="icon-btn" onClick={back} aria-label={t('back')}>
          <Icon name="back" />
        </button>
      ) : null}
      {subtitle ? (
        <div class="topbar-heading">
          <h1 class="topbar-title">{heading}</h1>
          <div class="topbar-sub">{subtitle}</div>
        </div>
      ) : (
        <h1 class="topbar-title">{heading}</h1>
      )}
      {children}
      {/* A lean bar (the chat, where the title needs the room) shows the inbox only when something waits. */}
      {/* No button for the screen you are on. */}
      {here !== 'inbox' && (!lean || pending > 0) ? (
        <button
          type="button"
          class="icon-btn badge-host"
          onClick={() => navigate({ name: 'inbox' })}
          aria-label={t('inboxCount', pending)}
          data-testid="inbox-button"
        >
          <Icon name="inbox" />
          {pending > 0 ? (
            <span class="count" data-testid="inbox-count">
              {pending}
            </span>
          ) : null}
        </button>
      ) : null}
      {lean || here === 'settings' ? null : (
        <button type="button" class="icon-btn" onClick={() => navigate({ name: 'settings' })} aria-label={t('settings')}>
          <Icon name="settings" />
        </button>
      )}
    </header>
  );
}

/**
 * Quiet connection indicator of the link the page uses — the home hub's, or on a chat of another
 * machine that machine's (its name in the words): nothing while online and for short drops (a
 * blip of a second would only flicker); a small pill once a drop lasts longer than `quietDropMs`,
 * or at once while a prompt or an answer sent on that link waits for it (the user is waiting then, and the
 * pill says for what); the agent's state when the backend is not ready.
 */
export function ConnIndicator({ hubId }: { hubId?: string | undefined }) {
  const home = useSelector(store, (s) => s.conn);
  const machine = useSelector(store, (s) => (hubId === undefined ? undefined : s.machines[hubId]));
  const homeBackend = useSelector(store, (s) => s.backend?.state);
  const conn = machine ?? home;
  const backend = machine ? machine.backend : homeBackend;
  // A prompt or an answer waiting on this link shows the pill at once: the user waits, the pill says for what.
  const promptWaits = useSelector(store, (s) => promptWaitsOn(s, hubId) || Object.values(s.answersWaiting).some((a) => a.hubId === hubId));
  const [, tick] = useState(0);
  useEffect(() => {
    if (conn.status === 'online') return;
    const id = setTimeout(() => tick((n) => n + 1), WEB_LIMITS.quietDropMs + 50);
    return () => clearTimeout(id);
  }, [conn]);
  const down =
    conn.status !== 'online' && (promptWaits || (conn.downSince !== undefined && Date.now() - conn.downSince >= WEB_LIMITS.quietDropMs));
  const text = down ? downText(conn.status, machine) : backend && backend !== 'ready' ? t('backendState', backend) : '';
  return (
    <div
      class={`conn ${text ? 'conn-show' : ''}`}
      role="status"
      aria-live="polite"
      data-testid="conn-indicator"
      data-status={conn.status}
      {...(machine ? { 'data-hub-id': machine.hubId } : {})}
    >
      {text}
    </div>
  );
}

/** What the pill says of a link that is down: reconnecting, offline, or (a machine) why it will not. */
function downText(status: ConnStatus, machine: MachineState | undefined): string {
  if (!machine) return status === 'connecting' ? t('connReconnecting') : t('connOffline');
  if (status === 'connecting') return t('machineReconnecting', machine.name);
  if (status === 'offline') return t('machineDown', machine.name);
  return `${machine.name}: ${machineStatusText(machine)}`;
}

/** Short messages at the bottom (answered elsewhere, saved …). */
export function Toasts() {
  const toasts = useSelector(store, (s) => s.toasts);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.map((x) => (
        <div class="toast" key={x.id} data-testid="toast">
          {x.text}
        </div>
      ))}
    </div>
  );
}

/** A modal bottom sheet: focus moves into it, Escape closes it. */
export function Sheet({
  title,
  onClose,
  children,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  // A layout effect runs before the sheet is painted: an Escape pressed the moment it shows
  // closes it (a plain effect attached the listener a frame later and lost that key).
  useLayoutEffect(() => {
    const prev = document.activeElement as HTMLElement | null;
    ref.current?.querySelector<HTMLElement>('button, input, textarea, select')?.focus({ preventScroll: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      prev?.focus?.({ preventScroll: true });
    };
  }, []);
  return (
    <div class="sheet-backdrop">
      {/* Tapping outside closes, as on every phone sheet; keyboards have Escape and the close button. */}
      <button type="button" class="sheet-dismiss" tabIndex={-1} aria-label={t('close')} onClick={onClose} />
      <div class="sheet" role="dialog" aria-modal="true" aria-labelledby="sheet-title" ref={ref} data-testid={testId}>
        <div class="sheet-grip" aria-hidden="true" />
        <div class="sheet-head">
          <h2 id="sheet-title">{title}</h2>
          <button type="button" class="icon-btn" onClick={onClose} aria-label={t('close')}>
            <Icon name="close" />
          </button>
        </div>
        <div class="sheet-body">{children}</div>
      </div>
    </div>
  );
}

/** The end of a sheet's form: the error (announced), Cancel, and the submit button. */
export function SheetFormEnd({
  error,
  onClose,
  submitLabel,
  disabled,
  submitTestId,
}: {
  error: string | undefined;
  onClose: () => void;
  submitLabel: string;
  disabled: boolean;
  submitTestId?: string;
}) {
  return (
    <>
      {error ? (
        <p class="error" role="alert">
          {t('error', error)}
        </p>
      ) : null}
      <div class="actions">
        <button type="button" onClick={onClose}>
          {t('cancel')}
        </button>
        <button class="primary" type="submit" disabled={disabled} data-testid={submitTestId}>
          {submitLabel}
        </button>
      </div>
    </>
  );
}
