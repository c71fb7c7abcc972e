/**
 * Which ZCode CLI the hub runs: an ordered list of candidates, each checked (exists, runnable:
 * cli-entry.ts), the first runnable one picked (docs/APP-SERVER.md §17):
 *
 * 1. explicit — `--zcode-cli`, `ZCODE_HUB_ZCODE_CLI` or the config file; when set it is the only
 *    candidate (a wrong path is an error, never a silent fallback);
 * 2. path — `zcode` on PATH (Windows: `zcode.exe`, `zcode.cmd`), in PATH order, absolute
 *    directories only;
 * 3. npm-global — a global npm install of `@zcode/cli` under the npm prefix;
 * 4. npx-cache — `@zcode/cli` in npm's npx cache, highest version first;
 * 5. desktop — the desktop app's bundled CLI, per platform (cli-detect.ts).
 *
 * A standalone CLI the user put on PATH or installed with npm is theirs on purpose, so it comes
 * before the copy inside the desktop app; a `zcode` on PATH that is the desktop app itself is
 * followed to that bundled copy.
 */
import path from 'node:path';
import { envValue, realFsProbe, zcodeCliCandidates, type DetectPlatform, type FsProbe } from './cli-detect.js';
import { inspectCliEntry, NPM_PACKAGE_ENTRY } from './cli-entry.js';
import type { CliCandidate, CliDetection, CliSource } from '../ports/backend-port.js';

export type { CliCandidate, CliDetection, CliSource };

/** The order, with the words doctor uses. */
export const CLI_SOURCES: readonly { source: CliSource; label: string }[] = [
  { source: 'explicit', label: '--zcode-cli / ZCODE_HUB_ZCODE_CLI / config file' },
  { source: 'path', label: 'zcode on PATH' },
  { source: 'npm-global', label: 'global npm install of @zcode/cli' },
  { source: 'npx-cache', label: '@zcode/cli in the npx cache' },
  { source: 'desktop', label: "the ZCode desktop app's bundled CLI" },
];

export function sourceLabel(source: CliSource): string {
  return CLI_SOURCES.find((s) => s.source === source)?.label ?? source;
}

