import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { HubConfig } from '../config/schema.js';
import type { Logger } from '../logger.js';
import type { BackendLifecycle } from '../ports/backend-port.js';
import type { AppServer } from '../app-server/client.js';
import type { Authenticator } from '../auth/identity.js';
import { authHook, type RequestAuthExtras } from './auth-hook.js';
import { wsTicketRoutes } from './routes/ws-ticket.js';
import { authCookieName } from './credentials.js';
import { DOCS_THEME } from './docs-theme.js';
import { createFastify } from './fastify-server.js';
import { healthRoutes } from './routes/health.js';
import { webApp } from './web.js';
import { pushRoutes } from './routes/push.js';
import type { PushNotifier } from '../push/push-notifier.js';
import fastifyWebsocket from '@fastify/websocket';
import type { RestHub } from './hub-api.js';
import { sessionRoutes } from './routes/sessions.js';
import { interactionRoutes } from './routes/interactions.js';
import { gitRoutes } from './routes/git.js';
import { instanceRoutes } from './routes/instances.js';
import { statusRoutes } from './routes/status.js';
import type { AuthServices } from '../auth/auth-services.js';
import { securityPlugin } from './security/index.js';
import { tokenRoutes } from './routes/tokens.js';
import { peopleRoutes } from './routes/people.js';
import { pairRoutes } from './routes/pair.js';
import { publicUrlRoutes } from './routes/settings-public-urls.js';
import { auditRoutes } from './routes/audit.js';
import { quotaRoutes } from './routes/quota.js';
import { settingsProviderRoutes } from './routes/settings-providers.js';
import { settingsWorkflowRoutes } from './routes/settings-workflows.js';
import type { QuotaService } from '../settings/provider-quota.js';
import { workspaceRoutes } from './routes/workspaces.js';
import type { ProviderStore } from '../settings/provider-store.js';
import type { ModelCatalog } from '../settings/model-catalog.js';
import type { WorkflowService } from '../settings/workflow-service.js';
import type { HubMetrics } from '../metrics/hub-metrics.js';
import { metricsRoutes } from './routes/metrics.js';
import { doctorRoutes } from './routes/doctor.js';
import { backendRoutes } from './routes/backend.js';
import { meRoutes } from './routes/me.js';
import { peerRoutes } from './routes/peers.js';
import { policyRoutes } from './routes/policy.js';
import type { PolicyStore } from '../policy/policy-store.js';
import type { HttpState } from './http-state.js';
import type { GrantStore } from '../policy/grant-store.js';

/**
 * Everything the HTTP app uses, built by the composition root (daemon/daemon.ts, with
 * daemon/http-parts.ts) or by a test the same way. buildApp builds no stateful part itself; a
 * feature whose part is not given is not mounted (a test of the security hooks needs no hub).
 */
export interface AppDeps {
  config: HubConfig;
  logger: Logger;
  /** The child's status, restart and stderr (health, doctor, backend routes). */
  backend: BackendLifecycle;
  authenticator: Authenticator;
  version: string;
  /** Web Push sender (src/push); its routes are mounted when given. */
  push?: PushNotifier;
  /** The domain hub (src/domain/hub.ts); the session, interaction and compat routes are mounted when given. */
  hub?: RestHub;
  /**
   * A WebSocket endpoint to mount at `/acp` (src/gateway's, built by the composition root), behind
   * the same security and auth hooks as every route. http never imports the gateway.
   */
  acp?: { mount(app: FastifyInstance): Promise<void>; connectionCount(): number; closeOrigin?(origin: string): number };
  /** Tokens, pairing and audit (src/auth/auth-services.ts); their routes are mounted when given. */
  auth?: AuthServices;
  /** The HTTP side's state: public URLs, peers, machines, DPoP, tickets, workspace roots, this hub's identity. */
  state: HttpState;
  /** The provider file store, the model catalog, the quota and workflow services (src/settings); their routes are mounted when given. */
  settings?: { store: ProviderStore; appServer: AppServer; catalog: ModelCatalog; quota: QuotaService; workflows: WorkflowService };
  /** Prometheus metrics; `/metrics` is mounted when given. */
  metrics?: HubMetrics;
  /** The approval rules (src/policy); `/api/policy` is mounted when given. */
  policy?: PolicyStore;
  /** The "always allow" grants (src/policy/grant-store.ts); `/api/policy/grants` is mounted with `/api/policy`. */
  grants?: GrantStore;
}

