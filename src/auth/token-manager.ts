import { randomUUID } from 'node:crypto';
import { secretEquals } from './admin-token.js';
import { signDeviceToken, verifyDeviceToken } from './device-jwt.js';
import type { Authenticator, Identity, Scope } from './identity.js';
import type { TokenRecord, TokenRegistry } from './token-registry.js';
import { VerifiedTokens } from './verified-tokens.js';

/** Identity of the state-dir admin token (CLI and scripts; ARCHITECTURE.md §9). */
export const ADMIN_IDENTITY: Identity = Object.freeze({ tokenId: 'admin', name: 'admin', person: 'admin', scope: 'admin' });

export interface TokenManagerOptions {
  /** Contents of `<state-dir>/admin.token`. */
  adminToken: string;
  /** HS256 key from `<state-dir>/jwt.secret`. */
  secret: Uint8Array;
  registry: TokenRegistry;
  /** Interval of the expiry sweep that announces expired tokens (LIMITS.tokenExpirySweepMs). */
  expirySweepMs: number;
  /** Verified device tokens remembered so a reconnect skips the signature check (LIMITS.verifiedTokensMax). */
  verifiedTokensMax: number;
  /** Clock, for tests of expiry; defaults to Date.now. */
  now?: () => number;
}

export interface IssuedToken {
  /** The compact JWT: shown once, never stored. */
  token: string;
  record: TokenRecord;
}

/**
 * The hub's Authenticator (ARCHITECTURE.md §7): accepts the admin token and device JWTs that are
 * signed by us, unexpired, present in the registry, unrevoked and of the recorded scope.
 * Fires `onRevoked` listeners when a token is revoked or expires so the gateway closes its
 * sockets (close 4401).
 */
export class TokenManager implements Authenticator {
  private readonly listeners = new Set<(tokenId: string) => void>();
  private readonly personListeners = new Set<(tokenId: string) => void>();
  private readonly announcedExpired = new Set<string>();
  private sweep: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly verified: VerifiedTokens;

  constructor(private readonly opts: TokenManagerOptions) {
    this.now = opts.now ?? Date.now;
    this.verified = new VerifiedTokens(opts.verifiedTokensMax);
  }

  /** Resolves a presented credential; null for anything not valid right now. */
  async authenticate(credential: string): Promise<Identity | null> {
    if (secretEquals(credential, this.opts.adminToken)) return ADMIN_IDENTITY;
    const now = this.now();
    let claims = this.verified.get(credential, now);
    if (!claims) {
      claims = (await verifyDeviceToken(this.opts.secret, credential, now)) ?? undefined;
      if (!claims) return null;
      this.verified.add(credential, claims);
    }
    const record = this.opts.registry.get(claims.jti);
    // The registry is authoritative: an unknown, revoked, re-scoped or expired record refuses the token.
    if (!record || record.revokedAt !== undefined || record.scope !== claims.scope || record.expiresAt <= now) return null;
    // A bound record accepts only its bound token and the other way round (DPoP).
    if (record.jkt !== claims.cnf?.jkt) return null;
    this.opts.registry.touch(record.id, now);
    const registry = this.opts.registry;
    return {
      tokenId: record.id,
      name: record.name,
      // Read on use, so a person an admin changes holds at once for sockets already open too.
      get person(): string {
        return registry.get(record.id)?.person ?? record.person;
      },
      scope: record.scope,
      expiresAt: Math.min(record.expiresAt, claims.exp * 1000),
      ...(record.jkt ? { jkt: record.jkt } : {}),
    };
  }

  /** Issues a device token and records it before returning it. */
  async create(input: {
    name: string;
    /** Whose device it is; default: a person named after the token. */
    person?: string;
    scope: Scope;
    ttlMs: number;
    via: TokenRecord['via'];
    jkt?: string;
    origin?: string;
  }): Promise<IssuedToken> {
    const now = this.now();
    // `exp` has second resolution; align the record so both agree.
    const expiresAt = Math.floor((now + input.ttlMs) / 1000) * 1000;
    const record: TokenRecord = {
      id: randomUUID(),
      name: input.name,
      person: input.person ?? input.name,
      scope: input.scope,
      createdAt: now,
      expiresAt,
      via: input.via,
      ...(input.jkt ? { jkt: input.jkt } : {}),
      ...(input.origin ? { origin: input.origin } : {}),
    };
    this.opts.registry.add(record);
    const token = await signDeviceToken(this.opts.secret, {
      jti: record.id,
      name: record.name,
      scope: record.scope,
      issuedAt: now,
      expiresAt,
      ...(input.jkt ? { jkt: input.jkt } : {}),
    });
    return { token, record: { ...record } };
  }

  /** Every issued token (never the JWTs themselves), newest first. */
  list(): TokenRecord[] {
    return this.opts.registry.list().map((r) => ({ ...r }));
  }

  /** Gives a token to another person (the registry is read on every request, so it holds at once); undefined when unknown. */
  setPerson(id: string, person: string): { from: string; record: TokenRecord } | undefined {
    const changed = this.opts.registry.setPerson(id, person);
    if (changed && changed.from !== person) for (const listener of [...this.personListeners]) listener(id);
    return changed ? { from: changed.from, record: { ...changed.record } } : undefined;
  }

  /** Registers a listener for tokens given to another person (live presence lists show the new one); returns its removal. */
  onPersonChanged(listener: (tokenId: string) => void): () => void {
    this.personListeners.add(listener);
    return () => this.personListeners.delete(listener);
  }

  /** Every person who holds a token. */
  people(): Set<string> {
    return this.opts.registry.people();
  }

  /** Revokes by id and tells the listeners at once; undefined when the id is unknown. */
  revoke(id: string): TokenRecord | undefined {
    const record = this.opts.registry.revoke(id, this.now());
    if (record) this.emit(id);
    return record ? { ...record } : undefined;
  }

  /** Registers a listener for revoked or expired token ids; returns its removal. */
  onRevoked(listener: (tokenId: string) => void): () => void {
    this.listeners.add(listener);
    this.startSweep();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopSweep();
    };
  }

  /** Stops the expiry sweep and writes the last-seen times still pending. Idempotent. */
  close(): void {
    this.listeners.clear();
    this.personListeners.clear();
    this.stopSweep();
    this.opts.registry.close();
  }

  private emit(tokenId: string): void {
    for (const listener of [...this.listeners]) listener(tokenId);
  }

  /** Announces tokens whose `exp` has passed, once each, so live sockets do not outlive them. */
  checkExpiry(): void {
    const now = this.now();
    for (const record of this.opts.registry.list()) {
      if (record.expiresAt <= now && record.revokedAt === undefined && !this.announcedExpired.has(record.id)) {
        this.announcedExpired.add(record.id);
        this.emit(record.id);
      }
    }
  }

  private startSweep(): void {
    if (this.sweep) return;
    this.sweep = setInterval(() => this.checkExpiry(), this.opts.expirySweepMs);
    this.sweep.unref();
  }

  private stopSweep(): void {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
  }
}
