import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensurePrivateDir, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

/** File name of the device-token signing secret in the state dir (mode 0600). */
export const JWT_SECRET_FILE = 'jwt.secret';

/** Bytes of the HS256 key: 256 bits, as long as the hash (RFC 7518 §3.2). */
const SECRET_BYTES = 32;

/**
 * The HS256 key that signs device tokens, created at first start (ARCHITECTURE.md §7). A file that
 * does not hold a full-length key is replaced, which invalidates every device token it signed.
 */
export function ensureJwtSecret(stateDir: string): Uint8Array {
  ensurePrivateDir(stateDir);
  const file = path.join(stateDir, JWT_SECRET_FILE);
  const existing = readFileIfExists(file)?.trim();
  if (existing) {
    const key = Buffer.from(existing, 'base64url');
    if (key.length === SECRET_BYTES) {
      // A key loosened by hand (cp, an editor, a backup restore) is tightened back (SEC-09).
      if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
      return new Uint8Array(key);
    }
  }
  const key = randomBytes(SECRET_BYTES);
  writeFileAtomic(file, `${key.toString('base64url')}\n`);
  return new Uint8Array(key);
}
