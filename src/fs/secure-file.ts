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
 * Something other than a regular file under the name (a link, a directory, a FIFO) is refused
 * and left as it is ({@link NotRegularFileError}).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): void {
  const dir = path.dirname(file);
  // A missing parent is created private; an existing one keeps its mode.
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Only a regular file (or nothing) is replaced: a rename over a link or a FIFO would silently
  // replace what someone put there, and over a directory it fails with a bare EISDIR.
  regularFileSize(file);
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
export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const written = fs.writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw Object.assign(new Error('No bytes could be written (the disk may be full)'), { code: 'ENOSPC' });
    offset += written;
  }
}

/** What sits under a file's name instead of a regular file, in words for a message. */
function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'an entry of an unknown kind';
}

/**
 * Thrown when something other than a regular file sits under the name of a file the hub reads or
 * writes: a FIFO (a read would block the hub for good), a directory, a link (its target may be any
 * file of the user's, outside the state dir). The thing is left as it is; the message names the
 * file, what is there and how to fix it.
 */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly file: string,
    readonly found: string,
  ) {
    super(`${file} is ${found}, not a regular file; the hub neither reads nor replaces it — move it away and start again`);
    this.name = 'NotRegularFileError';
  }
}

/** What sits at `file` (not followed), in words; undefined when nothing does. */
function foundAt(file: string): string | undefined {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  return stat === undefined ? undefined : kindOf(stat);
}

export interface ReadOptions {
  /**
   * Follow a link under the name: only for a file the user named (a mounted container secret is
   * a link), never for a file of the state dir.
   */
  followLink?: boolean;
}

/**
 * Opens the regular file at `file` with `flags`, never through a link under its name (unless
 * `followLink`) and without blocking (a FIFO opens at once), then checks the opened descriptor,
 * so what is read or written is what was checked: anything but a regular file throws
 * {@link NotRegularFileError}. A missing file throws ENOENT as `open` does.
 */
export function openRegularFile(file: string, flags: number, options: { followLink?: boolean; mode?: number } = {}): number {
  const all = flags | fs.constants.O_NONBLOCK | (options.followLink ? 0 : fs.constants.O_NOFOLLOW);
  let fd: number;
  try {
    fd = fs.openSync(file, all, options.mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ELOOP: a link under the name (O_NOFOLLOW); ENXIO: a socket; EISDIR: a directory opened to write.
    const found = code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR' ? foundAt(file) : undefined;
    if (found !== undefined) throw new NotRegularFileError(file, found);
    throw err;
  }
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) {
    fs.closeSync(fd);
    throw new NotRegularFileError(file, kindOf(stat));
  }
  return fd;
}

/** Reads a regular file ({@link openRegularFile}), or undefined when nothing is under its name. */
export function readFileIfExists(file: string, options: ReadOptions = {}): string | undefined {
  let fd: number;
  try {
    fd = openRegularFile(file, fs.constants.O_RDONLY, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
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
  if (!stat.isFile()) throw new NotRegularFileError(file, kindOf(stat));
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
