/**
 * Who is on a session (`_zcode/presence`, docs/CLIENT-PROTOCOL.md "Authors"), one entry a device.
 * The hub lists connections: while a device's link is re-established its old connection can
 * still be listed beside the new one, and one device may hold two (two tabs). A device is told
 * by the token the hub verified (`tokenId`), never by a name a client gives; an entry without
 * one (an older hub) stands for its connection alone.
 */
import type { PresenceClient } from './app-state.js';
import { authorText } from './author-text.js';
import { arr, rec, str } from '../wire.js';

/** The devices of a presence notice's `clients`, each once where it was first listed, as its newest connection shows it. */
export function presenceDevices(clients: unknown): PresenceClient[] {
  const byDevice = new Map<string, PresenceClient>();
  for (const c of arr(clients)) {
    const r = rec(c);
    const clientId = str(r?.['clientId']);
    if (!r || !clientId) continue;
    const tokenId = str(r['tokenId']);
    byDevice.set(tokenId !== undefined ? `token:${tokenId}` : `client:${clientId}`, {
      clientId,
      name: authorText(r) ?? clientId,
      scope: str(r['scope']),
    });
  }
  return [...byDevice.values()];
}
