/**
 * Why a machine cannot be used right now, told apart without credentials (MULTI-CONTRACT
 * "Revocation and removal"): `GET /api/health` is public and needs no preflight. A CORS read
 * that works → the hub is up and lists our origin (then its `hubId` says whether it is still the
 * same machine); a CORS failure but an opaque `no-cors` answer → the hub is up but does not list
 * this app's origin ("not allowed"); both failing → offline.
 */
import { rec, str } from '../wire.js';

export type Reach = 'up' | 'offline' | 'not_allowed' | 'wrong_hub';

/** The decision, pure: what the two fetches saw. */
export function classifyReach(corsOk: boolean, noCorsOk: boolean, seenHubId: string | undefined, expectedHubId: string): Reach {
  if (corsOk) return seenHubId !== undefined && seenHubId !== expectedHubId ? 'wrong_hub' : 'up';
  return noCorsOk ? 'not_allowed' : 'offline';
}

/** Probes a machine's base URL. */
export async function probeReach(url: string, hubId: string): Promise<Reach> {
  const health = `${url}/api/health`;
  try {
    const res = await fetch(health, { mode: 'cors', credentials: 'omit', headers: { accept: 'application/json' }, cache: 'no-store' });
    const body: unknown = await res.json().catch(() => undefined);
    return classifyReach(true, true, str(rec(body)?.['hubId']), hubId);
  } catch {
    // CORS refused or no network: ask again without reading the answer.
  }
  try {
    await fetch(health, { mode: 'no-cors', credentials: 'omit', cache: 'no-store' });
    return classifyReach(false, true, undefined, hubId);
  } catch {
    return classifyReach(false, false, undefined, hubId);
  }
}