export interface DetectOptions {
  /** `--zcode-cli` (or its variable / config key). */
  explicit?: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  probe?: FsProbe;
  /** The hub's own node; npm's default prefix is its install root. Default `process.execPath`. */
  execPath?: string;
  /** The directory a relative `--zcode-cli` is resolved against. Default `process.cwd()`. */
  cwd?: string;
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

function check(source: CliSource, file: string, platform: NodeJS.Platform, probe: FsProbe): CliCandidate {
  const r = inspectCliEntry(file, platform, probe);
  return r.ok
    ? { source, path: file, status: 'found', note: r.note, entry: r.entry, launch: r.launch }
    : { source, path: file, status: r.status, note: r.note };
}

/** `zcode` in every PATH directory; one `missing` row when there is none. */
function onPath(env: NodeJS.ProcessEnv, platform: DetectPlatform, probe: FsProbe): CliCandidate[] {
  const p = pathApi(platform);
  // Relative entries (`.`, an empty one) would make the current directory a source of programs: skipped.
  const dirs = (envValue(env, 'PATH', platform) ?? '').split(platform === 'win32' ? ';' : ':').filter((d) => p.isAbsolute(d));
  const names = platform === 'win32' ? ['zcode.exe', 'zcode.cmd'] : ['zcode'];
  const out: CliCandidate[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    for (const name of names) {
      const file = p.join(dir, name);
      if (seen.has(file) || !probe.isFile(file)) continue;
      seen.add(file);
      out.push(check('path', file, platform, probe));
    }
  }
  if (out.length === 0)
    out.push({
      source: 'path',
      path: names.join(', '),
      status: 'missing',
      note: `not on PATH (${dirs.length} ${dirs.length === 1 ? 'directory' : 'directories'} searched)`,
    });
  return out;
}

/** `prefix=` of an npmrc, when set. */
function npmrcPrefix(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*prefix\s*=\s*(.+?)\s*$/.exec(line);
    if (m?.[1]) return m[1].replace(/^["']|["']$/g, '');
  }
  return undefined;
}

/** npm's global prefixes (docs.npmjs.com "folders"): configured, else where the hub's node is installed. */
function npmPrefixes(env: NodeJS.ProcessEnv, platform: DetectPlatform, probe: FsProbe, execPath: string): string[] {
  const p = pathApi(platform);
  const home = envValue(env, platform === 'win32' ? 'USERPROFILE' : 'HOME', platform);
  const userrc = envValue(env, 'npm_config_userconfig', platform) ?? (home ? p.join(home, '.npmrc') : undefined);
  const configured = envValue(env, 'npm_config_prefix', platform) ?? envValue(env, 'NPM_CONFIG_PREFIX', platform);
  const fromRc = userrc ? npmrcPrefix(probe.readText?.(userrc)) : undefined;
  const appData = envValue(env, 'APPDATA', platform);
  const fallback = platform === 'win32' ? (appData ? p.join(appData, 'npm') : undefined) : p.dirname(p.dirname(execPath));
  const list = [configured, fromRc, fallback].filter((x): x is string => x !== undefined && x !== '');
  return [...new Set(list.map((x) => p.normalize(x)))];
}

function globalPackage(prefix: string, platform: DetectPlatform): string {
  const p = pathApi(platform);
  return platform === 'win32' ? p.join(prefix, ...NPM_PACKAGE_ENTRY) : p.join(prefix, 'lib', ...NPM_PACKAGE_ENTRY);
}

/** `_npx/<hash>/node_modules/@zcode/cli/dist/zcode.cjs` in npm's cache, highest version first. */
function npxCache(env: NodeJS.ProcessEnv, platform: DetectPlatform, probe: FsProbe): CliCandidate[] {
  const p = pathApi(platform);
  const home = envValue(env, 'HOME', platform);
  const local = envValue(env, 'LOCALAPPDATA', platform);
  const cache =
    envValue(env, 'npm_config_cache', platform) ??
    (platform === 'win32' ? (local ? p.join(local, 'npm-cache') : undefined) : home ? p.join(home, '.npm') : undefined);
  if (!cache) return [];
  const root = p.join(cache, '_npx');
  const entries = probe
    .listDir(root)
    .map((hash) => p.join(root, hash, ...NPM_PACKAGE_ENTRY))
    .filter((f) => probe.isFile(f))
    .map((f) => ({ f, version: packageVersion(p.dirname(p.dirname(f)), platform, probe) ?? '' }))
    .sort((a, b) => b.version.localeCompare(a.version, 'en', { numeric: true }) || a.f.localeCompare(b.f));
  if (entries.length === 0)
    return [{ source: 'npx-cache', path: p.join(root, '*', ...NPM_PACKAGE_ENTRY), status: 'missing', note: 'not found' }];
  return entries.map((e) => check('npx-cache', e.f, platform, probe));
}

function packageVersion(dir: string, platform: NodeJS.Platform, probe: FsProbe): string | undefined {
  const text = probe.readText?.(pathApi(platform).join(dir, 'package.json'));
  if (text === undefined) return undefined;
  try {
    const v = (JSON.parse(text) as { version?: unknown }).version;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Every candidate in order, each checked, and the first runnable one. */
export function detectCli(opts: DetectOptions): CliDetection {
  const probe = opts.probe ?? realFsProbe;
  const { env, platform } = opts;
  if (opts.explicit !== undefined) {
    const file = pathApi(platform).resolve(opts.cwd ?? process.cwd(), opts.explicit);
    const c = check('explicit', file, platform, probe);
    return {
      ...(c.status === 'found' ? { picked: c } : {}),
      reason:
        c.status === 'found' ? 'set explicitly; nothing else is looked at' : `set explicitly (${sourceLabel('explicit')}) but ${c.note}`,
      candidates: [c],
    };
  }
  if (platform !== 'darwin' && platform !== 'linux' && platform !== 'win32')
    return { reason: `no known install locations on ${platform}; pass --zcode-cli PATH`, candidates: [] };
  const candidates: CliCandidate[] = [
    ...onPath(env, platform, probe),
    ...npmPrefixes(env, platform, probe, opts.execPath ?? process.execPath).map((prefix) =>
      check('npm-global', globalPackage(prefix, platform), platform, probe),
    ),
    ...npxCache(env, platform, probe),
    ...zcodeCliCandidates(env, platform, probe).map((file) => check('desktop', file, platform, probe)),
  ];
  const picked = candidates.find((c) => c.status === 'found');
  if (!picked) return { reason: 'no candidate is a runnable ZCode CLI', candidates };
  const before = candidates.indexOf(picked);
  const skipped = candidates.slice(0, before).filter((c) => c.status === 'not-runnable').length;
  return {
    picked,
    reason: `the first runnable candidate in the order ${CLI_SOURCES.slice(1)
      .map((s) => s.source)
      .join(
        ' → ',
      )}${before > 0 ? ` (${before} looked at before it${skipped > 0 ? `, ${skipped} of them present but not runnable` : ''})` : ''}`,
    candidates,
  };
}
