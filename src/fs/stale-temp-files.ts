/**
 * The temp files of atomic writes that a kill left behind. An atomic write (secure-file.ts
 * `writeFileAtomic`, settings/atomic-write.ts) writes a hidden temp file beside its target and
 * renames it over the target; a daemon killed between the two leaves the temp file (0600, never
 * read again). At start, before anything is written, each directory the hub writes atomically is
 * swept of them (ARCHITECTURE.md §9.1).
 *
 * Only what is surely such litter goes: a regular file (never a link or a directory) whose name
 * has the shape of one of the writers' temp names and that was last changed before this start.
 * Anything else in the directory — a user's file, a temp file of another shape — is left alone.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What a sweep did: the temp files removed, and the entries that could not be looked at or removed. */
export interface TempSweep {
  removed: string[];
  failed: Array<{ file: string; err: unknown }>;
}

/**
 * Removes from each of `dirs` the regular files whose name `isTempName` accepts and whose mtime is
 * before `startedAt` (ms). A missing directory is skipped.
 */
export function removeStaleTempFiles(dirs: readonly string[], isTempName: (name: string) => boolean, startedAt: number): TempSweep {
  const sweep: TempSweep = { removed: [], failed: [] };
  for (const dir of dirs) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') sweep.failed.push({ file: dir, err });
      continue;
    }
    for (const name of names) {
      if (!isTempName(name)) continue;
      const file = path.join(dir, name);
      try {
        const stat = fs.lstatSync(file);
        if (!stat.isFile() || stat.mtimeMs >= startedAt) continue;
        fs.rmSync(file, { force: true });
        sweep.removed.push(file);
      } catch (err) {
        sweep.failed.push({ file, err });
      }
    }
  }
  return sweep;
}
