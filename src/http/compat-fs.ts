import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { HubError } from '../errors.js';
import type { SecretPaths } from '../fs/secret-paths.js';
import { readLineWindow, type LineWindow } from './line-window.js';

/**
 * Read-only file access for the zcode-acp-remote file browser (ARCHITECTURE.md §5.1), confined to a
 * session's root: every path is resolved against the root and must still be inside it after
 * `realpath` (so `..` and symlinks that leave the tree are refused); the file itself is opened
 * with O_NOFOLLOW and checked through its handle, so what is served is what was checked.
 * A root of `/` is never served, and neither is anything `SecretPaths` names (the state dir,
 * provider files …), whatever the root: listings leave such entries out, reads refuse them.
 * Shapes follow the app's bridge (`{root, entries, truncated}`).
 */

export interface FsListEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink';
  size: number;
  mtime: number;
}

export interface FsListing {
  root: string;
  entries: FsListEntry[];
  truncated: boolean;
}

const NOT_SERVED = 'Path is not served';

/** The realpath of a session root; refuses `/` and missing roots. */
export async function resolveRoot(root: string): Promise<string> {
  let real: string;
  try {
    real = await fs.realpath(root);
  } catch {
    throw new HubError('HUB_ERR_NOT_FOUND', 'Session root unavailable');
  }
  if (real === path.parse(real).root) throw new HubError('HUB_ERR_FORBIDDEN', 'Session root unavailable');
  return real;
}

/** Resolves `rel` inside `root` (already real) and proves the real target stays inside it. */
export async function resolveInside(root: string, rel: string | undefined, secrets: SecretPaths): Promise<string> {
  if (rel?.includes('\0')) throw new HubError('HUB_ERR_BAD_REQUEST', 'Invalid path');
  const target = rel ? path.resolve(root, rel) : root;
  let real: string;
  try {
    real = await fs.realpath(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new HubError('HUB_ERR_FORBIDDEN', 'Unreadable');
    // A missing path answers as an existing one would when it is not served, so a caller cannot
    // learn what exists outside the root or inside a denied directory (403 either way).
    refuseUnserved(root, await wouldBeReal(target), await secrets.matcher());
    throw new HubError('HUB_ERR_NOT_FOUND', 'Not found');
  }
  refuseUnserved(root, real, await secrets.matcher());
  return real;
}

/** Throws 403 when `real` leaves `root` or is a secret; the same answer whether it exists or not. */
function refuseUnserved(root: string, real: string, isSecret: (realPath: string) => boolean): void {
  if (real !== root && !real.startsWith(root + path.sep)) throw new HubError('HUB_ERR_FORBIDDEN', 'Path escapes the session root');
  if (isSecret(real)) throw new HubError('HUB_ERR_FORBIDDEN', NOT_SERVED);
}

/** The real path `target` would have: its deepest existing ancestor resolved, the missing rest appended. */
async function wouldBeReal(target: string): Promise<string> {
  const missing: string[] = [];
  let dir = target;
  for (;;) {
    const parent = path.dirname(dir);
    missing.unshift(path.basename(dir));
    if (parent === dir) return target;
    dir = parent;
    const real = await fs.realpath(dir).catch(() => undefined);
    if (real !== undefined) return path.join(real, ...missing);
  }
}

/** One directory level, directories first, at most `maxEntries`. */
export async function listDirectory(root: string, rel: string | undefined, maxEntries: number, secrets: SecretPaths): Promise<FsListing> {
  const dir = await resolveInside(root, rel, secrets);
  let dirents: import('node:fs').Dirent[];
  try {
    dirents = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') throw new HubError('HUB_ERR_NOT_FOUND', 'Not a directory');
    throw new HubError('HUB_ERR_FORBIDDEN', 'Unreadable');
  }
  const isSecret = await secrets.matcher();
  dirents = dirents.filter((d) => !isSecret(path.join(dir, d.name)));
  dirents.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const truncated = dirents.length > maxEntries;
  const entries: FsListEntry[] = [];
  for (const d of dirents.slice(0, maxEntries)) {
    const kind = d.isDirectory() ? 'dir' : d.isSymbolicLink() ? 'symlink' : 'file';
    let size = 0;
    let mtime = 0;
    // Symlinks are not followed here; their target is checked only when read through.
    if (kind !== 'symlink') {
      try {
        const s = await fs.lstat(path.join(dir, d.name));
        size = s.size;
        mtime = s.mtimeMs;
      } catch {
        // Deleted meanwhile: keep zeros.
      }
    }
    entries.push({ name: d.name, kind, size, mtime });
  }
  return { root, entries, truncated };
}

/** Opens a regular, non-secret file inside `root` and hands its handle to `use` (closed after); the git routes check worktree files with it too. */
export async function withConfinedFile<T>(
  root: string,
  rel: string | undefined,
  secrets: SecretPaths,
  use: (handle: fs.FileHandle, size: number, file: string) => Promise<T>,
): Promise<T> {
  const file = await resolveInside(root, rel, secrets);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    throw new HubError('HUB_ERR_FORBIDDEN', 'Unreadable');
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new HubError('HUB_ERR_NOT_FOUND', 'Not a file');
    // A hard link to a secret has an innocent path; its inode gives it away.
    if (await secrets.isSecretInode(stat)) throw new HubError('HUB_ERR_FORBIDDEN', NOT_SERVED);
    return await use(handle, stat.size, file);
  } finally {
    await handle.close();
  }
}

/** Reads a regular file inside `root`, refusing anything over `maxBytes` (413). */
export async function readFileConfined(
  root: string,
  rel: string | undefined,
  maxBytes: number,
  secrets: SecretPaths,
): Promise<{ data: Buffer; file: string }> {
  return withConfinedFile(root, rel, secrets, async (handle, size, file) => {
    if (size > maxBytes) throw new HubError('HUB_ERR_PAYLOAD_TOO_LARGE', `File larger than ${maxBytes} bytes`, { size, limit: maxBytes });
    const data = Buffer.alloc(size);
    const { bytesRead } = await handle.read(data, 0, size, 0);
    return { data: data.subarray(0, bytesRead), file };
  });
}

/**
 * Lines `line`…`line + limit - 1` (1-based) of a regular file inside `root`, with the same
 * confinement as a whole read; any file size, memory bounded by the window (line-window.ts).
 */
export async function readLinesConfined(
  root: string,
  rel: string | undefined,
  secrets: SecretPaths,
  window: { line: number; limit: number; maxBytes: number },
): Promise<LineWindow> {
  return withConfinedFile(root, rel, secrets, (handle) => readLineWindow(handle, window));
}

const MIME_BY_EXT: Readonly<Record<string, string>> = {
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.json': 'application/json',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/plain; charset=utf-8',
  '.svg': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

const TEXT_EXT = /\.(ts|tsx|jsx|cjs|py|rb|go|rs|java|kt|c|h|cpp|hpp|cs|sh|yml|yaml|toml|ini|sql|csv|xml|lock|gitignore)$/i;

/** Content type for a served file; HTML and SVG go out as text so they never run in our origin. */
export function mimeFor(file: string): string {
  const ext = path.extname(file).toLowerCase();
  return MIME_BY_EXT[ext] ?? (TEXT_EXT.test(file) ? 'text/plain; charset=utf-8' : 'application/octet-stream');
}
