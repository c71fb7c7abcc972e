/**
 * "Add *desktop*, scope operate?" — opened by the link `zcode-hub pair --into` prints
 * (`#add=…`). On yes: the home hub lists the machine (its CSP then lets this page reach it; the
 * page reloads once for that when the machine was not listed yet), then the code is exchanged
 * cross-origin for a token bound to a new non-extractable key (machines/pairing.ts). A view device
 * may only pair again a machine the home hub already lists (listsMachine): that widens nothing.
 */
import { useEffect, useState } from 'preact/hooks';
import { scopeOn, store, toast } from '../hub/app-state.js';
import { t } from '../i18n.js';
import { listsMachine, type AddLink } from '../machines/add-link.js';
import { loadCreds } from '../machines/cred-store.js';
import { PairError, pairMachine } from '../machines/pairing.js';
import { addPairedMachine, isScopeRefusal } from '../machines/registry.js';
import { api } from '../net/rest.js';
import { reloadOntoHubShell } from '../net/shell-reload.js';
import { deviceLabel } from '../hub/hub-client.js';
import { navigate } from '../router.js';
import { useSelector } from '../store.js';
import { OperateOnly } from './admin-help.js';
import { Sheet } from './chrome.js';
import { Command } from './command.js';

/** Set across the one reload that picks up the new CSP, so the user is not asked twice. */
const RESUME_KEY = 'zcode-hub.adding';

