import diagnostics from 'node:diagnostics_channel';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { createAuthServices, type AuthServices } from '../../../src/auth/auth-services.js';
import { buildConfig } from '../../../src/config/load.js';
import type { ConfigInput } from '../../../src/config/schema.js';
import { startDaemon, type RunningDaemon } from '../../../src/daemon/daemon.js';
import { captureLogger, registerSecret } from './log-capture.js';
import { tempDir } from './temp-dir.js';

/** A route as fastify registered it: method(s), URL and route config (`public`, `scope`). */
export interface SeenRoute {
  methods: string[];
  url: string;
  config: { public?: boolean; scope?: string } | undefined;
  websocket: boolean;
}

export interface ProductionDaemon {
  daemon: RunningDaemon;
  auth: AuthServices;
  /** Every route of every fastify instance built during start-up, seen at `onRoute`. */
  routes: SeenRoute[];
  close(): Promise<void>;
}

/**
 * Starts the daemon through the production composition root (`startDaemon`), with the real
 * token service, and records every route through fastify's `fastify.initialization`
 * diagnostics channel (an `onRoute` hook added before any route exists), so a route added
 * anywhere in buildApp is enumerated without this helper knowing about it (SEC-04).
 */
export async function startProductionDaemon(input: Partial<ConfigInput> = {}): Promise<ProductionDaemon> {
  const tmp = tempDir();
  const config = buildConfig({
    stateDir: path.join(tmp.dir, 'state'),
    workspace: tmp.dir,
    providerFile: path.join(tmp.dir, 'provider.json'),
    backend: 'sim',
    port: 0,
    logLevel: 'debug',
    ...input,
  });
  const { logger } = captureLogger('production-daemon');
  const auth = createAuthServices({ stateDir: config.stateDir, limits: config.limits, logger });
  const { result: daemon, routes } = await captureRoutes(() => startDaemon(config, logger, { auth, authenticator: auth.tokens }));
  registerSecret(daemon.adminToken);
  return {
    daemon,
    auth,
    routes,
    close: async () => {
      await daemon.close();
      auth.close();
      tmp.cleanup();
    },
  };
}

/**
 * Runs `build` and records every route of every fastify instance created meanwhile, through
 * fastify's `fastify.initialization` diagnostics channel (an `onRoute` hook added before any
 * route exists).
 */
export async function captureRoutes<T>(build: () => Promise<T>): Promise<{ result: T; routes: SeenRoute[] }> {
  const routes: SeenRoute[] = [];
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route: RouteOptions & { websocket?: boolean }) => {
      routes.push({
        methods: [route.method].flat().map(String),
        url: route.url,
        config: route.config as SeenRoute['config'],
        websocket: route.websocket === true,
      });
    });
  };
  diagnostics.subscribe('fastify.initialization', onInit);
  try {
    return { result: await build(), routes };
  } finally {
    diagnostics.unsubscribe('fastify.initialization', onInit);
  }
}

/** A concrete path for a route pattern (`:id` and `*` filled in). */
export function concretePath(url: string): string {
  return url.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*/g, 'x');
}
