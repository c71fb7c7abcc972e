/**
 * DPoP proofs (RFC 9449) made with WebCrypto: an ES256 JWT whose header carries the public key
 * of the machine's non-extractable key pair, and whose claims bind it to one request (htm, htu),
 * one moment (iat), one use (jti) and one token (ath = base64url(SHA-256(token))). The private
 * key never leaves the browser's key store, so a copied token is useless without it.
 */

const enc = new TextEncoder();

/** base64url without padding, of bytes or of a string's UTF-8. */
export function b64url(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? enc.encode(data) : data;
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A new ECDSA P-256 key pair whose private half cannot be exported (only used to sign). */
export function newKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
}

/** The public key as the minimal JWK a proof header carries (kty, crv, x, y). */
export async function publicJwk(key: CryptoKey): Promise<{ kty: string; crv: string; x: string; y: string }> {
  const jwk = await crypto.subtle.exportKey('jwk', key);
  return { kty: jwk.kty ?? 'EC', crv: jwk.crv ?? 'P-256', x: jwk.x ?? '', y: jwk.y ?? '' };
}

/** `htu`: the request URL without query and fragment (RFC 9449 §4.2). */
export function htuOf(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** SHA-256 of the token, base64url (the `ath` claim). */
export async function accessTokenHash(token: string): Promise<string> {
  return b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(token))));
}

export interface ProofInput {
  method: string;
  url: string;
  /** The bound access token; absent when asking for one (pairing). */
  token?: string;
  /** Seconds since the epoch (tests pin it). */
  now?: number;
}

/** One proof for one request. */
export async function createProof(keys: CryptoKeyPair, input: ProofInput): Promise<string> {
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: await publicJwk(keys.publicKey) };
  const jti = b64url(crypto.getRandomValues(new Uint8Array(16)));
  const claims: Record<string, string | number> = {
    jti,
    htm: input.method.toUpperCase(),
    htu: htuOf(input.url),
    iat: input.now ?? Math.floor(Date.now() / 1000),
  };
  if (input.token) claims['ath'] = await accessTokenHash(input.token);
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  // WebCrypto's ECDSA signature is already r‖s (IEEE P1363), the JWS ES256 form.
  const sig = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, enc.encode(signingInput));
  return `${signingInput}.${b64url(new Uint8Array(sig))}`;
}
