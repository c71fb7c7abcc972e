/**
 * The ACP handshake of a (re)connect: what the `initialize` answer's `_meta.zcode` tells the app
 * — who it is, the hub, the backend, the default workspace — applied to the store, for the home
 * hub or another machine (what the app sends is initialize-params.ts).
 */
import { str, rec, zmeta } from '../wire.js';
import { setMachine, store } from './app-state.js';
import { rememberDevice } from './device-name.js';
import { keepOnlyDraftsOf } from './kept-drafts.js';

/** Applies the `initialize` answer: to the machine `hubId`, or (undefined) to the home hub and this device's identity. */
export function applyHandshake(hubId: string | undefined, init: unknown, device: string): void {
  const z = zmeta(init);
  const identity = rec(z['identity']);
  const name = str(identity?.['name']);
  const person = str(identity?.['person']) || undefined;
  const backend = rec(z['backend']);
  const defaultWorkspace = str(z['defaultWorkspace']);
  const hub = rec(z['hub']);
  const clientId = str(z['clientId']);
  if (hubId !== undefined) {
    setMachine(hubId, (m) => ({
      ...m,
      ...(clientId ? { clientId } : {}),
      name: str(hub?.['name']) ?? m.name,
      scope: str(identity?.['scope']) ?? m.scope,
      ...(defaultWorkspace ? { defaultWorkspace } : {}),
      backend: str(backend?.['state']) ?? 'ready',
    }));
  } else {
    if (name && name !== 'admin') rememberDevice(name);
    // Text kept through a sign-out is given back only to the person it was kept for.
    if (person !== undefined) keepOnlyDraftsOf(person);
  }
  const homeHub =
    hubId === undefined && str(hub?.['hubId']) ? { hubId: str(hub?.['hubId']) ?? '', name: str(hub?.['name']) ?? '' } : undefined;
  if (hubId === undefined)
    store.update((s) => ({
      ...s,
      ...(homeHub ? { homeHub } : {}),
      paired: true,
      ...(defaultWorkspace ? { defaultWorkspace } : {}),
      me: identity
        ? {
            name: str(identity['name']) ?? '',
            scope: str(identity['scope']) ?? 'view',
            ...(person !== undefined ? { person } : {}),
            device: name && name !== 'admin' ? name : device,
            ...(str(identity['tokenId']) ? { tokenId: str(identity['tokenId']) } : {}),
            ...(clientId ? { clientId } : {}),
          }
        : s.me,
      backend: backend ? { state: str(backend['state']) ?? 'ready' } : s.backend,
    }));
}
