/**
 * The Node.js that runs the real ZCode CLI (`node <zcode.cjs> app-server`, APP-SERVER.md §1.1).
 * The CLI is built for a newer Node than the hub's own floor, so the child's runtime is chosen
 * apart from the hub's: `--zcode-node PATH`, else a node the desktop app ships beside its CLI,
 * else the hub's own `process.execPath` — and checked at start, so an old runtime is one clear
 * error instead of a child that crashes on its first line.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { FsProbe } from './cli-detect.js';
import { BackendConfigError } from './spawn-plan.js';

/**
 * Oldest Node the ZCode CLI is known to run on: its package.json pins `engines.node` to
 * 24.14.0 (apps/zcode-cli 0.16.9), i.e. it is built and tested on Node 24.
 */
export const ZCODE_CLI_MIN_NODE = '24.0.0';

/**
 * Where a desktop install may keep its own Node, relative to the directory of `zcode.cjs`
 * (`…/resources/glm/`), most specific first. Plausible layouts for a bundled runtime, not all
 * verified against a ZCode release; `--zcode-node` covers any other.
 */
export const SHIPPED_NODE_LOCATIONS: readonly string[] = [
  'node',
  'bin/node',
  'node/bin/node',
  '../node/bin/node',
  '../node/node',
  '../bin/node',
];

/**
 * The desktop app's own executable, relative to the directory of its `zcode.cjs`: Electron,
 * which runs as a plain Node with `ELECTRON_RUN_AS_NODE=1` (integrators run the bundled CLI that
 * way). Seen: the .deb's `/opt/ZCode/zcode`, an extracted AppImage's `squashfs-root/zcode`, the
 * macOS bundle's `Contents/MacOS/ZCode` (its `ZCode Helper` keeps the Dock quiet); the Windows
 * `ZCode.exe` beside `resources\` is a guess (docs/APP-SERVER.md §17.4).
 */
export const DESKTOP_EXECUTABLE_LOCATIONS: Readonly<Record<'darwin' | 'other' | 'win32', readonly string[]>> = {
  darwin: ['../../Frameworks/ZCode Helper.app/Contents/MacOS/ZCode Helper', '../../MacOS/ZCode'],
  other: ['../../zcode', '../../ZCode'],
  win32: ['..\\..\\ZCode.exe', '..\\..\\zcode.exe'],
};

/** The variable that makes an Electron executable run as Node. */
export const ELECTRON_AS_NODE_ENV = { ELECTRON_RUN_AS_NODE: '1' } as const;

/** Where the child's Node came from. */
export type NodeSource = 'flag' | 'shipped' | 'hub' | 'desktop-electron';

export interface ZcodeNode {
  path: string;
  version: string;
  source: NodeSource;
  /** One sentence: why this runtime (doctor and the start log show it). */
  reason: string;
  /** Variables the child needs for this runtime (`ELECTRON_RUN_AS_NODE` for the desktop's Electron). */
  env?: Record<string, string>;
}

export interface NodeDeps {
  platform: NodeJS.Platform;
  probe: FsProbe;
  /** The hub's own node (default `process.execPath`). */
  hubNode?: string;
  /** Longest a `node --version` may take (limits.nodeVersionCheckTimeoutMs). */
  timeoutMs: number;
}

/** The desktop executables that may run `cli` as Node, most specific first. */
export function desktopExecutableCandidates(cli: string, platform: NodeJS.Platform): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const key = platform === 'win32' ? 'win32' : platform === 'darwin' ? 'darwin' : 'other';
  return DESKTOP_EXECUTABLE_LOCATIONS[key].map((rel) => p.resolve(p.dirname(cli), rel));
}

/** Candidate shipped runtimes beside `cli` (Windows: `node.exe`). */
export function shippedNodeCandidates(cli: string, platform: NodeJS.Platform): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const dir = p.dirname(cli);
  return SHIPPED_NODE_LOCATIONS.map((rel) => p.resolve(dir, platform === 'win32' ? `${rel}.exe` : rel));
}

