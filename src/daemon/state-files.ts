import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import fs from 'node:fs';
import { ensurePrivateDir, fileMode, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

/** The files the daemon keeps in its state dir (HUB-DESIGN §9). */
export function statePaths(stateDir: string) {
  return {
    dir: stateDir,
    hubFile: path.join(stateDir, 'hub.json'),
    adminToken: path.join(stateDir, 'admin.token'),
    childPid: path.join(stateDir, 'backend.pid'),
    simData: path.join(stateDir, 'sim'),
    builtinProviders: path.join(stateDir, 'zcode-builtin.json'),
  };
}

export const hubFileSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  port: z.number().int().min(0).max(65535),
  url: z.string(),
  version: z.string(),
  startedAt: z.number(),
});
export type HubFile = z.infer<typeof hubFileSchema>;

/** Reads hub.json; undefined when absent or not ours. */
export function readHubFile(stateDir: string): HubFile | undefined {
  const text = readFileIfExists(statePaths(stateDir).hubFile);
  if (text === undefined) return undefined;
  try {
    const parsed = hubFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeHubFile(stateDir: string, hub: HubFile): void {
  writeFileAtomic(statePaths(stateDir).hubFile, `${JSON.stringify(hub, null, 2)}\n`);
}

/** Shortest admin token accepted from a secret file (128 bits of base64 text). */
const MIN_SECRET_CHARS = 22;

/**
 * The admin token: read from `secretFile` when given (a container secret, never copied into
 * the state dir), else created (256 bits, 0600) at first start.
 */
export function ensureAdminToken(stateDir: string, secretFile?: string): string {
  ensurePrivateDir(stateDir);
  if (secretFile) {
    const secret = readFileIfExists(secretFile)?.trim();
    if (!secret) throw new Error(`admin token file ${secretFile} is missing or empty`);
    if (secret.length < MIN_SECRET_CHARS) throw new Error(`admin token in ${secretFile} is too short (at least ${MIN_SECRET_CHARS} characters)`);
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
