import fs from 'node:fs';
import path from 'node:path';

/**
 * What detection may look at; injected so the three OS tables are unit-tested anywhere. The
 * optional members check a candidate further (cli-entry.ts); a probe without them treats every
 * file as readable and executable, links as resolved and contents as unknown.
 */
export interface FsProbe {
  isFile(file: string): boolean;
  /** Entry names of a directory; [] when it does not exist. */
  listDir(dir: string): string[];
  /** The path with every symbolic link resolved; the path itself when it cannot be resolved. */
  realpath?(file: string): string;
  /** The current user may read it. */
  canRead?(file: string): boolean;
  /** The current user may execute it (POSIX mode bits; on Windows any file). */
  canExecute?(file: string): boolean;
  /** Up to `bytes` first bytes of a file; empty when it cannot be read. */
  readHead?(file: string, bytes: number): Buffer;
  /** A small text file (a package.json, an .npmrc); undefined when it cannot be read. */
  readText?(file: string): string | undefined;
}

export type DetectPlatform = 'darwin' | 'linux' | 'win32';

/**
 * Where the ZCode desktop app installs its CLI entry (`resources/glm/zcode.cjs`, APP-SERVER.md
 * §1.1), per OS, most likely first. `{VAR}` is read from the environment (the candidate is skipped
 * when the variable is unset); a `*` segment matches directory entries, newest name first (for
 * versioned folders such as Squirrel's `app-1.2.3`). Linux paths follow electron-builder's
 * conventions (deb/rpm → `/opt/<Product>`, AUR → `/usr/lib/<name>`, AppImage extracted with
 * `--appimage-extract` → `squashfs-root/`, AppImageLauncher → `~/Applications`). Seen in
 * integrators' notes and packaging recipes: the official .deb's `/opt/ZCode/resources/glm/`, the
 * AUR `zcode-bin` package's `/usr/lib/zcode/glm/` (it copies `resources/` there), a Gentoo
 * overlay's `/opt/zcode-bin/`, the macOS bundle in `/Applications`, the Windows per-user install
 * in `%LOCALAPPDATA%\Programs\ZCode`. The rest are plausible, not verified against a ZCode
 * release (docs/APP-SERVER.md §17 marks which is which).
 */
export const ZCODE_INSTALL_LOCATIONS: Readonly<Record<DetectPlatform, readonly string[]>> = {
  darwin: ['/Applications/ZCode.app/Contents/Resources/glm/zcode.cjs', '{HOME}/Applications/ZCode.app/Contents/Resources/glm/zcode.cjs'],
  linux: [
    '{APPDIR}/resources/glm/zcode.cjs',
    '/opt/ZCode/resources/glm/zcode.cjs',
    '/opt/zcode/resources/glm/zcode.cjs',
    '/opt/zcode-bin/resources/glm/zcode.cjs',
    '/usr/lib/zcode/glm/zcode.cjs',
    '/usr/lib/zcode/resources/glm/zcode.cjs',
    '/usr/lib/ZCode/resources/glm/zcode.cjs',
    '/usr/share/zcode/resources/glm/zcode.cjs',
    '/usr/local/lib/zcode/resources/glm/zcode.cjs',
    '{XDG_DATA_HOME}/zcode/resources/glm/zcode.cjs',
    '{XDG_DATA_HOME}/ZCode/resources/glm/zcode.cjs',
    '{HOME}/.local/share/zcode/resources/glm/zcode.cjs',
    '{HOME}/.local/share/ZCode/resources/glm/zcode.cjs',
    '{HOME}/Applications/ZCode/resources/glm/zcode.cjs',
    '{HOME}/Applications/squashfs-root/resources/glm/zcode.cjs',
    '{HOME}/squashfs-root/resources/glm/zcode.cjs',
  ],
  win32: [
    '{LOCALAPPDATA}\\Programs\\ZCode\\resources\\glm\\zcode.cjs',
    '{LOCALAPPDATA}\\Programs\\zcode\\resources\\glm\\zcode.cjs',
    '{ProgramFiles}\\ZCode\\resources\\glm\\zcode.cjs',
    '{ProgramFiles(x86)}\\ZCode\\resources\\glm\\zcode.cjs',
    '{LOCALAPPDATA}\\ZCode\\*\\resources\\glm\\zcode.cjs',
  ],
};

