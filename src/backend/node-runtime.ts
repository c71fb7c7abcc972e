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

/** Where the child's Node came from. */
export type NodeSource = 'flag' | 'shipped' | 'hub';

export interface ZcodeNode {
  path: string;
  version: string;
  source: NodeSource;
}

export interface NodeDeps {
  platform: NodeJS.Platform;
  probe: FsProbe;
  /** The hub's own node (default `process.execPath`). */
  hubNode?: string;
  /** Longest a `node --version` may take (limits.nodeVersionCheckTimeoutMs). */
  timeoutMs: number;
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

/** Runs `<node> --version` (no shell, empty environment, bounded); throws BackendConfigError. */
export function probeNodeVersion(node: string, timeoutMs: number, label: string): string {
  let out: string;
  try {
    out = execFileSync(node, ['--version'], {
      encoding: 'utf8',
      timeout: timeoutMs,
      env: {},
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

/**
 * Chooses and checks the child's Node: the flag (must exist), else the first shipped runtime
 * beside the CLI, else the hub's own node. Throws BackendConfigError naming the version found
 * and the one needed when it is too old.
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
    throw new BackendConfigError(
      `${label} ${node} is Node.js ${version}; the ZCode CLI needs ${ZCODE_CLI_MIN_NODE} or newer. Pass --zcode-node PATH to a newer node (or use --backend sim)`,
    );
  }
  return { path: node, version, source };
}