/**
 * Builds the fastify app: every plugin registered here, nothing listens (STYLE.md habit 1).
 * Tests call it with their own dependencies and use `app.inject()` or `listen({port: 0})`.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { state } = deps;
  const app = createFastify(deps.config, deps.logger);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'zcode-hub', description: 'REST API of the zcode-hub daemon', version: deps.version } },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' }, theme: DOCS_THEME });
  // Before every other hook: its onRequest marks upgrade requests so a refused upgrade's socket is
  // destroyed after the HTTP error answer. ws closes a message over maxPayload with 1009 (WS-01).
  if (deps.acp)
    await app.register(fastifyWebsocket, {
      options: { maxPayload: deps.config.limits.wsMaxMessageBytes },
      // The plugin's own close of its sockets runs before the gateway's and has no code (1005):
      // the gateway closes each of its connections itself with 1001 "hub shutting down", so a
      // client can tell a stop from a dropped link; the only other sockets are already closing.
      preClose(done) {
        this.websocketServer.close();
        done();
      },
    });
  const edge = await registerEdge(app, deps);

  await app.register(healthRoutes, { backend: deps.backend, version: deps.version, hub: state.identity });
  if (deps.acp) await deps.acp.mount(app);
  const connections = (): number => deps.acp?.connectionCount() ?? 0;
  if (deps.hub) await registerSessionApi(app, deps, deps.hub, connections);
  if (deps.auth) await registerDeviceApi(app, deps, deps.auth, edge);
  if (deps.policy) {
    const hub = deps.hub;
    await app.register(policyRoutes, {
      store: deps.policy,
      grants: deps.grants,
      limits: deps.config.limits,
      audit: deps.auth?.audit,
      workspaceOf: (sessionId) => (sessionId === undefined ? undefined : hub?.getSession(sessionId)?.cwd) ?? deps.config.workspace,
    });
  }
  const { peers, machines } = state;
  await app.register(peerRoutes, { peers, machines, audit: deps.auth?.audit, onPeerRemoved: (origin) => deps.acp?.closeOrigin?.(origin) });
  if (deps.metrics) await app.register(metricsRoutes, { metrics: deps.metrics });
  await app.register(backendRoutes, { backend: deps.backend, ...(deps.auth ? { audit: deps.auth.audit.sink } : {}) });
  if (deps.settings) await registerSettingsApi(app, deps, deps.settings);

  await app.register(workspaceRoutes, {
    defaultWorkspace: deps.config.workspace,
    workspaces: deps.config.workspaces,
    roots: state.roots,
    dirsMax: deps.config.limits.workspaceDirsMax,
    ...(deps.auth ? { audit: deps.auth.audit.sink } : {}),
  });
  if (deps.push) await app.register(pushRoutes, { notifier: deps.push, ...(deps.auth ? { audit: deps.auth.audit.sink } : {}) });
  // Last: the web app's SPA fallback (`GET /*`) must not shadow any API route.
  await app.register(webApp, { authenticator: deps.authenticator, extras: edge.authExtras, connectOrigins: edge.connectOrigins });

  return app;
}

/** What the edge settles once and later routes reuse: the cookie's name, how a credential is checked, where the page may connect. */
interface Edge {
  cookieName: string;
  authExtras: RequestAuthExtras;
  connectOrigins: () => string[];
}

/** The checks every route and the WebSocket upgrade pass, in order (ARCHITECTURE.md §7): Host → Origin → auth → scope → rate limit. */
async function registerEdge(app: FastifyInstance, deps: AppDeps): Promise<Edge> {
  const { publicUrls, peers, machines, identity } = deps.state;
  const configuredPublic = deps.config.publicUrl ? new URL(deps.config.publicUrl).origin : undefined;
  const connectOrigins = (): string[] => [...(configuredPublic ? [configuredPublic] : []), ...publicUrls.list(), ...machines.origins()];
  const cookieName = authCookieName(identity.hubId);
  await app.register(securityPlugin, {
    config: deps.config,
    publicUrls,
    peers,
    connectOrigins,
    cookieName,
    onConnectionRefused: (limit) => deps.metrics?.connectionRefused(limit),
  });
  // DPoP proofs for key-bound tokens, and single-use tickets for the /acp upgrade.
  const authExtras: RequestAuthExtras = {
    dpop: deps.state.dpop,
    tickets: deps.state.tickets,
    publicUrls: () => [...(deps.config.publicUrl ? [deps.config.publicUrl] : []), ...publicUrls.list()],
    cookieName,
  };
  await app.register(authHook, { authenticator: deps.authenticator, extras: authExtras });
  return { cookieName, authExtras, connectOrigins };
}

