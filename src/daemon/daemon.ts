import { GrantStore } from '../policy/grant-store.js';
import { PolicyStore } from '../policy/policy-store.js';
import type { Agent } from 'node:https';
import type { FastifyInstance } from 'fastify';
import type { HubConfig } from '../config/schema.js';
import type { Logger } from '../logger.js';
import { VERSION } from '../version.js';
import { createBackend } from '../backend/index.js';
import { Hub } from '../domain/hub.js';
import { TurnRecords } from '../domain/prompts/turn-record.js';
import { AuthorBook } from '../domain/people/author-book.js';
import { TaskOutputFiles } from '../domain/prompts/task-output-files.js';
import type { DeletedWhileDown } from '../domain/sessions/deleted-while-down.js';
import type { BackendPort } from '../ports/backend-port.js';
import { AppServerClient } from '../app-server/client.js';
import { type AppDeps, buildApp } from '../http/app.js';
import { acpEndpoint } from '../gateway/acp-endpoint.js';
import { CLOSE } from '../gateway/close-codes.js';
import { ensurePrivateDir } from '../fs/secure-file.js';
import { acquireInstanceLock } from './instance-lock.js';
import { sweepStateTemps } from './stale-temps.js';
import { ensureAdminToken } from '../auth/admin-token.js';
import { statePaths } from '../config/state-paths.js';
import { writeHubFile, writeLastAddress } from './state-files.js';
import { ConfigError } from '../config/load.js';
import { privateRootsProblem, type WorkspaceRoots } from '../fs/workspace-roots.js';
import { createAuthServices, type AuthServices } from '../auth/auth-services.js';
import { ensureHubId, hubName, type HubIdentity } from '../auth/hub-id.js';
import { checkBindSafety } from '../auth/bind-safety.js';
import type { Authenticator } from '../auth/identity.js';
import fs from 'node:fs';
import { ProviderStore } from '../settings/provider-store.js';
import { HubMetrics } from '../metrics/hub-metrics.js';
import { instrumentBackend } from '../metrics/instrument-backend.js';
import { PushNotifier } from '../push/push-notifier.js';
import { SessionTransitions } from '../push/session-transitions.js';
import { ModelCatalog } from '../settings/model-catalog.js';
import { QuotaService } from '../settings/provider-quota.js';
import { WorkflowService } from '../settings/workflow-service.js';
import { forgetDeletedWhileDown, sessionMarks } from './domain-parts.js';
import { buildHttpState, workspaceParts } from './http-parts.js';

/** A running daemon: what tests and the CLI hold on to. */
export interface RunningDaemon {
  url: string;
  host: string;
  port: number;
  adminToken: string;
  app: FastifyInstance;
  backend: BackendPort;
  hub: Hub;
  auth: AuthServices;
  /** Settles when the start's look for sessions deleted while the hub was down is done (src/domain/sessions/deleted-while-down.ts). */
  deletedWhileDown: Promise<DeletedWhileDown>;
  /** Stops everything in order; memoised, so a second signal is harmless. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Identity services to use (tests share theirs to mint tokens); created from the state dir by default. */
  auth?: AuthServices;
  /** Overrides the authenticator (default: the auth services' tokens: admin token + device JWTs). */
  authenticator?: Authenticator;
  /** The HTTPS agent push deliveries go through (a test's local push service trusts its own CA). */
  pushAgent?: Agent;
}

function urlFor(host: string, port: number, tls: boolean): string {
  const h = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return `${tls ? 'https' : 'http'}://${h}:${port}`;
}

/** A workspace root inside the state dir (or another denied directory) would refuse every session: say so now. */
async function refusePrivateRoots(config: HubConfig, roots: WorkspaceRoots): Promise<void> {
  const bad = await roots.privateRoots();
  if (bad.length === 0) return;
  const { message, fix } = privateRootsProblem(bad, config.stateDir);
  throw new ConfigError(`${message}. ${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`);
}

/**
 * The composition root (STYLE.md habit 1): state dir, instance lock, admin token, backend,
 * domain, HTTP app; listens, writes hub.json, then starts the child. Nothing else wires parts.
 */
