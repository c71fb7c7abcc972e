import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { z } from 'zod';
import { SCOPES, type Scope } from './identity.js';

/** `iss` of every device token. */
export const TOKEN_ISSUER = 'zcode-hub';
/** `aud` of every device token: the hub's client API (REST and /acp). */
export const TOKEN_AUDIENCE = 'zcode-hub:api';
/** The one accepted algorithm; `alg: none` and asymmetric confusion are refused by the allow-list. */
export const TOKEN_ALG = 'HS256';

/** Claims a device token must carry (ARCHITECTURE.md §7); anything else in the payload is ignored. */
export const deviceClaimsSchema = z.object({
  iss: z.literal(TOKEN_ISSUER),
  aud: z.union([z.literal(TOKEN_AUDIENCE), z.array(z.string()).refine((a) => a.length === 1 && a[0] === TOKEN_AUDIENCE)]),
  sub: z.string().min(1).max(200),
  scope: z.enum(SCOPES),
  jti: z.string().min(1).max(100),
  iat: z.number().int(),
  exp: z.number().int(),
  /** RFC 9449 confirmation: the thumbprint of the key every request must prove; absent = a bearer token. */
  cnf: z.object({ jkt: z.string().min(1).max(100) }).optional(),
});
export type DeviceClaims = z.infer<typeof deviceClaimsSchema>;

export interface SignInput {
  jti: string;
  name: string;
  scope: Scope;
  /** ms since the epoch */
  issuedAt: number;
  /** ms since the epoch */
  expiresAt: number;
  /** Bind the token to this key thumbprint (`cnf.jkt`, DPoP). */
  jkt?: string;
}

/** Signs a device token with the hub's HS256 key. */
export async function signDeviceToken(secret: Uint8Array, input: SignInput): Promise<string> {
  return new SignJWT({ scope: input.scope, ...(input.jkt ? { cnf: { jkt: input.jkt } } : {}) })
    .setProtectedHeader({ alg: TOKEN_ALG, typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(input.name)
    .setJti(input.jti)
    .setIssuedAt(Math.floor(input.issuedAt / 1000))
    .setExpirationTime(Math.floor(input.expiresAt / 1000))
    .sign(secret);
}

/** True when the string has the shape of a compact JWS (three base64url parts). */
export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
}

/**
 * Verifies signature, algorithm, issuer, audience and expiry, then the claim shapes.
 * Returns null for any invalid token: callers never learn why (no oracle for an attacker).
 */
export async function verifyDeviceToken(secret: Uint8Array, token: string, now: number = Date.now()): Promise<DeviceClaims | null> {
  if (!looksLikeJwt(token)) return null;
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: [TOKEN_ALG],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'jti', 'iat', 'exp'],
    });
    const claims = deviceClaimsSchema.safeParse(payload);
    return claims.success ? claims.data : null;
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
