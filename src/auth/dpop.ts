/**
 * DPoP (RFC 9449) proof verification. A token the hub issued to a browser on
 * another origin is bound to a key the browser cannot export (`cnf.jkt`, the RFC 7638
 * thumbprint); every request with it carries a fresh proof signed by that key, for that method
 * and URL, recently, once. Script on the page can use the token while the page is open; a copy
 * of the token alone is worth nothing elsewhere. Pure of HTTP: src/http gathers the inputs.
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, errors as joseErrors, jwtVerify, type JWK } from 'jose';
import { looksLikeJwt } from './device-jwt.js';

/** Signature algorithms a proof may use (asymmetric only; `none` and HMAC can never verify with an embedded key). */
export const DPOP_ALGS = ['ES256', 'ES384', 'EdDSA', 'RS256', 'PS256'] as const;

/** Longest proof accepted (a P-256 proof is ~500 bytes; an RSA one under 2 KiB). */
const PROOF_MAX_CHARS = 8_192;
const JTI_MAX_CHARS = 256;

/** Why a proof was refused; the message goes to the client (it helps the app's developer, not an attacker). */
export class DpopError extends Error {
  constructor(
    message: string,
    readonly reason: 'invalid' | 'replay' | 'cache_full' = 'invalid',
  ) {
    super(message);
    this.name = 'DpopError';
  }
}

/** base64url(SHA-256(token)): the proof's `ath` for a request that presents `token`. */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Proof ids seen while they could still be accepted (`dpopReplayCacheMax` entries). An entry
 * lives until its proof is too old anyway; when the cache is full of live entries, new proofs
 * are refused (`cache_full`) rather than forgetting one that could then be replayed.
 */
export class DpopReplayCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Records `key` until `until` (ms); false when it was already seen. Throws `cache_full`. */
  remember(key: string, until: number, now: number): boolean {
    const prior = this.seen.get(key);
    if (prior !== undefined && prior > now) return false;
    if (this.seen.size >= this.max) {
      for (const [k, expiry] of this.seen) if (expiry <= now) this.seen.delete(k);
      if (this.seen.size >= this.max) throw new DpopError('Too many DPoP proofs in flight; retry shortly', 'cache_full');
    }
    this.seen.set(key, until);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }
}

export interface ProofCheck {
  /** The `DPoP` header. */
  proof: string;
  /** The request's method. */
  method: string;
  /** The request's URL as the client may have named it (each without query and fragment). */
  urls: readonly string[];
  /** The token the request presents (checked against `ath`); absent when it presents none (pairing). */
  accessToken?: string;
  /** The thumbprint the token is bound to (`cnf.jkt`); absent when the proof binds a new token. */
  expectedJkt?: string;
  now: number;
}

/** Strips query and fragment; undefined when not an absolute http(s) URL. */
function htuKey(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return `${u.origin}${u.pathname}`;
  } catch {
    return undefined;
  }
}

/** Verifies proofs against a replay cache; one per hub. */
export class DpopVerifier {
  private readonly replay: DpopReplayCache;

  constructor(private readonly opts: { maxAgeMs: number; replayCacheMax: number }) {
    this.replay = new DpopReplayCache(opts.replayCacheMax);
  }

  /** Checks everything RFC 9449 §4.3 asks; returns the key's thumbprint, or throws DpopError. */
  async verify(check: ProofCheck): Promise<{ jkt: string }> {
    const { proof } = check;
    if (proof.length > PROOF_MAX_CHARS || !looksLikeJwt(proof)) throw new DpopError('The DPoP header is not a compact JWT');
    let header: ReturnType<typeof decodeProtectedHeader>;
    let payload: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(proof);
      // EmbeddedJWK imports `jwk` from the header and refuses a private or symmetric key.
      ({ payload } = await jwtVerify(proof, EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms: [...DPOP_ALGS],
        currentDate: new Date(check.now),
      }));
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError)
        throw new DpopError(`The DPoP proof does not verify (${(err as Error).message})`);
      throw err;
    }
    const { jti, htm, htu, iat, ath } = payload;
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > JTI_MAX_CHARS) throw new DpopError('The DPoP proof needs a jti');
    if (htm !== check.method) throw new DpopError('The DPoP proof is for another method (htm)');
    const wanted = typeof htu === 'string' ? htuKey(htu) : undefined;
    if (!wanted || !check.urls.some((u) => htuKey(u) === wanted)) throw new DpopError('The DPoP proof is for another URL (htu)');
    if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new DpopError('The DPoP proof needs an iat');
    if (Math.abs(check.now - iat * 1000) > this.opts.maxAgeMs) throw new DpopError('The DPoP proof is too old or from the future (iat)');
    if (check.accessToken !== undefined && ath !== accessTokenHash(check.accessToken))
      throw new DpopError('The DPoP proof is for another token (ath)');
    const jkt = await calculateJwkThumbprint(header.jwk as JWK, 'sha256');
    if (check.expectedJkt !== undefined && jkt !== check.expectedJkt)
      throw new DpopError('The DPoP proof is signed by another key than the token is bound to');
    // Last, so only proofs that are otherwise good take a place in the cache.
    if (!this.replay.remember(`${jkt}.${jti}`, iat * 1000 + this.opts.maxAgeMs, check.now))
      throw new DpopError('The DPoP proof was used before', 'replay');
    return { jkt };
  }
}