/** Sessions, interactions, the compat instance and file routes, git, and the doctor's live view. */
async function registerSessionApi(app: FastifyInstance, deps: AppDeps, hub: RestHub, connections: () => number): Promise<void> {
  const { state } = deps;
  const files = { roots: state.roots, secrets: state.secrets };
  const audit = deps.auth ? { audit: deps.auth.audit.sink } : {};
  await app.register(statusRoutes, { hub, version: deps.version, connections });
  await app.register(sessionRoutes, { hub });
  await app.register(interactionRoutes, { hub });
  const startedAt = Date.now();
  const port = (): number | undefined => {
    const a = app.server.address();
    return typeof a === 'object' && a ? a.port : undefined;
  };
  await app.register(instanceRoutes, { hub, config: deps.config, startedAt, port, ...files, ...audit });
  await app.register(gitRoutes, { hub, config: deps.config, ...files, ...audit });
  await app.register(doctorRoutes, {
    config: deps.config,
    probe: state.probe,
    peers: () => state.peers.list().map((p) => p.origin),
    backend: deps.backend,
    port,
    live: () => {
      const pending = hub.listInteractions();
      const oldest = Math.min(...pending.map((i) => i.createdAt));
      return {
        pendingInteractions: pending.length,
        clients: connections(),
        ...(pending.length > 0 ? { oldestPendingAgeMs: Date.now() - oldest } : {}),
      };
    },
  });
}

/** Who is asking and their devices: tokens, people, public URLs, tickets, pairing, the audit log. */
async function registerDeviceApi(app: FastifyInstance, deps: AppDeps, auth: AuthServices, edge: Edge): Promise<void> {
  const { publicUrls, identity } = deps.state;
  const limits = deps.config.limits;
  await app.register(meRoutes, { hub: identity });
  await app.register(tokenRoutes, { auth });
  await app.register(peopleRoutes, { auth });
  await app.register(publicUrlRoutes, { urls: publicUrls, configured: deps.config.publicUrl, audit: auth.audit });
  await app.register(wsTicketRoutes, { tickets: deps.state.tickets, cookieName: edge.cookieName });
  await app.register(pairRoutes, {
    auth,
    extras: edge.authExtras,
    hub: identity,
    publicUrl: () => deps.config.publicUrl ?? publicUrls.latest(),
    publicUrls: () => [...(deps.config.publicUrl ? [deps.config.publicUrl] : []), ...publicUrls.list()],
    attemptsPerWindow: limits.pairAttemptsPerWindow,
    windowMs: limits.pairRateWindowMs,
  });
  await app.register(auditRoutes, { auth });
}

/** The provider file, the quota, and saved workflows with their runs (guarded by the workspace roots). */
async function registerSettingsApi(app: FastifyInstance, deps: AppDeps, settings: NonNullable<AppDeps['settings']>): Promise<void> {
  const { store, appServer, catalog, quota, workflows } = settings;
  const audit = deps.auth?.audit.sink;
  await app.register(settingsProviderRoutes, { store, appServer, catalog, workspace: deps.config.workspace, ...(audit ? { audit } : {}) });
  await app.register(quotaRoutes, { quota });
  const roots = deps.state.roots;
  const hub = deps.hub;
  const guard = {
    workspace: (w: string) => roots.check(w),
    session: async (sessionId: string) => {
      const cwd =
        hub?.getSession(sessionId)?.cwd ??
        (hub ? (await hub.listSessions({ includeArchived: true })).find((s) => s.sessionId === sessionId)?.cwd : undefined);
      if (cwd) await roots.checkSession(cwd);
    },
  };
  await app.register(settingsWorkflowRoutes, { service: workflows, guard, ...(audit ? { audit } : {}) });
}