/** Reads `name` from env; on Windows names are case-insensitive. */
export function envValue(env: NodeJS.ProcessEnv, name: string, platform: DetectPlatform): string | undefined {
  const direct = env[name];
  if (direct !== undefined && direct !== '') return direct;
  if (platform !== 'win32') return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(env)) if (k.toLowerCase() === lower && v) return v;
  return undefined;
}

/** Newest-looking first: numeric-aware descending order. */
export function newestFirst(names: string[]): string[] {
  return [...names].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
}

/** Expands the table for `platform` into concrete paths (unset variables drop the candidate). */
export function zcodeCliCandidates(env: NodeJS.ProcessEnv, platform: DetectPlatform, probe: FsProbe): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const out: string[] = [];
  for (const template of ZCODE_INSTALL_LOCATIONS[platform]) {
    let missing = false;
    const filled = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = envValue(env, name, platform);
      if (v === undefined) missing = true;
      return v ?? '';
    });
    if (missing) continue;
    const normal = p.normalize(filled);
    const star = normal.split(p.sep).indexOf('*');
    if (star === -1) {
      out.push(normal);
      continue;
    }
    const parts = normal.split(p.sep);
    const parent = parts.slice(0, star).join(p.sep) || p.sep;
    const rest = parts.slice(star + 1);
    for (const entry of newestFirst(probe.listDir(parent))) out.push(p.join(parent, entry, ...rest));
  }
  return out;
}

/**
 * Finds the ZCode CLI entry (`zcode.cjs`) in the standard desktop install locations of
 * `platform`. Returns the first existing one, or undefined.
 */
export function detectZcodeCli(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, probe: FsProbe = realFsProbe): string | undefined {
  if (platform !== 'darwin' && platform !== 'linux' && platform !== 'win32') return undefined;
  return zcodeCliCandidates(env, platform, probe).find((file) => probe.isFile(file));
}

/**
 * The built-in provider file shipped with an install (APP-SERVER.md §9.1/§9.4): beside the
 * entry (`<dir>/provider/zcode-builtin.json`), then `config/provider/zcode-builtin.json` in up to
 * eight ancestors — the macOS bundle keeps it in `Contents/Resources/config/provider/`.
 */
export function findShippedBuiltinProviderFile(
  cliPath: string,
  platform: NodeJS.Platform,
  probe: FsProbe = realFsProbe,
): string | undefined {
  const p = platform === 'win32' ? path.win32 : path.posix;
  let dir = p.dirname(cliPath);
  const beside = p.join(dir, 'provider', 'zcode-builtin.json');
  if (probe.isFile(beside)) return beside;
  for (let i = 0; i <= 8; i++) {
    const candidate = p.join(dir, 'config', 'provider', 'zcode-builtin.json');
    if (probe.isFile(candidate)) return candidate;
    const up = p.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** The real filesystem. */
export const realFsProbe: Required<FsProbe> = {
  isFile(file) {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  },
  listDir(dir) {
    try {
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  },
  realpath(file) {
    try {
      return fs.realpathSync(file);
    } catch {
      return file;
    }
  },
  canRead(file) {
    try {
      fs.accessSync(file, fs.constants.R_OK);
      return true;
    } catch {
      return false;
    }
  },
  canExecute(file) {
    if (process.platform === 'win32') return realFsProbe.isFile(file);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  readHead(file, bytes) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(file, 'r');
      const buf = Buffer.alloc(bytes);
      const n = fs.readSync(fd, buf, 0, bytes, 0);
      return buf.subarray(0, n);
    } catch {
      return Buffer.alloc(0);
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  },
  readText(file) {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  },
};