/** `[major, minor, patch]` of `v24.1.0` / `24.1.0`; undefined when it is no version. */
export function parseNodeVersion(text: string): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** True when `version` is at least `min` (both `x.y.z`, optional `v`). */
export function nodeAtLeast(version: string, min: string): boolean {
  const a = parseNodeVersion(version);
  const b = parseNodeVersion(min);
  if (!a || !b) return false;
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/**
 * Runs `<node> --version` (no shell, an environment of only `env`, bounded); throws
 * BackendConfigError.
 */
export function probeNodeVersion(node: string, timeoutMs: number, label: string, env: Record<string, string> = {}): string {
  let out: string;
  try {
    out = execFileSync(node, ['--version'], {
      encoding: 'utf8',
      timeout: timeoutMs,
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { signal?: string };
    const why =
      e.code === 'ETIMEDOUT' || e.signal === 'SIGTERM'
        ? `did not answer --version within ${timeoutMs} ms`
        : `could not be run (${e.code ?? e.message})`;
    throw new BackendConfigError(`${label} ${node} ${why}; pass --zcode-node PATH to a Node.js ${ZCODE_CLI_MIN_NODE} or newer`);
  }
  const version = out.trim().split('\n')[0] ?? '';
  if (!parseNodeVersion(version))
    throw new BackendConfigError(`${label} ${node} is not Node.js (--version printed ${JSON.stringify(version.slice(0, 80))})`);
  return version;
}

/** The first desktop executable beside `cli` that answers as a new enough Node, if any. */
function desktopElectron(cli: string, deps: NodeDeps, hub: string): ZcodeNode | undefined {
  for (const exe of desktopExecutableCandidates(cli, deps.platform)) {
    if (!deps.probe.isFile(exe)) continue;
    let version: string;
    try {
      version = probeNodeVersion(exe, deps.timeoutMs, 'the ZCode desktop executable', { ...ELECTRON_AS_NODE_ENV });
    } catch {
      continue;
    }
    if (nodeAtLeast(version, ZCODE_CLI_MIN_NODE))
      return {
        path: exe,
        version,
        source: 'desktop-electron',
        reason: `${hub}; the ZCode desktop app's own executable answers as Node.js ${version} with ELECTRON_RUN_AS_NODE=1, which the child alone is given`,
        env: { ...ELECTRON_AS_NODE_ENV },
      };
  }
  return undefined;
}

/**
 * Chooses and checks the child's Node: the flag (must exist), else the first shipped runtime
 * beside the CLI, else the hub's own node — and when the hub's is too old, the desktop app's
 * Electron executable run as Node (`ELECTRON_RUN_AS_NODE=1`) if it answers with a new enough
 * version. Throws BackendConfigError naming the version found and the one needed.
 */
export function chooseZcodeNode(flag: string | undefined, cli: string, deps: NodeDeps): ZcodeNode {
  let node: string;
  let source: NodeSource;
  if (flag !== undefined) {
    node = path.resolve(flag);
    source = 'flag';
    if (!deps.probe.isFile(node))
      throw new BackendConfigError(`--zcode-node ${node} does not exist (expected a Node.js ${ZCODE_CLI_MIN_NODE}+ executable)`);
  } else {
    const shipped = shippedNodeCandidates(cli, deps.platform).find((f) => deps.probe.isFile(f));
    node = shipped ?? deps.hubNode ?? process.execPath;
    source = shipped ? 'shipped' : 'hub';
  }
  const label = source === 'flag' ? '--zcode-node' : source === 'shipped' ? 'the Node.js shipped with ZCode at' : "the hub's own Node.js";
  const version = probeNodeVersion(node, deps.timeoutMs, label);
  if (!nodeAtLeast(version, ZCODE_CLI_MIN_NODE)) {
    const electron =
      source === 'hub'
        ? desktopElectron(
            cli,
            deps,
            `no --zcode-node, no Node.js shipped beside the CLI, and the hub's own ${node} is ${version}, older than ${ZCODE_CLI_MIN_NODE}`,
          )
        : undefined;
    if (electron) return electron;
    throw new BackendConfigError(
      `${label} ${node} is Node.js ${version}; the ZCode CLI needs ${ZCODE_CLI_MIN_NODE} or newer. Pass --zcode-node PATH to a newer node (or use --backend sim)`,
    );
  }
  const reason =
    source === 'flag'
      ? 'given by --zcode-node (or ZCODE_HUB_ZCODE_NODE)'
      : source === 'shipped'
        ? `no --zcode-node; a Node.js ${version} ships beside the CLI`
        : `no --zcode-node and no Node.js shipped beside the CLI; the hub's own is ${version}, at least ${ZCODE_CLI_MIN_NODE}`;
  return { path: node, version, source, reason };
}

/** How doctor names where the child's Node came from. */
export function nodeSourceLabel(source: NodeSource): string {
  return source === 'flag'
    ? '--zcode-node'
    : source === 'shipped'
      ? 'shipped with ZCode'
      : source === 'hub'
        ? "the hub's own Node.js"
        : "the ZCode desktop app's executable run as Node";
}
