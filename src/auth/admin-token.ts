import fs from 'node:fs';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { statePaths } from '../config/state-paths.js';
import { ensurePrivateDir, fileMode, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

/** Shortest admin token accepted from a secret file (128 bits of base64 text). */
const MIN_SECRET_CHARS = 22;

/**
 * The admin token: read from `secretFile` when given (a container secret, never copied into
 * the state dir), else created (256 bits, 0600) at first start.
 */
export function ensureAdminToken(stateDir: string, secretFile?: string): string {
  ensurePrivateDir(stateDir);
  if (secretFile) {
    // A file the user named may be a link (a mounted container secret is one); a FIFO or a directory is still refused.
    const secret = readFileIfExists(secretFile, { followLink: true })?.trim();
    if (!secret) throw new Error(`admin token file ${secretFile} is missing or empty`);
    if (secret.length < MIN_SECRET_CHARS)
      throw new Error(`admin token in ${secretFile} is too short (at least ${MIN_SECRET_CHARS} characters)`);
    return secret;
  }
  const file = statePaths(stateDir).adminToken;
  const existing = readFileIfExists(file)?.trim();
  if (existing) {
    // A secret someone loosened (chmod, a copy) is made private again on every start (SEC-09).
    if ((fileMode(file) ?? 0o600) !== 0o600) fs.chmodSync(file, 0o600);
    return existing;
  }
  const token = `zch_admin_${randomBytes(32).toString('base64url')}`;
  writeFileAtomic(file, `${token}\n`);
  return token;
}

/** Reads the admin token without creating it (CLI sub-commands). */
export function readAdminToken(stateDir: string): string | undefined {
  return readFileIfExists(statePaths(stateDir).adminToken)?.trim() || undefined;
}

/** Constant-time string equality for secrets. */
export function secretEquals(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
