/**
 * The machines this app talks to at once: the home hub (its own origin, cookie) and one
 * HubClient per other machine (DPoP token, ticketed socket), all feeding the one store. Each
 * machine connects, backs off and fails on its own; nothing here ever reloads the app.
 */
import { store, type MachineState } from '../hub/app-state.js';
import { HubClient } from '../hub/hub-client.js';
import { api, RestError } from '../net/rest.js';
import { t } from '../i18n.js';
import { arr, rec, str } from '../wire.js';
import { ConnectFailure } from '../net/rpc-connection.js';
import { setSessionMachineLookup } from '../router.js';
import { deleteCred, loadCreds, saveCred, type MachineCred } from './cred-store.js';
import { machineApi, machineGet, ticketUrl, Unreachable, type SocketTicket } from './machine-api.js';
import { setWorkspaceHubs } from '../net/workspace-fs.js';
import { reloadOntoHubShell } from '../net/shell-reload.js';
import { probeReach } from './reach.js';
import { disableMachinePush, enableMachinePush, setMachinePushTargets } from '../push-client.js';

let home: HubClient | undefined;
const remote = new Map<string, { client: HubClient; cred: MachineCred }>();

setSessionMachineLookup((sessionId) => store.get().sessions[sessionId]?.hubId);
function machineOfSession(sessionId: string): MachineCred | undefined {
  const hubId = store.get().sessions[sessionId]?.hubId;
  return hubId === undefined ? undefined : remote.get(hubId)?.cred;
}
setWorkspaceHubs(
  (sid) => {
    const cred = machineOfSession(sid);
    return cred ? machineGet(cred) : undefined;
  },
  (sid) => {
    const cred = machineOfSession(sid);
    return cred ? machineApi(cred) : undefined;
  },
);
setMachinePushTargets(() => [...remote.values()].map((r) => [r.cred.hubId, r.client.api]));

/** Registers the home hub's client (main.tsx). */
export function setHomeClient(c: HubClient): void {
  home = c;
}

/** The client of a machine (undefined / unknown → the home hub). */
export function clientFor(hubId: string | undefined): HubClient {
  const c = hubId === undefined ? undefined : remote.get(hubId)?.client;
  if (c) return c;
  if (!home) throw new Error('home client not set');
  return home;
}

/** A machine's stored credential (for remove and push). */
export function credOf(hubId: string): MachineCred | undefined {
  return remote.get(hubId)?.cred;
}

/** The socket URL of a machine (with what its hub said of pipelining), or a ConnectFailure saying why there is none now. */
async function resolveSocket(cred: MachineCred): Promise<SocketTicket> {
  try {
    return await ticketUrl(cred);
  } catch (err) {
    if (err instanceof RestError && err.status === 401) throw new ConnectFailure('unauthorized');
    if (err instanceof RestError && err.code === 'HUB_ERR_ORIGIN') throw new ConnectFailure('not_allowed');
    // The hub answered and said no (forbidden, overloaded, rate limited …): its reason, not "offline".
    if (err instanceof RestError) throw new ConnectFailure('refused', `${err.message} (${err.status} ${err.code})`);
    if (!(err instanceof Unreachable)) throw new ConnectFailure('offline');
    const reach = await probeReach(cred.url, cred.hubId);
    throw new ConnectFailure(reach === 'up' ? 'offline' : reach);
  }
}

/** Shows a machine and starts its connection. */
export function startMachine(cred: MachineCred): void {
  remote.get(cred.hubId)?.client.conn.stop();
  const prev = store.get().machines[cred.hubId];
  const state: MachineState = {
    hubId: cred.hubId,
    name: cred.name,
    url: cred.url,
    scope: cred.scope,
    status: 'connecting',
    ...(prev?.downSince !== undefined ? { downSince: prev.downSince } : {}),
  };
  store.update((s) => ({ ...s, machines: { ...s.machines, [cred.hubId]: state } }));
  const hubApi = machineApi(cred);
  // Once it answers, its notifications too (when this phone allows notifications at all).
  const client = new HubClient(() => resolveSocket(cred), {
    hubId: cred.hubId,
    api: hubApi,
    onOnline: () => void enableMachinePush(cred.hubId, hubApi).catch(() => undefined),
  });
  remote.set(cred.hubId, { client, cred });
  client.start();
}

/** Starts every stored machine (after the home hub is known to accept us). */
export async function startMachines(): Promise<void> {
  let creds: MachineCred[] = [];
  try {
    creds = await loadCreds();
  } catch {
    // No IndexedDB (private mode on some browsers): only the home hub.
  }
  // First, so a page whose CSP cannot reach them yet reloads before trying (and failing) to.
  if (await recordAtHome(creds).catch(() => false)) {
    if (reloadOnce()) return;
  } else forgetReload();
  for (const c of creds) startMachine(c);
  store.update((s) => ({ ...s, machinesLoaded: true }));
}

const RECORDED_KEY = 'zcode-hub.machines-recorded';

/** Machines this device holds a key for that the home hub would not list (a view device may not widen its CSP). */
const unlistedAtHome = new Set<string>();

/** True when the home hub refused to list this machine, so this page's CSP does not let it be reached. */
export function refusedAtHome(hubId: string): boolean {
  return unlistedAtHome.has(hubId);
}

/**
 * The home hub keeps each device's machines apart (its CSP allows the union): a device whose
 * home token is new (paired again after a revocation or expiry) starts with none there, so the
 * machines it holds credentials for are recorded again. True when one was recorded; a machine
 * the hub refuses (a view device) is remembered so its row can say why it cannot be reached.
 */