function resumeCode(): string | undefined {
  try {
    return sessionStorage.getItem(RESUME_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function setResume(code: string | undefined): void {
  try {
    if (code) sessionStorage.setItem(RESUME_KEY, code);
    else sessionStorage.removeItem(RESUME_KEY);
  } catch {
    // Without sessionStorage the user confirms once more after the reload.
  }
}

/** Is the machine in the home hub's list (and so in this page's CSP) at this URL? */
async function listedAtHome(link: AddLink): Promise<boolean> {
  return listsMachine((await api('/machines')).body, link);
}

/**
 * For a view device: whether the home hub already lists the link's machine, undefined while it is
 * asked (the sheet shows neither the refusal nor the button meanwhile). Listed, pairing it again —
 * a new link after its key there was revoked — widens nothing, so a view device may; else it is
 * told before it taps that adding needs operate on the home hub.
 */
function useListedAtHome(viewOnly: boolean, link: AddLink | undefined) {
  const [listed, setListed] = useState<boolean | undefined>();
  useEffect(() => {
    if (!viewOnly || !link?.hubId) return;
    let live = true;
    listedAtHome(link)
      .catch(() => false)
      .then((yes) => live && setListed(yes));
    return () => {
      live = false;
    };
  }, [viewOnly, link?.hubId, link?.hub]);
  return [listed, setListed] as const;
}

/** `needsOperate`: the home hub refused to list it because this device is view there. */
type Failure = { text: string; command?: string; needsOperate?: boolean };

function explain(err: unknown, link: AddLink): Failure {
  if (err instanceof PairError) {
    if (err.reason === 'offline') return { text: t('addMachineOffline', link.hub) };
    if (err.reason === 'not_allowed')
      return { text: t('addMachineNotAllowed', link.name), command: `zcode-hub peers add ${location.origin}` };
    if (err.reason === 'other_hub') return { text: err.message === t('addMachineIsHome') ? err.message : t('addMachineOtherHub') };
    return { text: t('addMachineRefused', link.name, err.message) };
  }
  if (isScopeRefusal(err)) return { text: t('machineAddNeedsOperate'), needsOperate: true };
  return { text: t('addMachineHomeFailed', err instanceof Error ? err.message : String(err)) };
}

/** Why this device may not add the machine (said before the tap), or why adding it failed. */
function Refusal({ refused, failure }: { refused: boolean; failure: Failure | undefined }) {
  if (refused) return <OperateOnly text={t('machineAddNeedsOperate')} />;
  if (!failure) return null;
  return (
    <div role="alert" data-testid="add-machine-error">
      {failure.needsOperate ? <OperateOnly text={failure.text} /> : <p class="error">{failure.text}</p>}
      {failure.command ? <Command text={failure.command} /> : null}
    </div>
  );
}

function closeLink(): void {
  setResume(undefined);
  history.replaceState(null, '', location.pathname + location.search);
}

/** The confirmation sheet for an add link (`link` undefined = the link was malformed). */
export function AddMachineSheet({ link, onDone }: { link: AddLink | undefined; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | undefined>();
  // A view device cannot list a machine on its home hub (that widens its CSP): told so before it taps (useListedAtHome).
  const viewOnly = useSelector(store, (s) => scopeOn(s, undefined) === 'view');
  const [listed, setListed] = useListedAtHome(viewOnly, link);
  const refused = viewOnly && listed === false;
  const canAdd = !viewOnly || listed === true;
  const close = () => {
    closeLink();
    onDone();
  };

  async function add(l: AddLink): Promise<void> {
    setBusy(true);
    setFailure(undefined);
    const hubId = l.hubId ?? '';
    let registered = false;
    try {
      if (l.hubId === store.get().homeHub?.hubId) throw new PairError('other_hub', t('addMachineIsHome'));
      if (!(await listedAtHome(l))) {
        // Unlisted since the sheet asked: a view device may not list it.
        if (viewOnly) {
          setListed(false);
          setBusy(false);
          return;
        }
        if (resumeCode() === l.code) throw new Error('the machine is still not in the list after reloading');
        await api(`/machines/${encodeURIComponent(hubId)}`, { method: 'PUT', body: { url: l.hub, name: l.name } });
        setResume(l.code);
        await reloadOntoHubShell();
        return;
      }
      registered = !viewOnly; // A view device did not list it and may not unlist it: on failure the list stays.
      // The name this phone has on its home hub, so every machine's audit names the same device.
      const cred = await pairMachine(l, deviceLabel());
      await addPairedMachine(cred);
      if (cred.name !== l.name && !viewOnly)
        await api(`/machines/${encodeURIComponent(hubId)}`, { method: 'PUT', body: { url: l.hub, name: cred.name } }).catch(
          () => undefined,
        );
      toast(t('addMachineDone', cred.name));
      close();
      navigate({ name: 'sessions' });
    } catch (err) {
      setResume(undefined);
      // A machine this phone has no key for stays off the home list (and out of its CSP).
      const known = (await loadCreds().catch(() => [])).some((c) => c.hubId === hubId);
      if (registered && !known) await api(`/machines/${encodeURIComponent(hubId)}`, { method: 'DELETE' }).catch(() => undefined);
      setFailure(explain(err, l));
      setBusy(false);
    }
  }

  // Back from the reload that picked up the new CSP: carry on without asking again.
  useEffect(() => {
    if (link && !viewOnly && resumeCode() === link.code) void add(link);
  }, []);

  return (
    <Sheet title={t('addMachineTitle')} onClose={close} testId="add-machine-sheet">
      {!link?.hubId ? (
        <p class="error" role="alert">
          {t('addMachineBadLink')}
        </p>
      ) : (
        <>
          <p data-testid="add-machine-question">
            <strong>{t('addMachineAsk', link.name, link.scope)}</strong>
          </p>
          <p class="muted small">{t('addMachineAt', link.hub)}</p>
          <Refusal refused={refused} failure={failure} />
          <div class="actions">
            <button type="button" onClick={close}>
              {t(canAdd ? 'cancel' : 'close')}
            </button>
            {canAdd ? (
              <button class="primary" type="button" disabled={busy} onClick={() => void add(link)} data-testid="add-machine-confirm">
                {busy ? t('addMachineBusy') : t('addMachineButton')}
              </button>
            ) : null}
          </div>
        </>
      )}
    </Sheet>
  );
}
