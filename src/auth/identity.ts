/** Scopes in increasing power (ARCHITECTURE.md §7): view < operate < admin. */
export const SCOPES = ['view', 'operate', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** Who is calling: resolved once per request or socket by the auth hook. */
export interface Identity {
  /** Token id (`jti`), or `admin` for the state-dir admin token. */
  tokenId: string;
  /** Device or token name (`sub`). */
  name: string;
  /** The person the token belongs to, from the token registry (docs/SECURITY.md "People"); `admin` for the admin token. */
  person: string;
  scope: Scope;
  /** Expiry in ms since the epoch; absent = never. */
  expiresAt?: number;
  /** RFC 7638 thumbprint of the key a DPoP-bound token is bound to (`cnf.jkt`); absent = a plain bearer token. */
  jkt?: string;
}

/** True when `have` is at least `need`. */
export function scopeAllows(have: Scope, need: Scope): boolean {
  return SCOPES.indexOf(have) >= SCOPES.indexOf(need);
}

/** Resolves a presented credential to an identity, or null when it is not valid. */
export interface Authenticator {
  authenticate(credential: string): Promise<Identity | null>;
  /** Called with a callback that the authenticator fires when a token is revoked or expires. */
  onRevoked?(listener: (tokenId: string) => void): () => void;
}
