import { ensureAdminToken } from './admin-token.js';
import { ensurePrivateDir } from '../fs/secure-file.js';
import type { Logger } from '../logger.js';
import { AuditLog } from './audit-log.js';
import { ensureJwtSecret } from './jwt-secret.js';
import { PairingCodes } from './pairing-codes.js';
import { TokenManager } from './token-manager.js';
import { TokenRegistry } from './token-registry.js';

/** Bounds the auth services read from config.limits (ARCHITECTURE.md §8). */
export interface AuthLimits {
  pairingCodeTtlMs: number;
  pairingCodesMax: number;
  deviceTokenDefaultTtlMs: number;
  tokenExpirySweepMs: number;
  verifiedTokensMax: number;
  auditPageMax: number;
  auditLogMaxBytes: number;
}

/** Identity and security services of one daemon: pass `authenticator: tokens` and `auth` to buildApp. */
export interface AuthServices {
  /** The Authenticator (admin token + device JWTs) with create/list/revoke and `onRevoked`. */
  tokens: TokenManager;
  pairing: PairingCodes;
  audit: AuditLog;
  limits: AuthLimits;
  /** Stops timers. Idempotent. */
  close(): void;
}

/**
 * Creates (at first start) or opens the state-dir secrets — admin token, JWT key, token
 * registry, audit log — all 0600 in a 0700 dir (ARCHITECTURE.md §7, SEC-09).
 */
export function createAuthServices(opts: {
  stateDir: string;
  adminTokenFile?: string | undefined;
  limits: AuthLimits;
  logger?: Logger;
  now?: () => number;
}): AuthServices {
  ensurePrivateDir(opts.stateDir);
  const adminToken = ensureAdminToken(opts.stateDir, opts.adminTokenFile);
  const secret = ensureJwtSecret(opts.stateDir);
  const registry = TokenRegistry.open(opts.stateDir, (err) =>
    opts.logger?.warn({ err }, 'last-seen times of device tokens could not be written'),
  );
  const tokens = new TokenManager({
    adminToken,
    secret,
    registry,
    expirySweepMs: opts.limits.tokenExpirySweepMs,
    verifiedTokensMax: opts.limits.verifiedTokensMax,
    ...(opts.now ? { now: opts.now } : {}),
  });
  const pairing = new PairingCodes({
    ttlMs: opts.limits.pairingCodeTtlMs,
    max: opts.limits.pairingCodesMax,
    ...(opts.now ? { now: opts.now } : {}),
  });
  const audit = new AuditLog(opts.stateDir, {
    onError: (err) => opts.logger?.error({ err }, 'audit log append failed'),
    onRotate: (lastSeq) =>
      opts.logger?.info(
        { lastSeq, maxBytes: opts.limits.auditLogMaxBytes },
        'audit log rotated: entries up to lastSeq are now in audit.jsonl.1, dropped at the next rotation',
      ),
    maxBytes: opts.limits.auditLogMaxBytes,
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { tokens, pairing, audit, limits: opts.limits, close: () => tokens.close() };
}
