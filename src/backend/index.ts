/**
 * The backend link (ARCHITECTURE.md §3): spawn + supervise the app-server, ndjson link, JSON-RPC
 * client, reverse-request router. The composition root calls `createBackend`; the domain sees
 * only the BackendPort.
 */
import path from 'node:path';
import type { Logger } from '../logger.js';
import type { HubConfig } from '../config/schema.js';
import type { BackendPort, CliVersion } from '../ports/backend-port.js';
import { statePaths } from '../config/state-paths.js';
import { simulatorSpawnSpec } from '../simulator/launcher.js';
import { BackendLink, type BackendLinkOptions } from './backend-link.js';
import type { FsProbe } from './cli-detect.js';
import { realFsProbe } from './cli-detect.js';
import { chooseZcodeNode } from './node-runtime.js';
import { buildSpawnPlan, chooseBackend, type SimulatorSpawnSpec } from './spawn-plan.js';
import { WireRecorder } from './wire-recorder.js';
import type { InProcessServer } from './in-process-transport.js';
import { composeTaps, type TransportTap } from './transport-tap.js';
import { readCliVersion } from './cli-version.js';

export { BackendLink, PROBE_METHOD, type SpawnPlan } from './backend-link.js';
export { detectZcodeCli, ZCODE_INSTALL_LOCATIONS } from './cli-detect.js';
export { detectCli, sourceLabel, type CliCandidate, type CliDetection, type CliSource } from './cli-candidates.js';
export { BackendConfigError, chooseBackend } from './spawn-plan.js';
export { TappedTransport, type TransportTap } from './transport-tap.js';
export { InProcessTransport, type InProcessServer } from './in-process-transport.js';
export { REVERSE_METHODS } from './reverse-router.js';

export interface CreateBackendOptions {
  /** The environment the child's is filtered from (default `process.env`); tests set HOME here. */
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  probe?: FsProbe;
  simulatorSpawnSpec?: SimulatorSpawnSpec;
  processInspector?: BackendLinkOptions['processInspector'];
  random?: () => number;
  /** More transport taps (the doctor probe's reverse-request check), inside the wire recorder. */
  taps?: readonly TransportTap[];
  /** Reads the CLI's version (tests); default cli-version.ts. */
  readCliVersion?: (cli: string) => CliVersion;
  /** The hub's own node as node-runtime.ts sees it (default `process.execPath`); tests set an old one. */
  hubNode?: string;
  /** Runs the simulator inside this process instead of as a child (in-process-transport.ts); ignored for the real CLI. */
  inProcessServer?: InProcessServer;
}

/**
 * Builds the backend link from the frozen config. Throws BackendConfigError when the config names
 * no usable backend (`--backend zcode` without a CLI, a missing `--zcode-cli`, a missing or too
 * old `--zcode-node`). Spawns nothing but `node --version` until `start()`.
 */
export function createBackend(config: HubConfig, logger: Logger, options: CreateBackendOptions = {}): BackendPort {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const choice = chooseBackend(config, { env, platform, logger, ...(options.probe ? { probe: options.probe } : {}) });
  // The real CLI runs on its own Node, checked now so an old one is a start-up error (node-runtime.ts).
  const node =
    choice.kind === 'zcode' && choice.cli && choice.launch !== 'direct'
      ? chooseZcodeNode(config.zcodeNode, choice.cli, {
          platform,
          probe: options.probe ?? realFsProbe,
          ...(options.hubNode ? { hubNode: options.hubNode } : {}),
          timeoutMs: config.limits.nodeVersionCheckTimeoutMs,
        })
      : undefined;
  if (node)
    logger.info({ node: node.path, version: node.version, source: node.source }, `the ZCode CLI runs on this Node.js: ${node.reason}`);
  // Once per start: a CLI this hub was not verified against still runs, with one warning (§16).
  const cliVersion = choice.kind === 'zcode' && choice.cli ? (options.readCliVersion ?? readCliVersion)(choice.cli) : undefined;
  if (cliVersion?.warning) logger.warn({ cliVersion: cliVersion.version ?? null }, cliVersion.warning);
  else if (cliVersion) logger.info({ cliVersion: cliVersion.version }, 'the ZCode CLI is a version this hub was verified against');
  const recorder = config.recordWire
    ? new WireRecorder({
        file: path.resolve(config.recordWire),
        maxBytes: config.limits.wireRecordMaxBytes,
        providerFile: config.providerFile,
        logger,
      })
    : undefined;
  const tap = composeTaps([...(recorder ? [recorder] : []), ...(options.taps ?? [])]);
  return new BackendLink({
    kind: choice.kind,
    plan: () =>
      buildSpawnPlan(config, choice, {
        env,
        platform,
        simulatorSpawnSpec: options.simulatorSpawnSpec ?? simulatorSpawnSpec,
        ...(node ? { nodePath: node.path } : {}),
        ...(node?.env ? { nodeEnv: node.env } : {}),
        ...(options.probe ? { probe: options.probe } : {}),
      }),
    limits: config.limits,
    askUserQuestionAutoResolution: config.askUserQuestionAutoResolution,
    logger,
    pidfile: statePaths(config.stateDir).childPid,
    ...(options.processInspector ? { processInspector: options.processInspector } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(cliVersion ? { cliVersion } : {}),
    ...(choice.detection ? { cliDetection: choice.detection } : {}),
    ...(node ? { cliRuntime: { path: node.path, version: node.version, source: node.source, reason: node.reason } } : {}),
    ...(tap ? { wireRecorder: tap } : {}),
    ...(options.inProcessServer ? { inProcessServer: options.inProcessServer } : {}),
  });
}
