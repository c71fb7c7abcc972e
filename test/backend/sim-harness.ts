import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildConfig } from '../../src/config/load.js';
import type { Limits } from '../../src/limits.js';
import type { BackendStatus } from '../../src/ports/backend-port.js';
import { createBackend } from '../../src/backend/index.js';
import type { BackendLink } from '../../src/backend/backend-link.js';
import type { SimulatorSpawnSpec } from '../../src/backend/spawn-plan.js';
import { osProcessInspector } from '../../src/backend/pidfile.js';
import { startSimulatorInProcess } from '../../src/simulator/index.js';
import { captureLogger } from './helpers.js';

export interface SimLinkOptions {
  simArgs?: string[];
  scenario?: string;
  limits?: Partial<Limits>;
  simulatorSpawnSpec?: SimulatorSpawnSpec;
  stateDir?: string;
  /** Run the simulator in this process (in-process-transport.ts) instead of as a child. */
  inProcess?: boolean;
}

export interface SimLink {
  link: BackendLink;
  stateDir: string;
  home: string;
  statuses: BackendStatus[];
  log: ReturnType<typeof captureLogger>;
  dispose: () => Promise<void>;
}

/** A backend link over the real simulator (a child, or in-process), in temp dirs, with HOME pointing at a temp dir. */
export function simLink(options: SimLinkOptions = {}): SimLink {
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'zch-state-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-home-'));
  const log = captureLogger('debug');
  const config = buildConfig({
    stateDir,
    backend: 'sim',
    scenario: options.scenario ?? 'default',
    simArgs: options.simArgs ?? [],
    providerFile: path.join(home, '.zcode', 'v2', 'provider_config.json'),
    workspace: home,
    limits: options.limits ?? {},
  });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const k of Object.keys(env)) if (k.startsWith('ZCODE_')) delete env[k];
  const link = createBackend(config, log.logger, {
    env,
    ...(options.simulatorSpawnSpec ? { simulatorSpawnSpec: options.simulatorSpawnSpec } : {}),
    ...(options.inProcess ? { inProcessServer: startSimulatorInProcess } : {}),
  }) as BackendLink;
  const statuses: BackendStatus[] = [];
  link.onStatus((s) => statuses.push(s));
  return {
    link,
    stateDir,
    home,
    statuses,
    log,
    dispose: async () => {
      await link.close();
      fs.rmSync(home, { recursive: true, force: true });
      if (!options.stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** True while a process with this pid exists (and is not a zombie). */
export function pidAlive(pid: number): boolean {
  return osProcessInspector().alive(pid);
}
