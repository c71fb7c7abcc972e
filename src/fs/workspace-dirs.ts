import fs from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceRoots } from './workspace-roots.js';

/** One folder a new session could work in. */
export interface DirEntry {
  name: string;
  /** Absolute; what `session/new` takes as `cwd`. */
  path: string;
}

/** A folder's sub-folders, for the new-session picker. */
export interface DirListing {
  /** The listed folder (its real path). */
  path: string;
  /** The workspace root it is in. */
  root: string;
  /** The folder above, while that is still inside the root. */
  parent?: string;
  dirs: DirEntry[];
  /** More sub-folders than `max` exist; the first ones by name are listed. */
  truncated: boolean;
}

/**
 * The sub-folders of `dir`, read-only and confined like `session/new`: `dir` must pass
 * `roots.resolve` (absolute, existing, inside a root after symlinks, not the hub's private
 * files), and each entry is resolved the same way, so a symlink out of the roots is never offered.
 * Hidden folders (`.git`, `.cache` …) are left out: nobody starts a session in them.
 */
export async function listWorkspaceDirs(roots: WorkspaceRoots, dir: string, max: number): Promise<DirListing> {
  const real = await roots.resolve(dir);
  const root = (await roots.rootOf(real)) ?? real;
  const names = (await fs.readdir(real, { withFileTypes: true }))
    .filter((d) => !d.name.startsWith('.') && (d.isDirectory() || d.isSymbolicLink()))
    .map((d) => d.name)
    .sort((a, b) => a.localeCompare(b));
  const dirs: DirEntry[] = [];
  let truncated = false;
  for (const name of names) {
    if (dirs.length >= max) {
      truncated = true;
      break;
    }
    const full = path.join(real, name);
    // Symlinks and secret folders go through the same check as a typed path.
    const ok = await roots.resolve(full).then(
      () => true,
      () => false,
    );
    if (ok) dirs.push({ name, path: full });
  }
  const up = path.dirname(real);
  return { path: real, root, ...(real !== root ? { parent: up } : {}), dirs, truncated };
}
