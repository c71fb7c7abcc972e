/**
 * The cross-process lock the ZCode desktop app and CLI take around the personal provider file
 * (§9.3 "rewrites it … under a file lock"): a directory `<file>.lock` created with `mkdir`
 * (atomic on every local filesystem) holding exactly one owner record
 * `owner-<token>.json = {pid, hostname, createdAt, token}`. The desktop app reads `pid` and
 * `createdAt` only, so the extra `hostname` keeps us interoperable while letting us refuse to
 * judge owners on another host (a shared home directory).
 *
 * A lock is reclaimed only when its owner is provably dead (same host, `kill(pid, 0)` → ESRCH).
 * The one exception, as in the desktop app: a lock directory with no readable owner record
 * (the writer died between `mkdir` and writing its record) is reclaimed after a short grace.
 */
import { processAlive } from '../fs/process-alive.js';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

export interface FileLockOptions {
  /** Give up after this long while a live owner holds the lock. */
  timeoutMs?: number;
  /** Age after which an owner-less lock directory counts as abandoned. */
  ownerlessGraceMs?: number;
}

export const FILE_LOCK_DEFAULTS = { timeoutMs: 10_000, ownerlessGraceMs: 5_000 } as const;
const RETRY_DELAYS_MS = [5, 10, 20, 40, 80, 100] as const;

/** Thrown when a live owner keeps the lock past the timeout. */
export class FileLockTimeoutError extends Error {
  readonly lockPath: string;
  constructor(lockPath: string, waitedMs: number) {
    super(`Timed out after ${waitedMs}ms waiting for the file lock ${lockPath}`);
    this.name = 'FileLockTimeoutError';
    this.lockPath = lockPath;
  }
}

const ownerRecordSchema = z.looseObject({
  pid: z.number().int().positive().optional(),
  hostname: z.string().optional(),
  createdAt: z.number().finite().nonnegative().optional(),
});

function errno(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

const isOwnerFile = (name: string) => name.startsWith('owner-') && name.endsWith('.json');

/** Decides whether one owner record belongs to a dead writer (or is an unreadable leftover past grace). */
async function ownerIsDead(ownerPath: string, graceMs: number): Promise<boolean> {
  let raw: string;
  try {
    raw = await readFile(ownerPath, 'utf8');
  } catch (error) {
    if (errno(error) === 'ENOENT') return false; // released meanwhile: retry mkdir instead
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  const owner = ownerRecordSchema.safeParse(parsed);
  if (owner.success && owner.data.pid !== undefined) {
    // An owner on another machine cannot be probed: treat it as alive (never steal a live lock).
    if (owner.data.hostname !== undefined && owner.data.hostname !== hostname()) return false;
    return !processAlive(owner.data.pid);
  }
  const info = await stat(ownerPath);
  return Date.now() - info.mtimeMs >= graceMs;
}

/** Removes the lock directory if its owner is dead. Returns true when it is gone. */
async function reclaimIfAbandoned(lockPath: string, graceMs: number): Promise<boolean> {
  try {
    const info = await stat(lockPath);
    if (!info.isDirectory()) return false; // not our format; leave it to a human
    const entries = await readdir(lockPath);
    const owners = entries.filter(isOwnerFile);
    if (owners.length === 0 && Date.now() - info.mtimeMs < graceMs) return false;
    for (const owner of owners) {
      if (!(await ownerIsDead(join(lockPath, owner), graceMs))) return false;
    }
    // Remove only what we observed; a new owner appearing meanwhile makes rmdir fail (ENOTEMPTY).
    await Promise.all(entries.map((entry) => rm(join(lockPath, entry), { force: true })));
    await rmdir(lockPath);
    return true;
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT') return true;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw error;
  }
}

export type ReleaseLock = () => Promise<void>;

/** Takes `<filePath>.lock`; resolves with the release function. */
export async function acquireFileLock(filePath: string, options: FileLockOptions = {}): Promise<ReleaseLock> {
  const timeoutMs = options.timeoutMs ?? FILE_LOCK_DEFAULTS.timeoutMs;
  const graceMs = options.ownerlessGraceMs ?? FILE_LOCK_DEFAULTS.ownerlessGraceMs;
  const lockPath = `${filePath}.lock`;
  const token = `${process.pid}-${Date.now()}-${randomBytes(6).toString('hex')}`;
  const ownerPath = join(lockPath, `owner-${token}.json`);
  const startedAt = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    let created = false;
    try {
      await mkdir(lockPath, { mode: 0o700 });
      created = true;
      const record = { pid: process.pid, hostname: hostname(), createdAt: Date.now(), token };
      await writeFile(ownerPath, `${JSON.stringify(record)}\n`, { flag: 'wx', mode: 0o600 });
      // Someone may have reclaimed and re-created the directory between our mkdir and write.
      const owners = (await readdir(lockPath)).filter(isOwnerFile);
      if (owners.length !== 1 || owners[0] !== `owner-${token}.json`) {
        throw Object.assign(new Error('lock ownership changed during acquire'), { code: 'EEXIST' });
      }
      return async () => {
        await rm(ownerPath, { force: true }).catch(() => undefined);
        await rmdir(lockPath).catch(() => undefined);
      };
    } catch (error) {
      if (created) {
        await rm(ownerPath, { force: true }).catch(() => undefined);
        // Our own directory failed to get a record (disk full…): do not leave it to the grace period.
        if (errno(error) !== 'EEXIST') await rmdir(lockPath).catch(() => undefined);
      }
      if (errno(error) !== 'EEXIST' && !(created && errno(error) === 'ENOENT')) throw error;
      const waited = Date.now() - startedAt;
      if (waited >= timeoutMs) throw new FileLockTimeoutError(lockPath, waited);
      if (await reclaimIfAbandoned(lockPath, graceMs)) continue;
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)] ?? 100;
      await sleep(Math.min(delay, timeoutMs - waited));
    }
  }
}

/** Runs `fn` while holding the lock of `filePath`. */
export async function withFileLock<T>(filePath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const release = await acquireFileLock(filePath, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}
