/**
 * The lead's real `buildApp` with the settings plugins registered on top, a token-per-scope
 * authenticator and a logger whose every line is kept (to prove no key is ever logged).
 */
import { AppServerClient } from '../../src/app-server/client.js';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildConfig } from '../../src/config/load.js';
import type { Limits } from '../../src/limits.js';
import { join } from 'node:path';
import { createBackend } from '../../src/backend/index.js';
import type { BackendPort } from '../../src/ports/backend-port.js';
import { startSimulatorInProcess } from '../../src/simulator/in-process.js';
import { recordingBackend } from '../helpers/recording-backend.js';
import { until } from '../helpers/until.js';
import type { Authenticator, Identity } from '../../src/auth/identity.js';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/logger.js';
import { settingsProviderRoutes } from '../../src/http/routes/settings-providers.js';
import { settingsWorkflowRoutes } from '../../src/http/routes/settings-workflows.js';
import { ProviderStore } from '../../src/settings/provider-store.js';
import { ModelCatalog } from '../../src/settings/model-catalog.js';
import { WorkflowService } from '../../src/settings/workflow-service.js';
import { buildHttpState, workspaceParts } from '../../src/daemon/http-parts.js';

export const TOKENS = { admin: 'tok-admin', operate: 'tok-operate', view: 'tok-view' } as const;
export const auth = (scope: keyof typeof TOKENS) => ({ authorization: `Bearer ${TOKENS[scope]}` });

export const tokenAuthenticator: Authenticator = {
  async authenticate(credential: string): Promise<Identity | null> {
    const scope = (Object.keys(TOKENS) as (keyof typeof TOKENS)[]).find((s) => TOKENS[s] === credential);
    return scope ? { tokenId: scope, name: `${scope}-device`, person: `${scope}-person`, scope } : null;
  },
};

/** The real backend link over the real simulator in this process, with every request it was asked for recorded. */
export interface SimBackend extends BackendPort {
  /** Each request as the routes made it (a wrapper that records, not a fake: every call goes through). */
  calls: { method: string; params: unknown }[];
}

/**
 * Starts the link to the simulator in-process (src/backend/in-process-transport.ts) for a hub
 * whose provider file is `filePath`, so the simulator reads the providers the routes write.
 * `simArgs` are simulator flags (faults such as `--fail-method`).
 */
export async function startSimBackend(options: {
  dir: string;
  filePath: string;
  simArgs?: string[];
  /** Limits of the link (a short `forwardRequestTimeoutMs` to cross it). */
  limits?: Partial<Limits>;
}): Promise<SimBackend> {
  const config = buildConfig({
    stateDir: join(options.dir, 'state'),
    backend: 'sim',
    workspace: options.dir,
    providerFile: options.filePath,
    simArgs: ['--data-dir', join(options.dir, 'sim-data'), ...(options.simArgs ?? [])],
    logLevel: 'silent',
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const link = createBackend(config, createLogger({ level: 'silent' }), {
    env: { ...process.env, HOME: options.dir },
    inProcessServer: startSimulatorInProcess,
  });
  const calls: SimBackend['calls'] = [];
  const backend: SimBackend = Object.assign(
    recordingBackend(link, (method, params) => calls.push({ method, params })),
    { calls },
  );
  await link.start();
  await until(() => (link.status().state === 'ready' ? true : undefined), 'simulator ready');
  calls.length = 0;
  return backend;
}

export interface SettingsApp {
  app: FastifyInstance;
  store: ProviderStore;
  logLines: string[];
}

/** buildApp + the settings plugins, on a real provider file at `filePath`. */
export async function buildSettingsApp(options: {
  filePath: string;
  workspace: string;
  backend: BackendPort;
  bodyLimit?: number;
}): Promise<SettingsApp> {
  const logLines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger({ level: 'debug', destination });
  const config = buildConfig({
    providerFile: options.filePath,
    workspace: options.workspace,
    stateDir: options.workspace,
    ...(options.bodyLimit ? { limits: { httpBodyLimitBytes: options.bodyLimit } } : {}),
  });
  const store = new ProviderStore({ filePath: options.filePath, logger });
  await store.start();
  const identity = { hubId: 'settings-test', name: 'settings-test', version: 'test' };
  const state = buildHttpState({ config, logger, identity, authenticator: tokenAuthenticator, workspace: workspaceParts(config) });
  const app = await buildApp({ config, logger, backend: options.backend, authenticator: tokenAuthenticator, version: 'test', state });
  const appServer = new AppServerClient(options.backend);
  const catalog = new ModelCatalog({ appServer, backend: options.backend, defaultWorkspace: options.workspace });
  await app.register(settingsProviderRoutes, { store, appServer, catalog, workspace: options.workspace });
  const service = new WorkflowService({ appServer, defaultWorkspace: options.workspace });
  await app.register(settingsWorkflowRoutes, { service });
  await app.ready();
  return { app, store, logLines };
}