export async function startDaemon(config: HubConfig, logger: Logger, options: StartOptions = {}): Promise<RunningDaemon> {
  for (const warning of checkBindSafety(config).warnings) logger.warn(warning);
  ensurePrivateDir(config.stateDir);
  // One set of workspace roots (and of the secrets they keep out) for the hub and the REST routes.
  const workspace = workspaceParts(config);
  await refusePrivateRoots(config, workspace.roots);
  const releaseLock = acquireInstanceLock(config.stateDir);
  sweepStateTemps(config.stateDir, logger, Date.now());
  const steps: ShutdownSteps = { rest: [] };
  const runSteps = (onError: (err: unknown) => void) =>
    runShutdown([steps.app, steps.hub, steps.backend, ...steps.rest, releaseLock], onError);
  try {
    const { auth, adminToken, metrics, backend, appServer } = buildCore(config, logger, options, steps);
    const { hub, policy, grants, taskFiles, records } = buildDomain(
      config,
      logger,
      { backend, appServer, auth, roots: workspace.roots },
      steps,
    );
    hub.onInteractionAnswered((ms) => metrics.interactionAnswered(ms));
    const hubIdentity = { hubId: ensureHubId(config.stateDir), name: hubName(config.name), version: VERSION };
    const push = createPush(config, logger, hubIdentity, options.pushAgent);
    pushOnTransitions(hub, push);
    // A revoked device gets no more pushes.
    steps.rest.unshift(auth.tokens.onRevoked((tokenId) => push.subscriptions.removeToken(tokenId)));
    steps.rest.unshift(auth.tokens.onPersonChanged((tokenId) => hub.tokenPersonChanged(tokenId)));
    const settings = await buildSettings(config, logger, { appServer, backend, hub });
    const app = await buildHttp(
      config,
      logger,
      options,
      { hub, hubIdentity, auth, metrics, backend, workspace, settings, push, policy, grants },
      steps,
    );
    steps.app = () => app.close();
    attachMetrics(metrics, hub, app, backend);
    const { url, port } = await listenAndAnnounce(app, config, steps, logger);
    hub.start();
    const reconcile = forgetDeletedWhileDown(config, logger, { appServer, backend, hub, grants, taskFiles, records });
    steps.rest.unshift(() => reconcile.stop());
    void backend.start().catch((err: unknown) => logger.error({ err }, 'backend failed to start'));
    logger.info({ url, backend: config.backend, stateDir: config.stateDir }, `zcode-hub ${VERSION} listening on ${url}`);

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= runSteps((err) => logger.warn({ err }, 'error during shutdown'));
      return closing;
    };
    return { url, host: config.host, port, adminToken, app, backend, hub, auth, deletedWhileDown: reconcile.done, close };
  } catch (err) {
    // Best effort: the original error is the one to report.
    await runSteps(() => undefined);
    throw err;
  }
}

/** Shutdown runs these in order: sockets and routes, then the domain, then the child, then files. */
interface ShutdownSteps {
  app?: () => Promise<void>;
  hub?: () => Promise<void>;
  backend?: () => Promise<void>;
  rest: Array<() => void>;
}

