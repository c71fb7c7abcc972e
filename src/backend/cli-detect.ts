import fs from 'node:fs';
import path from 'node:path';

/** What detection may look at; injected so the three OS tables are unit-tested anywhere. */
export interface FsProbe {
  isFile(file: string): boolean;
  /** Entry names of a directory; [] when it does not exist. */
  listDir(dir: string): string[];
}

export type DetectPlatform = 'darwin' | 'linux' | 'win32';

/**
 * Where the ZCode desktop app installs its CLI entry (`resources/glm/zcode.cjs`, APP-SERVER.md
 * §1.1), per OS, most likely first. `{VAR}` is read from the environment (the candidate is skipped
 * when the variable is unset); a `*` segment matches directory entries, newest name first (for
 * versioned folders such as Squirrel's `app-1.2.3`). Linux paths follow electron-builder's
 * conventions (deb/rpm → `/opt/<Product>`, AUR → `/usr/lib/<name>`, AppImage extracted with
 * `--appimage-extract` → `squashfs-root/`, AppImageLauncher → `~/Applications`) — plausible, not
 * all verified against a ZCode release.
 */
export const ZCODE_INSTALL_LOCATIONS: Readonly<Record<DetectPlatform, readonly string[]>> = {
  darwin: ['/Applications/ZCode.app/Contents/Resources/glm/zcode.cjs', '{HOME}/Applications/ZCode.app/Contents/Resources/glm/zcode.cjs'],
  linux: [
    '{APPDIR}/resources/glm/zcode.cjs',
    '/opt/ZCode/resources/glm/zcode.cjs',
    '/opt/zcode/resources/glm/zcode.cjs',
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
function envValue(env: NodeJS.ProcessEnv, name: string, platform: DetectPlatform): string | undefined {
  const direct = env[name];
  if (direct !== undefined && direct !== '') return direct;
  if (platform !== 'win32') return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(env)) if (k.toLowerCase() === lower && v) return v;
  return undefined;
}

/** Newest-looking first: numeric-aware descending order. */
function newestFirst(names: string[]): string[] {
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
export const realFsProbe: FsProbe = {
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
};
