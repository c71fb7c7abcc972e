import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ensurePrivateDir, fileMode, readFileIfExists, writeFileAtomic } from '../fs/secure-file.js';

/** File of the hub's stable id in the state dir (the app dedupes machines by it, never by URL). */
export const HUB_ID_FILE = 'hub-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Who this hub is, as `/api/me`, `/api/health` and `initialize` tell it. */
export interface HubIdentity {
  /** UUID v4, created once per state dir. */
  hubId: string;
  /** `--name` / config `name`, default the host name. */
  name: string;
  version: string;
}

/**
 * The hub's id: read from `<state-dir>/hub-id`, or created (UUID v4, 0600) at first start. A file
 * that does not hold a UUID is replaced: an id must never be something a client could confuse.
 */
export function ensureHubId(stateDir: string): string {
  ensurePrivateDir(stateDir);
  const file = path.join(stateDir, HUB_ID_FILE);
  const existing = readFileIfExists(file)?.trim().toLowerCase();
  if (existing && UUID.test(existing)) {
    if ((fileMode(file) ?? 0o600) !== 0o600) fs.chmodSync(file, 0o600);
    return existing;
  }
  const id = randomUUID();
  writeFileAtomic(file, `${id}\n`);
  return id;
}

/** The hub's display name: the configured one, else the host name. */
export function hubName(configured: string | undefined): string {
  return configured ?? (os.hostname().trim() || 'zcode-hub');
}
