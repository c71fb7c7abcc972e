import type { DeviceClaims } from './device-jwt.js';

/**
 * Device tokens whose signature and claims were already verified, by their exact text, up to
 * `max` entries (the oldest verified goes first). A reconnect storm presents the same few
 * dozen tokens a thousand times; each HS256 check through WebCrypto costs ~300 µs of the event
 * loop (storm profile). Only what the signature proves is kept: expiry is checked
 * against the claims on every hit, and the registry (revocation, scope, binding) is consulted
 * by the caller every time, so a revoked token is refused exactly as before. Tokens that fail
 * verification are never stored, so nobody can fill this with junk.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, DeviceClaims>();

  constructor(private readonly max: number) {}

  /** The claims of a token verified before and still unexpired at `now` (ms), else undefined. */
  get(token: string, now: number): DeviceClaims | undefined {
    const claims = this.entries.get(token);
    if (claims === undefined) return undefined;
    // jose's rule: expired once now (in whole seconds) reaches `exp`.
    if (Math.floor(now / 1000) >= claims.exp) {
      this.entries.delete(token);
      return undefined;
    }
    return claims;
  }

  /** Remembers a token that passed verification. */
  add(token: string, claims: DeviceClaims): void {
    if (this.max <= 0) return;
    this.entries.delete(token);
    this.entries.set(token, claims);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
