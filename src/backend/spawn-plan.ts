import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';
import type { HubConfig } from '../config/schema.js';
import { ensurePrivateDir, writeFileAtomic } from '../fs/secure-file.js';
import { statePaths } from '../config/state-paths.js';
import type { SpawnPlan } from './backend-link.js';
import { findShippedBuiltinProviderFile, realFsProbe, type FsProbe } from './cli-detect.js';
import { detectCli, sourceLabel, type CliDetection } from './cli-candidates.js';
import type { CliLaunch } from './cli-entry.js';
import { buildChildEnv, SIM_ENV_PREFIXES } from './spawn-env.js';

/** The launcher of the bundled simulator (src/simulator/launcher.ts). */
export type SimulatorSpawnSpec = (extraArgs: string[]) => { command: string; args: string[] };

/**
 * A minimal valid built-in provider file: no templates, no built-in providers, no model rules
 * (APP-SERVER.md §9.1; envelope `schemaVersion` + `revision` + the rule groups, as the CLI's
 * release validator checks them). Only personal providers are then usable, which is what the hub
 * configures. Written only when the CLI's own file cannot be found.
 */
export const MINIMAL_BUILTIN_PROVIDER_FILE = {
  schemaVersion: 1,
  revision: 0,
  config: {
    providerConfigRules: { providerRules: [], templateRules: [] },
    modelConfigRules: { modelRules: [], modelApiRules: [], providerSiteRules: [], templateModelRules: [], builtinProviderModelRules: [] },
  },
} as const;

/** Thrown when the configuration names no usable backend (e.g. `--backend zcode` without a CLI). */
export class BackendConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendConfigError';
  }
}

export interface BackendChoice {
  kind: 'zcode' | 'sim';
  /** The real CLI's entry: zcode.cjs (`launch: 'node'`) or a single executable (`'direct'`). */
  cli?: string;
  launch?: CliLaunch;
  /** Every candidate looked at and why this one (absent with `--backend sim`). */
  detection?: CliDetection;
}

export interface ChoiceDeps {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  probe?: FsProbe;
  logger: Logger;
  /** The hub's own node (npm's default prefix); default `process.execPath`. */
  execPath?: string;
}

/**
 * `--backend auto|zcode|sim` and `--zcode-cli` (ARCHITECTURE.md §1), over the ordered candidates
 * of cli-candidates.ts: an explicit CLI path must exist and be runnable; `zcode` without a CLI is
 * an error; `auto` without one falls back to the simulator with one log line naming where it
 * looked. The pick is logged with its reason.
 */
export function chooseBackend(config: Pick<HubConfig, 'backend' | 'zcodeCli'>, deps: ChoiceDeps): BackendChoice {
  if (config.backend === 'sim') return { kind: 'sim' };
  const found: CliDetection = detectCli({
    ...(config.zcodeCli !== undefined ? { explicit: config.zcodeCli } : {}),
    env: deps.env,
    platform: deps.platform,
    probe: deps.probe ?? realFsProbe,
    ...(deps.execPath ? { execPath: deps.execPath } : {}),
  });
  const picked = found.picked;
  if (picked?.entry) {
    deps.logger.info(
      { cli: picked.entry, source: picked.source, launch: picked.launch, looked: found.candidates.length },
      `using the ZCode CLI from ${sourceLabel(picked.source)}: ${found.reason}`,
    );
    return { kind: 'zcode', cli: picked.entry, launch: picked.launch ?? 'node', detection: found };
  }
  if (config.zcodeCli !== undefined) {
    const c = found.candidates[0];
    const file = c?.path ?? path.resolve(config.zcodeCli);
    throw new BackendConfigError(
      c?.status === 'not-runnable'
        ? `--zcode-cli ${file} cannot be run: ${c.note}`
        : `--zcode-cli ${file} does not exist (expected the ZCode CLI entry, …/resources/glm/zcode.cjs)`,
    );
  }
  const looked = found.candidates.map((c) => c.path);
  if (config.backend === 'zcode') {
    throw new BackendConfigError(
      `no ZCode CLI found (looked in: ${looked.join(', ') || 'nowhere on this platform'}); pass --zcode-cli PATH or use --backend sim`,
    );
  }
  deps.logger.info({ looked }, 'no ZCode CLI found; using the bundled simulator (--backend auto). Pass --zcode-cli PATH to use a real CLI');
  return { kind: 'sim', detection: found };
}

