import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { buildConfig } from '../../../src/config/load.js';
import type { ConfigInput, HubConfig } from '../../../src/config/schema.js';
import { createBackend } from '../../../src/backend/index.js';
import { createAuthServices, type AuthServices } from '../../../src/auth/auth-services.js';
import { buildApp } from '../../../src/http/app.js';
import { ensureHubId, hubName } from '../../../src/auth/hub-id.js';
import { buildHttpState, workspaceParts } from '../../../src/daemon/http-parts.js';
import { VERSION } from '../../../src/version.js';
import { captureLogger, registerSecret } from './log-capture.js';
import { tempDir } from './temp-dir.js';

/** Path of the WebSocket route the upgrade tests use when the app has no /acp yet. */
export const PROBE_WS = '/__probe_ws';

export interface SecuredHub {
  app: FastifyInstance;
  config: HubConfig;
  auth: AuthServices;
  adminToken: string;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The upgrade path under test: the gateway's /acp when mounted, else the probe route. */
  wsPath: string;
  logFile: string;
  stateDir: string;
  close(): Promise<void>;
}

/**
 * Builds the app as the composition root does (buildApp + the real auth services + the real
 * backend link, not started) in a temp state dir, logs to a captured file, listens on
 * 127.0.0.1:0. Every secret it creates is registered for the SEC-05 log check.
 */
export async function startSecuredHub(input: Partial<ConfigInput> = {}, opts: { listen?: boolean } = {}): Promise<SecuredHub> {
  const tmp = tempDir();
  const config = buildConfig({
    stateDir: tmp.dir,
    workspace: tmp.dir,
    providerFile: `${tmp.dir}/provider.json`,
    backend: 'sim',
    port: 0,
    logLevel: 'debug',
    ...input,
  });
  const { logger, file } = captureLogger('secured-hub');
  const auth = createAuthServices({ stateDir: config.stateDir, adminTokenFile: config.adminTokenFile, limits: config.limits, logger });
  const adminToken = (await import('../../../src/auth/admin-token.js')).readAdminToken(config.stateDir) ?? '';
  registerSecret(adminToken);
  const backend = createBackend(config, logger.child({ component: 'backend' }));
  const identity = { hubId: ensureHubId(config.stateDir), name: hubName(config.name), version: VERSION };
  const state = buildHttpState({ config, logger, identity, authenticator: auth.tokens, workspace: workspaceParts(config) });
  const app = await buildApp({ config, logger, backend, authenticator: auth.tokens, version: VERSION, auth, state });
  let wsPath = '/acp';
  if (!app.hasRoute({ method: 'GET', url: '/acp' })) {
    wsPath = PROBE_WS;
    if (!app.hasPlugin('@fastify/websocket')) await app.register(fastifyWebsocket);
    app.get(PROBE_WS, { websocket: true, config: { scope: 'view' } }, (socket) => {
      socket.send('hello');
    });
  }
  let port = 0;
  if (opts.listen !== false) {
    await app.listen({ host: config.host, port: 0 });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  } else {
    await app.ready();
  }
  return {
    app,
    config,
    auth,
    adminToken,
    port,
    url: `http://127.0.0.1:${port}`,
    wsPath,
    logFile: file,
    stateDir: config.stateDir,
    close: async () => {
      await app.close();
      state.close();
      await backend.close();
      auth.close();
      tmp.cleanup();
    },
  };
}

/** Creates a device token through the real REST route and registers it as a secret. */
export async function createToken(
  hub: SecuredHub,
  scope: 'view' | 'operate' | 'admin',
  name = `${scope}-device`,
  ttl?: string,
): Promise<{ token: string; id: string }> {
  const res = await hub.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: { authorization: `Bearer ${hub.adminToken}`, host: `127.0.0.1:${hub.port}` },
    payload: { name, scope, ...(ttl ? { ttl } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(`token create failed: ${res.statusCode} ${res.body}`);
  const body = res.json<{ token: string; info: { id: string } }>();
  registerSecret(body.token);
  return { token: body.token, id: body.info.id };
}