/** The domain: the hub with the files it keeps (turn records, authors, task output) and the approval rules it asks. */
function buildDomain(
  config: HubConfig,
  logger: Logger,
  parts: { backend: BackendPort; appServer: AppServerClient; auth: AuthServices; roots: WorkspaceRoots },
  steps: ShutdownSteps,
) {
  const l = config.limits;
  const { backend, appServer, auth } = parts;
  // The running turn's record outlives the hub: written as it streams, read back at the next start.
  const records = new TurnRecords(statePaths(config.stateDir).turnRecords, l, logger.child({ component: 'turn-records' }));
  const authors = new AuthorBook({
    file: statePaths(config.stateDir).authors,
    legacyFile: statePaths(config.stateDir).legacyAuthors,
    max: l.authorsMax,
    flushMs: l.turnRecordFlushMs,
    logger: logger.child({ component: 'authors' }),
  });
  const taskFiles = new TaskOutputFiles(
    statePaths(config.stateDir).taskOutputs,
    { maxChars: l.taskOutputMaxChars, maxTasks: l.taskOutputsMax, flushMs: l.taskOutputFlushMs },
    logger.child({ component: 'task-outputs' }),
  );
  // The approval rules, read once here; the hub asks them for every interaction, REST edits them.
  const policy = new PolicyStore(statePaths(config.stateDir).policy, l);
  // The "always allow" grants the hub keeps instead of the agent (docs/SECURITY.md "Always allow").
  const grants = new GrantStore(statePaths(config.stateDir).alwaysGrants, l);
  const hub = new Hub({
    policy,
    grants,
    backend,
    appServer,
    config,
    logger: logger.child({ component: 'hub' }),
    audit: auth.audit.sink,
    records,
    authors,
    roots: parts.roots,
    marks: sessionMarks(config, logger),
    taskFiles,
  });
  steps.hub = async () => {
    await hub.close();
    await records.close();
    authors.close();
    await taskFiles.close();
  };
  return { hub, policy, grants, taskFiles, records };
}

/** Web Push to the devices that subscribed, from this hub. */
function createPush(
  config: HubConfig,
  logger: Logger,
  hubIdentity: { hubId: string; name: string },
  pushAgent: Agent | undefined,
): PushNotifier {
  const push = new PushNotifier({
    stateDir: config.stateDir,
    logger,
    limits: config.limits,
    allowPrivateEndpoints: config.testOnly?.pushPrivateEndpoints === true,
    hub: { hubId: hubIdentity.hubId, name: hubIdentity.name },
    ...(config.publicUrl ? { subject: config.publicUrl } : {}),
    ...(pushAgent ? { agent: pushAgent } : {}),
  });
  if (push.allowPrivateEndpoints)
    logger.warn('testOnly.pushPrivateEndpoints is set: push endpoints on loopback and private addresses are allowed');
  return push;
}

/** A session that needs someone, finished or failed is pushed to the devices that subscribed. */
function pushOnTransitions(hub: Hub, push: PushNotifier): void {
  const transitions = new SessionTransitions();
  hub.onSessionState((s) => {
    const kind = transitions.next(s.sessionId, s.state);
    // The oldest pending interaction is what the notification names and opens.
    const waiting =
      kind === 'needs_you'
        ? hub
            .listInteractions(s.sessionId)
            .filter((i) => i.state === 'pending')
            .sort((a, b) => a.createdAt - b.createdAt)[0]
        : undefined;
    if (kind) push.notify(kind, s.sessionId, s.title || s.cwd, waiting);
  });
}

/** The settings services the REST routes use: the provider file, the model catalog, the quota, saved workflows. */
async function buildSettings(config: HubConfig, logger: Logger, parts: { appServer: AppServerClient; backend: BackendPort; hub: Hub }) {
  const { appServer, backend, hub } = parts;
  // Backups of the provider file stay in our state dir, not beside the user's (shared) file.
  const providerStore = new ProviderStore({
    filePath: config.providerFile,
    backupDir: statePaths(config.stateDir).providerBackups,
    logger: logger.child({ component: 'settings' }),
  });
  await providerStore.start();
  return {
    store: providerStore,
    appServer,
    catalog: new ModelCatalog({ appServer, backend, defaultWorkspace: config.workspace }),
    quota: new QuotaService({ read: () => providerStore.read(), limits: config.limits, logger: logger.child({ component: 'quota' }) }),
    // A workflow started without a session opens a hub session, so the journal sees its events.
    workflows: new WorkflowService({ appServer, defaultWorkspace: config.workspace, openSession: (cwd) => hub.openSession(cwd) }),
  };
}

/** `/metrics` reads the hub, the gateway's connections and the backend when scraped. */
function attachMetrics(metrics: HubMetrics, hub: Hub, app: FastifyInstance, backend: BackendPort): void {
  metrics.attach(() => {
    const snap = hub.metricsSnapshot();
    const stats = hub.stats;
    return {
      clients: [...app.gateway.connections()].map((c) => ({ profile: c.profile })),
      attachedSessions: snap.attachedSessions,
      journals: snap.journals,
      pendingInteractionAgesMs: snap.pendingAgesMs,
      backend: backend.status(),
      totals: { updatesSent: stats.framesSent, bytesSent: stats.bytesSent, serializations: stats.serializations },
    };
  });
}

