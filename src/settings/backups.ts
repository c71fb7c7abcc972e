/**
 * The last N versions of the provider file (ARCHITECTURE.md §6 "previous version kept as a
 * backup"). Each backup is the exact bytes that were replaced, written atomically, 0600 (they
 * hold keys), in a 0700 directory. Ids are `<ms timestamp>-<8 hex of sha256>`; they are
 * validated before touching the filesystem, so an id can never name a path outside the directory.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWritePrivateFile, ensurePrivateDir } from './atomic-write.js';

export const DEFAULT_BACKUPS_KEPT = 5;
const ID_PATTERN = /^(\d{13})-([0-9a-f]{8})(?:-(\d+))?$/;

export interface BackupInfo {
  id: string;
  createdAt: string;
  bytes: number;
}

export class BackupStore {
  readonly dir: string;
  readonly keep: number;
  constructor(dir: string, keep = DEFAULT_BACKUPS_KEPT) {
    this.dir = dir;
    this.keep = keep;
  }

  /** Whether `id` has the shape of a backup id (path-safe). */
  static isValidId(id: string): boolean {
    return ID_PATTERN.test(id);
  }

  /** Saves `bytes` as the newest backup and prunes beyond `keep`. Returns the new id. */
  async save(bytes: Uint8Array): Promise<string> {
    await ensurePrivateDir(this.dir);
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
    const stamp = String(Date.now()).padStart(13, '0');
    let id = `${stamp}-${hash}`;
    const existing = new Set(await this.ids());
    for (let n = 1; existing.has(id); n += 1) id = `${stamp}-${hash}-${n}`;
    await atomicWritePrivateFile(join(this.dir, `${id}.json`), bytes);
    await this.prune();
    return id;
  }

  /** Backup ids, newest first. */
  async ids(): Promise<string[]> {
    let entries: string[];
    try {
      entries = await readdir(this.dir);
    } catch {
      return [];
    }
    return entries
      .filter((e) => e.endsWith('.json'))
      .map((e) => e.slice(0, -'.json'.length))
      .filter((id) => ID_PATTERN.test(id))
      .sort(compareIdsDesc);
  }

  /** Newest first, with sizes. */
  async list(): Promise<BackupInfo[]> {
    const out: BackupInfo[] = [];
    for (const id of await this.ids()) {
      const info = await stat(join(this.dir, `${id}.json`)).catch(() => null);
      if (!info) continue;
      out.push({ id, createdAt: new Date(Number(id.slice(0, 13))).toISOString(), bytes: info.size });
    }
    return out;
  }

  /** The bytes of one backup, or null when it does not exist. */
  async read(id: string): Promise<Buffer | null> {
    if (!ID_PATTERN.test(id)) return null;
    try {
      return await readFile(join(this.dir, `${id}.json`));
    } catch {
      return null;
    }
  }

  /**
   * Takes every one of `values` (keys that left the provider file) out of every backup: the
   * property holding it is dropped, so a restore brings the provider back without its key. A
   * backup that cannot be read as JSON, or still holds a value elsewhere, is removed. Returns
   * how many backups changed.
   */
  async scrubValues(values: readonly string[]): Promise<number> {
    const gone = new Set(values);
    const holds = (text: string) => values.some((v) => text.includes(v) || text.includes(JSON.stringify(v).slice(1, -1)));
    let changed = 0;
    for (const id of await this.ids()) {
      const file = join(this.dir, `${id}.json`);
      const text = await readFile(file, 'utf8').catch(() => '');
      if (!holds(text)) continue;
      changed += 1;
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch {
        await rm(file, { force: true });
        continue;
      }
      const stack: unknown[] = [doc];
      for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
        if (v === null || typeof v !== 'object') continue;
        for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
          if (typeof child === 'string' && gone.has(child)) delete (v as Record<string, unknown>)[k];
          else if (child !== null && typeof child === 'object') stack.push(child);
        }
      }
      const scrubbed = JSON.stringify(doc, null, 2);
      if (holds(scrubbed)) await rm(file, { force: true });
      else await atomicWritePrivateFile(file, scrubbed);
    }
    return changed;
  }

  private async prune(): Promise<void> {
    const ids = await this.ids();
    for (const id of ids.slice(this.keep)) await rm(join(this.dir, `${id}.json`), { force: true });
  }
}

function compareIdsDesc(a: string, b: string): number {
  const ma = ID_PATTERN.exec(a);
  const mb = ID_PATTERN.exec(b);
  const ta = ma?.[1] ?? '';
  const tb = mb?.[1] ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  return Number(mb?.[3] ?? 0) - Number(ma?.[3] ?? 0);
}
