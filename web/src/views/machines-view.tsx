/**
 * Settings → Machines: the other machines, their state, the command that fixes it, and remove.
 * A view device is told before it taps what it cannot do here (list a new machine) and why.
 */
import { useState } from 'preact/hooks';
import { scopeOn, store, toast, type MachineState } from '../hub/app-state.js';
import { t, useLocale } from '../i18n.js';
import { credOf, refusedAtHome, removeMachine } from '../machines/registry.js';
import { fixCommand, machineStatusText, refusalText } from '../machines/machine-status.js';
import { useSelector } from '../store.js';
import { navigate } from '../router.js';
import { OperateOnly } from './admin-help.js';
import { TopBar } from './chrome.js';
import { Command } from './command.js';
import { RemoveOutcome, removedCleanly, type Removal } from './remove-outcome.js';

/** Is this device view-only on its home hub (so it cannot list a machine there)? */
const useViewAtHome = () => useSelector(store, (s) => scopeOn(s, undefined) === 'view');

/** The small machine label on session rows and inbox rows. */
export function MachineChip({ m }: { m: MachineState | undefined }) {
  if (!m) return null;
  return (
    <span class={`machine-chip machine-${m.status}`} data-testid="machine-chip" data-hub-id={m.hubId}>
      {m.name}
    </span>
  );
}

function MachineRow({ m, onRemoved }: { m: MachineState; onRemoved: (r: Removal) => void }) {
  const locale = useLocale();
  const [busy, setBusy] = useState(false);
  // The home hub would not list it, so this page cannot reach it: that, not the machine, is why.
  const unlisted = refusedAtHome(m.hubId) && m.status !== 'online';
  const fix = unlisted ? undefined : fixCommand(m, location.origin);
  const help = unlisted
    ? undefined
    : m.status === 'unauthorized'
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
            const result = await removeMachine(m.hubId);
            if (removedCleanly(result)) toast(t('machineRemoved', m.name));
            else
              onRemoved({ hubId: m.hubId, name: m.name, url: m.url, home: store.get().homeHub?.name ?? t('machineHome'), tokenId, result });
          }}
        >
          {t('machineRemove')}
        </button>
      </div>
      {help ? <p class="small">{help}</p> : null}
      {fix ? <Command text={fix} /> : null}
      {unlisted ? (
        <p class="small" data-testid="machine-unlisted-help">
          {t('machineNotListedHelp', m.name)}
        </p>
      ) : null}
    </li>
  );
}

/** The machines page. */
export function MachinesView() {
  const machines = useSelector(store, (s) => s.machines);
  const viewOnly = useViewAtHome();
  // Numbered, so a second removal's card starts fresh rather than keeping the first one's retry state.
  const [removal, setRemoval] = useState<{ n: number; removal: Removal } | undefined>();
  const list = Object.values(machines);
  return (
    <div data-testid="machines-view">
      <p class="muted small">{t('machinesIntro')}</p>
      {list.length === 0 ? <p class="muted">{t(viewOnly ? 'machinesNoneView' : 'machinesNone')}</p> : null}
      <ul class="rows">
        {list.map((m) => (
          <MachineRow key={m.hubId} m={m} onRemoved={(r) => setRemoval({ n: (removal?.n ?? 0) + 1, removal: r })} />
        ))}
      </ul>
      {removal ? <RemoveOutcome key={removal.n} removal={removal.removal} /> : null}
      <AddHowTo viewOnly={viewOnly} />
    </div>
  );
}

/** How to add a machine: the command to run on it, or (a view device) why this device cannot. */
function AddHowTo({ viewOnly }: { viewOnly: boolean }) {
  if (viewOnly) return <OperateOnly text={t('machineAddNeedsOperate')} />;
  return (
    <>
      <p class="small">{t('machineAddCommand')}</p>
      <Command text={`zcode-hub pair --into ${location.origin}`} />
    </>
  );
}

/** A link to a session of a machine this phone has no key for (removed, or added on another phone). */
export function UnknownMachine() {
  return (
    <div class="page">
      <TopBar title={t('machines')} back={() => navigate({ name: 'sessions' })} />
      <main class="scroll list-page" data-testid="unknown-machine">
        <p>{t('machineUnknown')}</p>
        <AddHowTo viewOnly={useViewAtHome()} />
      </main>
    </div>
  );
}