/** Listens, then writes hub.json and the last address, so the sub-commands (`stop`, `pair`, `doctor`, …) and the bridge find this hub. */
async function listenAndAnnounce(
  app: FastifyInstance,
  config: HubConfig,
  steps: ShutdownSteps,
  logger: Logger,
): Promise<{ url: string; port: number }> {
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = urlFor(config.host, port, Boolean(config.tlsCert && config.tlsKey));
  writeHubFile(config.stateDir, { pid: process.pid, host: config.host, port, url, version: VERSION, startedAt: Date.now() });
  try {
    writeLastAddress(config.stateDir, { host: config.host, port });
  } catch (err) {
    // Only a convenience for the bridge's next start: the hub runs without it.
    logger.warn(
      { err },
      `${statePaths(config.stateDir).lastAddress} could not be written; a daemon the editor bridge starts next picks its port afresh`,
    );
  }
  // hub.json goes before the instance lock is released, so a successor never loses its own.
  steps.rest.push(() => fs.rmSync(statePaths(config.stateDir).hubFile, { force: true }));
  return { url, port };
}

/** Runs every shutdown step in order; one that throws is reported and the next still runs. */
async function runShutdown(order: ReadonlyArray<(() => unknown) | undefined>, onError: (err: unknown) => void): Promise<void> {
  for (const step of order) {
    try {
      await step?.();
    } catch (err) {
      onError(err);
    }
  }
}

/** Identity (tokens, audit), the admin token, metrics, the instrumented child link and the one typed client of the app-server. */
function buildCore(config: HubConfig, logger: Logger, options: StartOptions, steps: ShutdownSteps) {
  const l = config.limits;
  const auth =
    options.auth ??
    createAuthServices({
      stateDir: config.stateDir,
      adminTokenFile: config.adminTokenFile,
      limits: l,
      logger: logger.child({ component: 'auth' }),
    });
  if (!options.auth) steps.rest.push(() => auth.close());
  const adminToken = ensureAdminToken(config.stateDir, config.adminTokenFile);
  const metrics = new HubMetrics();
  steps.rest.push(() => metrics.close());
  const backend = instrumentBackend(createBackend(config, logger.child({ component: 'backend' })), metrics);
  steps.backend = () => backend.close();
  // The one typed client of the app-server, over the (instrumented) link: the domain and the settings call through it.
  const appServer = new AppServerClient(backend);
  return { auth, adminToken, metrics, backend, appServer };
}

/** The gateway's `/acp` endpoint, the HTTP side's state, and the app with every route mounted. */
async function buildHttp(
  config: HubConfig,
  logger: Logger,
  options: StartOptions,
  parts: Pick<AppDeps, 'backend' | 'push' | 'policy' | 'grants'> & {
    hub: Hub;
    hubIdentity: HubIdentity;
    auth: AuthServices;
    metrics: HubMetrics;
    workspace: ReturnType<typeof workspaceParts>;
    settings: NonNullable<AppDeps['settings']>;
  },
  steps: ShutdownSteps,
): Promise<FastifyInstance> {
  const { hub, hubIdentity, auth, metrics, workspace, backend, settings, push, policy, grants } = parts;
  const authenticator = options.authenticator ?? auth.tokens;
  // The gateway is mounted into the HTTP app here, so src/http never imports src/gateway.
  const acp = acpEndpoint({
    hub,
    config,
    logger,
    version: VERSION,
    hubIdentity,
    authenticator,
    onConnectionClosed: (code) => code === CLOSE.SLOW_CONSUMER && metrics.slowConsumerClosed(),
  });
  const state = buildHttpState({ config, logger, identity: hubIdentity, authenticator, workspace });
  steps.rest.unshift(() => state.close());
  return buildApp({
    config,
    logger,
    backend,
    authenticator,
    auth,
    version: VERSION,
    state,
    hub,
    acp,
    settings,
    metrics,
    push,
    policy,
    grants,
  });
}
