/**
 * Why this device is back at the pairing screen: the user signed it out, or
 * the hub stopped accepting its token (revoked by an admin, expired). Kept in sessionStorage
 * so it survives the reload that follows a sign-out; cleared once paired again.
 */
export type SignOutReason = 'self' | 'revoked';
const KEY = 'zcode-hub.signed-out';

/** Records why; a sign-out the user did is not overwritten by the 401 that follows it. */
export function markSignedOut(reason: SignOutReason): void {
  try {
    if (reason === 'revoked' && sessionStorage.getItem(KEY) === 'self') return;
    sessionStorage.setItem(KEY, reason);
  } catch {
    // Storage blocked: the pairing screen just shows no reason.
  }
}

export function signedOutReason(): SignOutReason | undefined {
  try {
    const v = sessionStorage.getItem(KEY);
    return v === 'self' || v === 'revoked' ? v : undefined;
  } catch {
    return undefined;
  }
}

export function clearSignedOut(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
