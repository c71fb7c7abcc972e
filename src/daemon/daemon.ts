import type { FastifyInstance } from 'fastify';
import type { HubConfig } from '../config/schema.js';
import type { Logger } from '../logger.js';
import { VERSION } from '../version.js';
import { createBackend } from '../backend/index.js';
import { Hub } from '../domain/hub.js';
import type { BackendPort } from '../domain/backend-port.js';
import type { Authenticator } from '../auth/identity.js';
import { buildApp } from '../http/app.js';
import { ensurePrivateDir } from './secure-file.js';
import { acquireInstanceLock } from './instance-lock.js';
import { ensureAdminToken, statePaths, writeHubFile } from './state-files.js';
import { adminTokenAuthenticator } from './admin-authenticator.js';
import fs from 'node:fs';

/** A running daemon: what tests and the CLI hold on to. */
export interface RunningDaemon {
  url: string;
  host: string;
  port: number;
  adminToken: string;
  app: FastifyInstance;
  backend: BackendPort;
  hub: Hub;
  /** Stops everything in order; memoised, so a second signal is harmless. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Overrides the authenticator (the security layer's token authenticator by default). */
  authenticator?: Authenticator;
}

function urlFor(host: string, port: number, tls: boolean): string {
  const h = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `${tls ? 'https' : 'http'}://${h}:${port}`;
}

/**
 * The composition root (STYLE.md habit 1): state dir, instance lock, admin token, backend,
 * domain, HTTP app; listens, writes hub.json, then starts the child. Nothing else wires parts.
 */
export async function startDaemon(config: HubConfig, logger: Logger, options: StartOptions = {}): Promise<RunningDaemon> {
  ensurePrivateDir(config.stateDir);
  const releaseLock = acquireInstanceLock(config.stateDir);
  const cleanups: Array<() => Promise<void> | void> = [releaseLock];
  try {
    const adminToken = ensureAdminToken(config.stateDir, config.adminTokenFile);
    const authenticator = options.authenticator ?? adminTokenAuthenticator(adminToken);
    const backend = createBackend(config, logger.child({ component: 'backend' }));
    const hub = new Hub({ backend, config, logger: logger.child({ component: 'hub' }) });
    cleanups.unshift(() => backend.close(), () => hub.close());
    const app = await buildApp({ config, logger, backend, authenticator, version: VERSION, hub });
    cleanups.unshift(() => app.close());
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = urlFor(config.host, port, Boolean(config.tlsCert && config.tlsKey));
    writeHubFile(config.stateDir, { pid: process.pid, host: config.host, port, url, version: VERSION, startedAt: Date.now() });
    cleanups.push(() => fs.rmSync(statePaths(config.stateDir).hubFile, { force: true }));
    hub.start();
    void backend.start().catch((err: unknown) => logger.error({ err }, 'backend failed to start'));
    logger.info({ url, backend: config.backend, stateDir: config.stateDir }, `zcode-hub ${VERSION} listening on ${url}`);

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        for (const step of cleanups) {
          try {
            await step();
          } catch (err) {
            logger.warn({ err }, 'error during shutdown');
          }
        }
      })();
      return closing;
    };
    return { url, host: config.host, port, adminToken, app, backend, hub, close };
  } catch (err) {
    for (const step of cleanups) {
      try {
        await step();
      } catch {
        // Best effort: the original error is the one to report.
      }
    }
    throw err;
  }
}
