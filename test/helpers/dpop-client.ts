import { webcrypto } from 'node:crypto';

/**
 * A DPoP client that behaves like the web app in a browser: an ECDSA P-256 key made
 * with WebCrypto as non-extractable (only its public half can be exported), proofs signed with
 * `crypto.subtle.sign`, which yields the raw r‖s signature JWS ES256 wants.
 */
const subtle = webcrypto.subtle;

function b64url(data: string | Uint8Array): string {
  return Buffer.from(data).toString('base64url');
}

export interface ProofOptions {
  /** Seconds since the epoch (default now). */
  iat?: number;
  jti?: string;
  /** Override `ath` (default: the hash of `token` when given). */
  ath?: string | null;
  typ?: string;
}

export class DpopKey {
  private constructor(
    private readonly privateKey: webcrypto.CryptoKey,
    readonly publicJwk: { kty: string; crv: string; x: string; y: string },
  ) {}

  static async generate(): Promise<DpopKey> {
    const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    if (pair.privateKey.extractable) throw new Error('the private key must not be extractable');
    const jwk = await subtle.exportKey('jwk', pair.publicKey);
    return new DpopKey(pair.privateKey, { kty: String(jwk.kty), crv: String(jwk.crv), x: String(jwk.x), y: String(jwk.y) });
  }

  /** RFC 7638 thumbprint of the public key (what the hub puts in `cnf.jkt`). */
  async thumbprint(): Promise<string> {
    const { crv, kty, x, y } = this.publicJwk;
    const canonical = JSON.stringify({ crv, kty, x, y });
    return b64url(new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(canonical))));
  }

  /** A proof for `method url`, carrying `ath` for `token` when given. */
  async proof(method: string, url: string, token?: string, opts: ProofOptions = {}): Promise<string> {
    const header = { typ: opts.typ ?? 'dpop+jwt', alg: 'ES256', jwk: this.publicJwk };
    const ath =
      opts.ath === null
        ? undefined
        : (opts.ath ?? (token ? b64url(new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(token)))) : undefined));
    const u = new URL(url);
    const payload = {
      jti: opts.jti ?? webcrypto.randomUUID(),
      htm: method,
      htu: `${u.origin}${u.pathname}`,
      iat: opts.iat ?? Math.floor(Date.now() / 1000),
      ...(ath ? { ath } : {}),
    };
    const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
    const sig = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.privateKey, new TextEncoder().encode(input));
    return `${input}.${b64url(new Uint8Array(sig))}`;
  }

  /** Headers for a request with a bound token. */
  async headers(method: string, url: string, token: string, opts: ProofOptions = {}): Promise<Record<string, string>> {
    return { authorization: `DPoP ${token}`, dpop: await this.proof(method, url, token, opts) };
  }
}