async function recordAtHome(creds: MachineCred[]): Promise<boolean> {
  if (creds.length === 0) return false;
  const listed = await listedHubIds();
  const missing = creds.filter((c) => !listed.has(c.hubId));
  let recorded = false;
  for (const c of missing) {
    try {
      await api(`/machines/${encodeURIComponent(c.hubId)}`, { method: 'PUT', body: { url: c.url, name: c.name } });
      recorded = true;
    } catch (err) {
      if (!isScopeRefusal(err)) throw err;
      unlistedAtHome.add(c.hubId);
    }
  }
  return recorded;
}

/** The home hub said no because of this device's scope (not its Origin check, not a limit). */
export function isScopeRefusal(err: unknown): boolean {
  return err instanceof RestError && err.status === 403 && err.code === 'HUB_ERR_FORBIDDEN';
}

/** The hubIds the home hub lists for this device. */
async function listedHubIds(): Promise<Set<string>> {
  const { body } = await api('/machines');
  return new Set(arr(rec(body)?.['machines']).flatMap((m) => str(rec(m)?.['hubId']) ?? []));
}

function forgetReload(): void {
  try {
    sessionStorage.removeItem(RECORDED_KEY);
  } catch {
    // No sessionStorage: nothing was kept.
  }
}

/** This page's CSP was fixed before the machines were recorded: load it once more (never in a loop); true when it does. */
function reloadOnce(): boolean {
  try {
    if (sessionStorage.getItem(RECORDED_KEY)) {
      sessionStorage.removeItem(RECORDED_KEY);
      return false;
    }
    sessionStorage.setItem(RECORDED_KEY, '1');
  } catch {
    return false;
  }
  void reloadOntoHubShell();
  return true;
}

/** Saves a newly paired machine (same hubId → replaces it) and connects to it. */
export async function addPairedMachine(cred: MachineCred): Promise<void> {
  const old = remote.get(cred.hubId)?.cred ?? (await loadCreds().catch(() => [])).find((c) => c.hubId === cred.hubId);
  await saveCred(cred);
  startMachine(cred);
  // Paired again: the token it replaces is revoked there, so no live token is left behind.
  if (old && old.token !== cred.token) await machineApi(old)('/pair/forget', { method: 'POST', body: {} }).catch(() => undefined);
}

/**
 * What removing a machine did: `revoked` when the machine itself revoked our token, `forgotten`
 * when this browser deleted its key and token, `unlist` what the home hub did.
 */
export interface RemoveResult {
  revoked: boolean;
  forgotten: boolean;
  unlist: UnlistResult;
}

/** The home hub no longer lists it (`ok`), or why it still does: refused (`needsOperate`) or failed (`error`). */
export type UnlistResult = { ok: true } | { ok: false; needsOperate: boolean; error: string };

/**
 * Takes a machine off the home hub's list for this device (and so, unless another device has it,
 * out of its CSP). Not listed counts as done; only an operate device may change the list.
 */
export async function unlistAtHome(hubId: string): Promise<UnlistResult> {
  try {
    if (!(await listedHubIds()).has(hubId)) return { ok: true };
    await api(`/machines/${encodeURIComponent(hubId)}`, { method: 'DELETE' });
    unlistedAtHome.delete(hubId);
    return { ok: true };
  } catch (err) {
    if (err instanceof RestError && err.status === 404) return { ok: true };
    const needsOperate = isScopeRefusal(err);
    // A RestError is the hub's own answer; anything else is a request that never got one.
    return { ok: false, needsOperate, error: err instanceof RestError ? `${err.message} (${err.status})` : t('machineUnlistUnreachable') };
  }
}

/**
 * Removes a machine: asks it to revoke our token (`POST /api/pair/forget`) when it answers,
 * then forgets the key and token here, unlists it on the home hub, and drops its sessions.
 * Each step is reported as it went: a home hub that refuses or fails to unlist it says so.
 */
export async function removeMachine(hubId: string): Promise<RemoveResult> {
  const entry = remote.get(hubId);
  let revoked = false;
  if (entry) {
    entry.client.conn.stop();
    try {
      const { body } = await machineApi(entry.cred)('/pair/forget', { method: 'POST', body: {} });
      revoked = (body as { revoked?: unknown } | undefined)?.revoked === true;
    } catch (err) {
      // Already revoked there counts as done: the token no longer works anywhere.
      revoked = err instanceof RestError && err.status === 401;
    }
  }
  remote.delete(hubId);
  await disableMachinePush(hubId).catch(() => undefined);
  const forgotten = await deleteCred(hubId).then(
    () => true,
    () => false,
  );
  const unlist = await unlistAtHome(hubId);
  store.update((s) => {
    const machines = { ...s.machines };
    delete machines[hubId];
    const gone = new Set(
      Object.values(s.sessions)
        .filter((x) => x.hubId === hubId)
        .map((x) => x.sessionId),
    );
    const keep = <T>(r: Record<string, T>) => Object.fromEntries(Object.entries(r).filter(([sid]) => !gone.has(sid)));
    return {
      ...s,
      machines,
      sessions: keep(s.sessions),
      chats: keep(s.chats),
      interactions: Object.fromEntries(Object.entries(s.interactions).filter(([, i]) => i.hubId !== hubId)),
    };
  });
  return { revoked, forgotten, unlist };
}
