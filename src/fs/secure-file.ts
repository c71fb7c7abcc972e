import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Creates `dir` (and parents) with mode 0700 and tightens an existing one. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** What `tempFileOf` names: hidden, the target's name, the writer's pid, 8 hex digits, `.tmp`. */
const TEMP_NAME = /^\..+\.[1-9]\d*\.[0-9a-f]{8}\.tmp$/;

/** The hidden temp file an atomic write of `file` goes through: `.<name>.<pid>.<random>.tmp`, beside it. */
export function tempFileOf(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Whether a directory entry has the shape of a `tempFileOf` name (a kill between write and rename leaves one). */
export function isTempFileName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Writes a file atomically with mode 0600: temp file in the same directory, fsync, rename,
 * fsync the directory. A crash leaves either the old or the new content, never a torn file.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): void {
  const dir = path.dirname(file);
  // A missing parent is created private; an existing one keeps its mode.
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = tempFileOf(file);
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    try {
      writeAll(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (err) {
    // A full disk (ENOSPC), a size cap (EFBIG) or a short write: the old file stands, the temp goes.
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  try {
    const dirFd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {
    // Directory fsync is not supported everywhere (e.g. some network filesystems); the rename stands.
  }
}

/** Writes every byte of `bytes` at the file's offset: `writeSync` may write fewer (a disk filling up). */
function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = fs.writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw Object.assign(new Error('No bytes could be written (the disk may be full)'), { code: 'ENOSPC' });
    offset += written;
  }
}

/** Reads a file, or undefined when it does not exist. */
export function readFileIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * The size of the regular file at `file`, never followed through a link; undefined when it is
 * missing. Anything else under that name (a link, a directory, a FIFO) throws: reading a FIFO
 * blocks the hub for good, and a link's target may be any file of the user's, outside the state dir.
 */
export function regularFileSize(file: string): number | undefined {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  if (!stat.isFile()) throw Object.assign(new Error(`${file} is not a regular file; it is left as it is`), { code: 'ENOTREG' });
  return stat.size;
}

/** Open flags of a file the hub writes in the state dir by name: a link planted under its name is refused (ELOOP), never followed. */
export const OWN_FILE_FLAGS = {
  write: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW,
  append: fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW,
} as const;

/** Mode bits of a path (e.g. 0o600), or undefined when missing. */
export function fileMode(file: string): number | undefined {
  try {
    return fs.statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}

/** Sets an existing private file back to 0600 when its mode was loosened (a copy, a restore, a chmod). */
export function keepPrivate(file: string): void {
  const mode = fileMode(file);
  if (mode !== undefined && mode !== 0o600) fs.chmodSync(file, 0o600);
}
