/**
 * The one mapping from an id someone else chose (a session id: the agent hands it out, a client
 * may name any) to a file name in the state dir (`turns/`, `task-outputs/`).
 *
 * The name is the SHA-256 of the id's UTF-16 code units, in lowercase hex, then the extension:
 * 64 characters for any id the hub accepts — no length reaches the file system's 255-byte name
 * limit (with the temp name of an atomic write around it), no `/`, `..`, NUL or other character
 * of the id reaches the path, and two ids never differ only in the case of their names (a
 * case-insensitive file system would take them for one). Hashing the code units, not UTF-8,
 * keeps ids with lone surrogates apart. The same id gives the same name in every run.
 *
 * A name cannot be read back, so each file also holds its id, and a reader takes a file as the
 * id's only when the id inside gives the name back.
 *
 * Earlier versions named the file `base64url(UTF-8 id)` + extension: too long for ids of about
 * 190 characters and more, and two names could differ only in case. Each store renames such
 * files at its start (`legacyIdOf`), once; see ARCHITECTURE.md §9.
 */
import { createHash } from 'node:crypto';

/** `<sha256 hex of the id>` + `ext` (`.json`, `.ndjson`). */
export function idFileName(id: string, ext: string): string {
  return `${createHash('sha256').update(id, 'utf16le').digest('hex')}${ext}`;
}

/** Whether `name` has the shape of an `idFileName` with `ext`. */
export function isIdFileName(name: string, ext: string): boolean {
  return name.length === 64 + ext.length && name.endsWith(ext) && /^[0-9a-f]{64}$/.test(name.slice(0, 64));
}

/**
 * The id an earlier version's file name (`base64url(UTF-8 id)` + `ext`) stood for, or undefined
 * when `name` is not such a name (another extension, not the canonical encoding of an id, or the
 * shape of a current name).
 */
export function legacyIdOf(name: string, ext: string): string | undefined {
  if (!name.endsWith(ext) || isIdFileName(name, ext)) return undefined;
  const stem = name.slice(0, -ext.length);
  if (!/^[A-Za-z0-9_-]+$/.test(stem)) return undefined;
  const id = Buffer.from(stem, 'base64url').toString('utf8');
  return id !== '' && Buffer.from(id, 'utf8').toString('base64url') === stem ? id : undefined;
}
