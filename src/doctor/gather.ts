import { jsonSyntaxProblem } from '../settings/json-error.js';
import fs from 'node:fs';
import type { HubConfig } from '../config/schema.js';
import { detectCli } from '../backend/cli-candidates.js';
import { validateProviderDocument } from '../settings/provider-schema.js';
import { fileMode, readFileIfExists } from '../fs/secure-file.js';
import { statePaths } from '../config/state-paths.js';
import type { DoctorFacts } from './checks.js';
import { readCliVersion } from '../backend/cli-version.js';
import type { CliDetection, CliRuntime, CliVersion } from '../ports/backend-port.js';
import { chooseZcodeNode } from '../backend/node-runtime.js';
import { realFsProbe } from '../backend/cli-detect.js';
import { BackendConfigError } from '../backend/spawn-plan.js';

/** What a running daemon adds to the facts (backend state, clients, pending interactions). */
export interface LiveFacts {
  backendState: string;
  backendKind: 'zcode' | 'sim';
  backendRestarts: number;
  stderrTail: string[];
  pendingInteractions: number;
  oldestPendingAgeMs?: number;
  clients: number;
  /** The version the running backend read at start. */
  cliVersion?: CliVersion;
  /** How the running backend chose its CLI at start. */
  cliDetection?: CliDetection;
  /** The Node.js the running backend chose for the CLI at start. */
  cliRuntime?: CliRuntime;
}

/**
 * The child's Node as `start` would choose it (node-runtime.ts), or the reason none fits; only
 * for a CLI run with Node (not a single executable). Runs `<node> --version`, nothing else.
 */
export function offlineRuntime(config: HubConfig, cli: CliDetection['picked']): DoctorFacts['cliRuntime'] {
  if (!cli?.entry || cli.launch === 'direct') return undefined;
  try {
    const n = chooseZcodeNode(config.zcodeNode, cli.entry, {
      platform: process.platform,
      probe: realFsProbe,
      timeoutMs: config.limits.nodeVersionCheckTimeoutMs,
    });
    return { path: n.path, version: n.version, source: n.source, reason: n.reason };
  } catch (err) {
    if (err instanceof BackendConfigError) return { error: err.message };
    throw err;
  }
}

/** Validity of the personal provider file, with the exact issues when it is invalid. */
export function providerFileHealth(file: string): DoctorFacts['providerFile'] {
  // The user's own file, often a link into a dotfiles checkout: followed, but never a FIFO or a directory.
  const text = readFileIfExists(file, { followLink: true });
  if (text === undefined) return { path: file, exists: false, valid: true, issues: [] };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { path: file, exists: true, valid: false, issues: [jsonSyntaxProblem(err, text)] };
  }
  const result = validateProviderDocument(doc);
  return result.ok
    ? { path: file, exists: true, valid: true, issues: [] }
    : { path: file, exists: true, valid: false, issues: result.issues.map((i) => `${i.path || '(root)'}: ${i.message}`) };
}

/** Files in the state dir that hold secrets (whatever exists of them). */
function secretFiles(stateDir: string): string[] {
  const p = statePaths(stateDir);
  const names = fs.existsSync(stateDir) ? fs.readdirSync(stateDir) : [];
  const extra = names.filter((n) => /(token|secret|key|vapid|tokens\.json|audit\.jsonl)/i.test(n)).map((n) => `${stateDir}/${n}`);
  return [...new Set([p.adminToken, p.hubFile, ...extra])];
}

/**
 * Gathers the facts doctor checks, from config, the file system and (optionally) a live daemon.
 * `addedPeers`: app origins added at run time (peers.json), checked like `--peer` ones.
 */
export function gatherFacts(
  config: HubConfig,
  daemonRunning: boolean,
  live?: LiveFacts,
  port = config.port,
  addedPeers: readonly string[] = [],
): DoctorFacts {
  // Live: what the daemon chose at start. Offline: the same ordered detection `start` runs
  // (cli-candidates.ts), so doctor names the pick a start would make.
  const cliDetection = live
    ? live.cliDetection
    : config.backend === 'sim'
      ? undefined
      : detectCli({
          ...(config.zcodeCli !== undefined ? { explicit: config.zcodeCli } : {}),
          env: process.env,
          platform: process.platform,
        });
  const zcodeCli = cliDetection?.picked?.entry;
  return {
    host: config.host,
    port,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    tls: Boolean(config.tlsCert && config.tlsKey),
    allowOrigins: [...new Set([...config.peers, ...config.allowOrigins, ...addedPeers])],
    backendChoice: config.backend,
    ...(zcodeCli ? { zcodeCli } : {}),
    ...(cliDetection ? { cliDetection } : {}),
    // The live daemon's reading wins; offline, the CLI the config would run is read now.
    ...(live?.cliVersion ? { cliVersion: live.cliVersion } : zcodeCli && !live ? { cliVersion: readCliVersion(zcodeCli) } : {}),
    ...((): { cliRuntime?: DoctorFacts['cliRuntime'] } => {
      const runtime = live ? live.cliRuntime : offlineRuntime(config, cliDetection?.picked);
      return runtime ? { cliRuntime: runtime } : {};
    })(),
    ...(live
      ? {
          backendState: live.backendState,
          backendKind: live.backendKind,
          backendRestarts: live.backendRestarts,
          stderrTail: live.stderrTail,
          pendingInteractions: live.pendingInteractions,
          clients: live.clients,
          ...(live.oldestPendingAgeMs !== undefined ? { oldestPendingAgeMs: live.oldestPendingAgeMs } : {}),
        }
      : {}),
    stateDir: { path: config.stateDir, ...(fileMode(config.stateDir) !== undefined ? { mode: fileMode(config.stateDir)! } : {}) },
    secrets: secretFiles(config.stateDir).map((f) => ({ path: f, ...(fileMode(f) !== undefined ? { mode: fileMode(f)! } : {}) })),
    providerFile: providerFileHealth(config.providerFile),
    daemonRunning,
  };
}
