import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DeniedInodes } from './denied-inodes.js';

/**
 * The files no route ever serves, whatever root a caller reads under: the
 * hub's state directory (admin token, JWT key, token list, audit log, VAPID key, provider
 * backups), the provider files with the lock, temp and backup files kept beside them, the
 * admin token and TLS key files, and the ZCode CLI's own data directory (`.zcode/v2`, whose
 * config files hold API keys). Paths are compared after `realpath`, so `..` and symlinks do
 * not get around it; hard links are caught by comparing the served file's inode.
 */
export interface SecretPathSources {
  stateDir: string;
  providerFile: string;
  builtinProviderFile?: string | undefined;
  adminTokenFile?: string | undefined;
  tlsKey?: string | undefined;
  /** Base of the ZCode CLI's `.zcode/` (`ZCODE_DATA_BASE_DIR`, else the home directory). */
  zcodeDataBase?: string | undefined;
  /** `deniedInodesMax` (src/limits.ts): files of the denied directories indexed by inode. */
  limits: { deniedInodesMax: number };
}

/** Secret files checked by inode (hard links) besides the directories denied by path. */
// The audit log's two names are auth/audit-log.ts's AUDIT_FILE and AUDIT_ROTATED_FILE (spelled out: fs is below auth).
const STATE_SECRETS = ['admin.token', 'jwt.secret', 'tokens.json', 'push-vapid.json', 'audit.jsonl', 'audit.jsonl.1', 'zcode-builtin.json'];

async function real(p: string): Promise<string> {
  return fs.realpath(p).catch(() => path.resolve(p));
}

function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/** The denylist of one hub; `isSecret` takes a real (already resolved) absolute path. */
export class SecretPaths {
  private readonly inodes: DeniedInodes;

  constructor(private readonly src: SecretPathSources) {
    this.inodes = new DeniedInodes(async () => Promise.all(this.dirs().map(real)), src.limits.deniedInodesMax);
  }

  private files(): string[] {
    const { providerFile, builtinProviderFile, adminTokenFile, tlsKey } = this.src;
    return [providerFile, builtinProviderFile, adminTokenFile, tlsKey].filter((f): f is string => typeof f === 'string' && f.length > 0);
  }

  private dirs(): string[] {
    const base = this.src.zcodeDataBase ?? process.env.ZCODE_DATA_BASE_DIR ?? os.homedir();
    const dirs = [this.src.stateDir, path.join(base, '.zcode', 'v2')];
    // A provider file in a ZCode data directory (`<base>/.zcode/v2/…`, the default) denies that directory.
    for (const file of [this.src.providerFile, this.src.builtinProviderFile]) {
      if (!file) continue;
      const dir = path.dirname(path.resolve(file));
      if (path.basename(dir) === 'v2' && path.basename(path.dirname(dir)) === '.zcode') dirs.push(dir);
    }
    return dirs;
  }

  /** A synchronous test for many paths (a listing), with the denylist resolved once. */
  async matcher(): Promise<(realPath: string) => boolean> {
    const dirs = new Set<string>();
    for (const dir of this.dirs()) {
      dirs.add(await real(dir));
      dirs.add(path.resolve(dir));
    }
    const families: Array<{ dir: string; base: string }> = [];
    for (const file of this.files()) {
      for (const f of new Set([await real(file), path.resolve(file)])) families.push({ dir: path.dirname(f), base: path.basename(f) });
    }
    return (realPath) => {
      for (const dir of dirs) if (inside(realPath, dir)) return true;
      for (const { dir, base } of families) {
        if (!realPath.startsWith(dir + path.sep)) continue;
        // `<file>`, `<file>.lock/`, `.<file>.hub-tmp-…`, `.<file>.backups/`: the family of a secret file.
        const first = realPath.slice(dir.length + 1).split(path.sep)[0] ?? '';
        if (first.startsWith(base) || first.startsWith(`.${base}`)) return true;
      }
      return false;
    };
  }

  /** True when `realPath` is a secret, inside a secret directory, or a file kept beside a secret file. */
  async isSecret(realPath: string): Promise<boolean> {
    return (await this.matcher())(realPath);
  }

  /**
   * True when an open file (by `dev`/`ino`) is a secret file or any file of a denied directory
   * under another name (a hard link): the named secrets are compared exactly, the rest through
   * the denied directories' inode index (denied-inodes.ts).
   */
  async isSecretInode(stat: { dev: number; ino: number; nlink: number; ctimeMs: number }): Promise<boolean> {
    if (stat.nlink < 2) return false;
    if (await this.inodes.denies(stat)) return true;
    const candidates = [...this.files(), ...STATE_SECRETS.map((f) => path.join(this.src.stateDir, f))];
    const backups = path.join(this.src.stateDir, 'provider-backups');
    for (const name of await fs.readdir(backups).catch(() => [] as string[])) candidates.push(path.join(backups, name));
    for (const file of candidates) {
      const s = await fs.stat(file).catch(() => undefined);
      if (s && s.dev === stat.dev && s.ino === stat.ino) return true;
    }
    return false;
  }
}
