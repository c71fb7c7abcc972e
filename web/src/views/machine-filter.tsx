/** The session list's machine filter chips and the line naming machines that are down. */
import { store } from '../hub/app-state.js';
import { t, useLocale } from '../i18n.js';
import { machineStatusText } from '../machines/machine-status.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';

/** The current filter: undefined = all machines, '' = the home hub, else a hubId. */
export function useMachineFilter(): string | undefined {
  const filter = useSelector(store, (s) => s.machineFilter);
  const known = useSelector(store, (s) => filter === undefined || filter === '' || s.machines[filter] !== undefined);
  return known ? filter : undefined;
}

function setFilter(f: string | undefined): void {
  store.update((s) => ({ ...s, machineFilter: f }));
}

/** All / this hub / each machine; shown once there is more than one machine. */
export function MachineFilter() {
  const machines = useSelector(store, (s) => s.machines);
  const filter = useMachineFilter();
  const homeName = useSelector(store, (s) => s.homeHub?.name);
  const list = Object.values(machines);
  if (list.length === 0) return null;
  const chip = (f: string | undefined, label: string, status?: string) => (
    <button
      type="button"
      key={f ?? '*'}
      class={`chip ${filter === f ? 'chip-on' : ''} ${status && status !== 'online' ? 'is-down' : ''}`}
      aria-pressed={filter === f}
      onClick={() => setFilter(f)}
      data-testid="machine-filter"
      data-filter={f ?? '*'}
    >
      {label}
    </button>
  );
  return (
    <fieldset class="ws-recent machine-filter">
      <legend class="sr-only">{t('machineFilter')}</legend>
      {chip(undefined, t('machineAll'))}
      {chip('', homeName || t('machineHome'))}
      {list.map((m) => chip(m.hubId, m.name, m.status))}
    </fieldset>
  );
}

/** "desktop is offline since 14:02; its sessions are shown as last seen." — one line per machine down. */
export function MachinesDown() {
  const locale = useLocale();
  const machines = useSelector(store, (s) => s.machines);
  const down = Object.values(machines).filter((m) => m.status !== 'online' && !(m.status === 'connecting' && m.downSince === undefined));
  if (down.length === 0) return null;
  return (
    <div class="machines-down" data-testid="machines-down">
      {down.map((m) => (
        <button
          type="button"
          key={m.hubId}
          class="link small machine-down"
          data-hub-id={m.hubId}
          data-status={m.status}
          onClick={() => navigate({ name: 'settings', page: 'machines' })}
        >
          {t('sessionsOffline', m.name, machineStatusText(m, locale))}
        </button>
      ))}
    </div>
  );
}
