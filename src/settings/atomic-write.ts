/**
 * Crash-safe replacement of a small secret file (STYLE.md trap "config files with API keys
 * written with a plain writeFile"): temp file in the same directory (so `rename` is atomic),
 * created 0600, fsync, rename over the target, fsync the directory so the rename itself
 * survives a power cut. A writer killed at any point leaves either the old or the new file,
 * plus at most one temp file that `cleanStaleTempFiles` removes on the next start (CFG-01).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../fs/process-alive.js';

/** Mode of every file we write that may hold a key (SEC-09). */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of directories we create for such files (SEC-09). */
export const PRIVATE_DIR_MODE = 0o700;

const TEMP_MARKER = '.hub-tmp-';

/** `.<base>.hub-tmp-<pid>-<random>`: hidden, same directory, owner pid recoverable for cleanup. */
function tempPathFor(filePath: string): string {
  return join(dirname(filePath), `.${basename(filePath)}${TEMP_MARKER}${process.pid}-${randomBytes(6).toString('hex')}`);
}

/** Whether a directory entry has the shape of a `tempPathFor` name. */
export function isSettingsTempName(name: string): boolean {
  return /^\..+\.hub-tmp-[1-9]\d*-[0-9a-f]{12}$/.test(name);
}

/** Creates the parent directory 0700 when it is missing (an existing directory keeps its mode). */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

async function fsyncDir(dir: string): Promise<void> {
  // Directory fsync is how POSIX makes a rename durable; Windows cannot open directories.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Atomically replaces `filePath` with `data`, mode 0600. */
export async function atomicWritePrivateFile(filePath: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(filePath);
  await ensurePrivateDir(dir);
  const temp = tempPathFor(filePath);
  try {
    const handle = await open(temp, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(data);
      // The umask can only remove bits, but an inherited ACL or odd umask must not widen the mode.
      await handle.chmod(PRIVATE_FILE_MODE);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, filePath);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await fsyncDir(dir);
}

/** Tightens an existing file to 0600 (e.g. a backup copied from a looser file). */
export async function makePrivate(filePath: string): Promise<void> {
  await chmod(filePath, PRIVATE_FILE_MODE);
}

/**
 * Removes temp files of `filePath` left by writers that died mid-write. A temp file of a live
 * process (another hub writing right now) is left alone. Returns the removed names.
 */
export async function cleanStaleTempFiles(filePath: string): Promise<string[]> {
  const dir = dirname(filePath);
  const prefix = `.${basename(filePath)}${TEMP_MARKER}`;
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number.parseInt(entry.slice(prefix.length).split('-')[0] ?? '', 10);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) continue;
    if (pid === process.pid) continue; // one of ours in flight
    await rm(join(dir, entry), { force: true });
    removed.push(entry);
  }
  return removed;
}
