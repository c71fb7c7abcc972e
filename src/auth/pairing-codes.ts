import { createHash, randomInt } from 'node:crypto';
import type { Scope } from './identity.js';

/** Crockford base32 without I, L, O, U: easy to read aloud and type on a phone. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 10 symbols = 50 bits: with the per-address rate limit, guessing within 5 minutes is hopeless. */
const CODE_LENGTH = 10;

export interface PairingGrant {
  scope: Scope;
  /** Whose device the paired token will be (`pair --person`); absent = a person named after the device. */
  person?: string;
  expiresAt: number;
}

function hashCode(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}

/** Upper-cases and drops separators and spaces, so `abcde-fghjk` and `ABCDEFGHJK` are the same code. */
export function normalizePairingCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/**
 * One-time pairing codes (ARCHITECTURE.md §7): short-lived, single use, kept in memory only and
 * only as a SHA-256 hash, so neither a heap dump nor a log shows a usable code.
 */
export class PairingCodes {
  private readonly grants = new Map<string, PairingGrant>();
  private readonly now: () => number;

  constructor(private readonly opts: { ttlMs: number; max: number; now?: () => number }) {
    this.now = opts.now ?? Date.now;
  }

  /** Creates a code for `scope` (and `person`); the oldest outstanding code is dropped past `max`. */
  create(scope: Scope, person?: string): { code: string; expiresAt: number } {
    this.prune();
    let raw = '';
    for (let i = 0; i < CODE_LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
    const expiresAt = this.now() + this.opts.ttlMs;
    this.grants.set(hashCode(raw), { scope, expiresAt, ...(person === undefined ? {} : { person }) });
    while (this.grants.size > this.opts.max) {
      const oldest = this.grants.keys().next().value;
      if (oldest === undefined) break;
      this.grants.delete(oldest);
    }
    return { code: `${raw.slice(0, 5)}-${raw.slice(5)}`, expiresAt };
  }

  /** Consumes a code: returns its grant once, then never again; undefined when unknown or expired. */
  redeem(code: string): PairingGrant | undefined {
    this.prune();
    const key = hashCode(normalizePairingCode(code));
    const grant = this.grants.get(key);
    if (!grant) return undefined;
    this.grants.delete(key);
    return grant;
  }

  /** Outstanding (unexpired, unused) codes. */
  get size(): number {
    this.prune();
    return this.grants.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [key, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(key);
  }
}
