/**
 * Whether this browser was paired with the home hub: a flag in localStorage, set after pairing and
 * cleared when the hub refuses the token. The token itself is an HttpOnly cookie script cannot see
 * (ARCHITECTURE.md §7), so this is a hint for what to do first, never proof: the hub decides.
 */

const PAIRED_KEY = 'zcode-hub.paired';

/** Remembers (or forgets) that this browser is paired. */
export function remember(paired: boolean): void {
  try {
    if (paired) localStorage.setItem(PAIRED_KEY, '1');
    else localStorage.removeItem(PAIRED_KEY);
  } catch {
    // Storage blocked: we ask the hub each time instead.
  }
}

/** True when this browser was paired here before (or storage is blocked, so we cannot tell). */
export function seemsPaired(): boolean {
  try {
    return localStorage.getItem(PAIRED_KEY) === '1';
  } catch {
    return true;
  }
}

/** The address carries a one-time pairing code (`#pair=…`): the pairing screen comes first. */
export function pairingInAddress(hash: string): boolean {
  return /(?:^#|&)pair=/.test(hash);
}
