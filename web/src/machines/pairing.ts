/**
 * Pairing with another machine from the home app (MULTI-CONTRACT "Adding a machine"): a fresh
 * non-extractable key pair, `POST <machine>/api/pair` with `delivery: 'token'` and a DPoP proof,
 * so the machine binds the token it issues to that key (`cnf.jkt`). The result is stored per
 * hubId: pairing a machine again replaces its entry, a new URL for the same hubId is the same
 * machine, and two machines never share an entry because they share a URL.
 */
import { RestError, readResponse } from '../net/rest.js';
import { rec, str } from '../wire.js';
import type { AddLink } from './add-link.js';
import type { MachineCred } from './cred-store.js';
import { createProof, newKeyPair } from './dpop.js';
import { probeReach, type Reach } from './reach.js';

/** Why pairing failed, in terms the screen can explain. */
export class PairError extends Error {
  constructor(
    readonly reason: 'offline' | 'not_allowed' | 'refused' | 'other_hub' | 'bad_answer',
    message: string,
  ) {
    super(message);
    this.name = 'PairError';
  }
}

/** Exchanges the link's code for a bound token; returns the credential (not yet saved). */
export async function pairMachine(link: AddLink, deviceName: string, now: () => number = Date.now): Promise<MachineCred> {
  const keys = await newKeyPair();
  const url = `${link.hub}/api/pair`;
  const proof = await createProof(keys, { method: 'POST', url });
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      headers: { 'content-type': 'application/json', accept: 'application/json', dpop: proof },
      body: JSON.stringify({ code: link.code, name: deviceName, delivery: 'token' }),
    });
  } catch {
    // Not even an answer: the machine is down, or it does not list this app's origin.
    const reach: Reach = await probeReach(link.hub, link.hubId ?? '');
    throw new PairError(reach === 'offline' ? 'offline' : 'not_allowed', reach);
  }
  let body: unknown;
  try {
    body = (await readResponse(res)).body;
  } catch (err) {
    if (err instanceof RestError && err.code === 'HUB_ERR_ORIGIN') throw new PairError('not_allowed', err.message);
    throw new PairError('refused', err instanceof Error ? err.message : String(err));
  }
  const b = rec(body);
  const token = str(b?.['token']);
  const hubId = str(b?.['hubId']);
  if (!token || !hubId) throw new PairError('bad_answer', 'the machine sent no token or no hubId');
  if (link.hubId !== undefined && hubId !== link.hubId) throw new PairError('other_hub', hubId);
  return {
    hubId,
    url: link.hub,
    name: str(b?.['hubName']) ?? link.name,
    scope: str(b?.['scope']) ?? link.scope,
    token,
    ...(str(b?.['tokenId']) ? { tokenId: str(b?.['tokenId']) } : {}),
    keys,
    addedAt: now(),
  };
}
