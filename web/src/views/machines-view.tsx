/** Settings → Machines: the other machines, their state, the command that fixes it, and remove. */
import { useState } from 'preact/hooks';
import { store, toast, type MachineState } from '../hub/app-state.js';
import { t, useLocale } from '../i18n.js';
import { credOf, removeMachine } from '../machines/registry.js';
import { fixCommand, machineStatusText, refusalText, revokeCommand } from '../machines/machine-status.js';
import { useSelector } from '../store.js';
import { navigate } from '../router.js';
import { TopBar } from './chrome.js';

/** A command to copy, on its own line. */
export function Command({ text }: { text: string }) {
  return (
    <pre class="command" data-testid="fix-command">
      <code>{text}</code>
    </pre>
  );
}

/** The small machine label on session rows and inbox rows. */
export function MachineChip({ m }: { m: MachineState | undefined }) {
  if (!m) return null;
  return (
    <span class={`machine-chip machine-${m.status}`} data-testid="machine-chip" data-hub-id={m.hubId}>
      {m.name}
    </span>
  );
}

function MachineRow({ m, onLeftover }: { m: MachineState; onLeftover: (l: { name: string; command: string }) => void }) {
  const locale = useLocale();
  const [busy, setBusy] = useState(false);
  const fix = fixCommand(m, location.origin);
  const help =
    m.status === 'unauthorized'
      ? t('machineRevokedHelp', m.name)
      : m.status === 'not_allowed'
        ? t('machineNotAllowedHelp', m.name)
        : m.status === 'refused'
          ? t('machineRefusedHelp', m.name, refusalText(m))
          : m.status === 'offline'
            ? t('machineOfflineHelp')
            : undefined;
  return (
    <li
      class={`card machine-row ${m.status === 'online' ? '' : 'is-down'}`}
      data-testid="machine-row"
      data-hub-id={m.hubId}
      data-status={m.status}
    >
      <div class="row-between">
        <div>
          <strong>{m.name}</strong>
          <div class="muted small">{m.url}</div>
          <div class={`small machine-state state-${m.status}`} data-testid="machine-status">
            {machineStatusText(m, locale)} · {m.scope}
          </div>
        </div>
        <button
          type="button"
          class="danger"
          disabled={busy}
          data-testid="machine-remove"
          onClick={async () => {
            if (!window.confirm(t('machineRemoveConfirm', m.name))) return;
            setBusy(true);
            const tokenId = credOf(m.hubId)?.tokenId;
            const res = await removeMachine(m.hubId);
            if (res.revoked) toast(t('machineRemoved', m.name));
            else onLeftover({ name: m.name, command: revokeCommand(tokenId) });
          }}
        >
          {t('machineRemove')}
        </button>
      </div>
      {help ? <p class="small">{help}</p> : null}
      {fix ? <Command text={fix} /> : null}
    </li>
  );
}

/** The machines page. */
export function MachinesView() {
  const machines = useSelector(store, (s) => s.machines);
  const [leftover, setLeftover] = useState<{ name: string; command: string } | undefined>();
  const list = Object.values(machines);
  return (
    <div data-testid="machines-view">
      <p class="muted small">{t('machinesIntro')}</p>
      {list.length === 0 ? <p class="muted">{t('machinesNone')}</p> : null}
      <ul class="rows">
        {list.map((m) => (
          <MachineRow key={m.hubId} m={m} onLeftover={setLeftover} />
        ))}
      </ul>
      {leftover ? (
        <div class="card" role="alert" data-testid="machine-removed-offline">
          <p class="small">{t('machineRemovedOffline', leftover.name)}</p>
          <Command text={leftover.command} />
        </div>
      ) : null}
      <p class="small">{t('machineAddCommand')}</p>
      <Command text={`zcode-hub pair --into ${location.origin}`} />
    </div>
  );
}

/** A link to a session of a machine this phone has no key for (removed, or added on another phone). */
export function UnknownMachine() {
  return (
    <div class="page">
      <TopBar title={t('machines')} back={() => navigate({ name: 'sessions' })} />
      <main class="scroll list-page" data-testid="unknown-machine">
        <p>{t('machineUnknown')}</p>
        <Command text={`zcode-hub pair --into ${location.origin}`} />
      </main>
    </div>
  );
}