export interface PlanDeps {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  probe?: FsProbe;
  simulatorSpawnSpec: SimulatorSpawnSpec;
  /** The node binary that runs zcode.cjs. */
  nodePath?: string;
  /** Variables that runtime needs (`ELECTRON_RUN_AS_NODE=1` for the desktop's Electron, node-runtime.ts). */
  nodeEnv?: Record<string, string>;
}

/** The built-in provider file to pass (§9.4): configured, else shipped beside the CLI, else the hub's minimal one. */
export function builtinProviderFile(
  config: Pick<HubConfig, 'builtinProviderFile' | 'stateDir'>,
  choice: BackendChoice,
  deps: Pick<PlanDeps, 'platform' | 'probe'>,
): { file: string; mustWrite: boolean } {
  if (config.builtinProviderFile !== undefined) return { file: path.resolve(config.builtinProviderFile), mustWrite: false };
  if (choice.cli) {
    const shipped = findShippedBuiltinProviderFile(choice.cli, deps.platform, deps.probe ?? realFsProbe);
    if (shipped) return { file: shipped, mustWrite: false };
  }
  return { file: statePaths(config.stateDir).builtinProviders, mustWrite: true };
}

/**
 * Everything the spawn needs: command and args (never a shell), the allow-listed environment with
 * both provider variables set (APP-SERVER.md §9.4, §11.19), the state dir as cwd. Writes the
 * minimal built-in provider file when it is the one used and does not exist yet.
 */
export function buildSpawnPlan(config: HubConfig, choice: BackendChoice, deps: PlanDeps): SpawnPlan {
  const paths = statePaths(config.stateDir);
  ensurePrivateDir(config.stateDir);
  const builtin = builtinProviderFile(config, choice, deps);
  if (builtin.mustWrite && !fs.existsSync(builtin.file)) {
    writeFileAtomic(builtin.file, `${JSON.stringify(MINIMAL_BUILTIN_PROVIDER_FILE, null, 2)}\n`);
  }
  const set = {
    ZCODE_BUILTIN_PROVIDER_CONFIG_FILE: builtin.file,
    ZCODE_PERSONAL_PROVIDER_CONFIG_FILE: config.providerFile,
  };
  if (choice.kind === 'zcode' && choice.cli && choice.launch === 'direct') {
    // A single executable of the CLI carries its own runtime: no node, no entry argument.
    return {
      kind: 'zcode',
      command: choice.cli,
      args: ['app-server'],
      env: buildChildEnv(deps.env, { platform: deps.platform, set }),
      cwd: config.stateDir,
      entry: choice.cli,
    };
  }
  if (choice.kind === 'zcode' && choice.cli) {
    return {
      kind: 'zcode',
      command: deps.nodePath ?? process.execPath,
      args: [choice.cli, 'app-server'],
      env: buildChildEnv(deps.env, { platform: deps.platform, set: { ...set, ...deps.nodeEnv } }),
      cwd: config.stateDir,
      entry: choice.cli,
    };
  }
  ensurePrivateDir(paths.simData);
  const extra = ['--scenario', config.scenario, '--data-dir', paths.simData, ...config.simArgs];
  const spec = deps.simulatorSpawnSpec(extra);
  return {
    kind: 'sim',
    command: spec.command,
    args: spec.args,
    env: buildChildEnv(deps.env, { platform: deps.platform, extraPrefixes: SIM_ENV_PREFIXES, set }),
    cwd: config.stateDir,
    // The launcher appends our flags after its own (`[--import loader] main.ts …`): the entry is just before them.
    entry: spec.args[spec.args.length - extra.length - 1] ?? spec.command,
    simArgs: extra,
  };
}
