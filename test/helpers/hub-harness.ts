import fs from 'node:fs';
import type { Agent } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { createAuthServices, type AuthServices } from '../../src/auth/auth-services.js';
import type { Scope } from '../../src/auth/identity.js';
import { buildConfig } from '../../src/config/load.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { startDaemon, type RunningDaemon } from '../../src/daemon/daemon.js';
import type { LIMITS } from '../../src/limits.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { captureLogger, registerSecret } from '../security/helpers/log-capture.js';
import { AcpWsClient, type ConnectOptions } from './acp-ws-client.js';

/**
 * A real daemon in-process for integration tests (ARCHITECTURE.md §1): the lead's `startDaemon` on
 * port 0 with the simulator backend as a real child process, a temp state dir and a temp
 * workspace. Nothing is faked. Set ZCODE_HUB_TEST_LOG=debug to see the daemon's log.
 */

export interface HarnessOptions {
  /** Named limits to override (tiny heartbeat, small budgets …). */
  limits?: Partial<Record<keyof typeof LIMITS, number>>;
  /** Simulator scenario (default `default`: words in the prompt pick the flow). */
  scenario?: string;
  /** Extra simulator flags. */
  simArgs?: string[];
  /** Any other config key. */
  config?: Partial<ConfigInput>;
  /** The daemon's logger (default: silent, or the SEC-05 capture). */
  logger?: Logger;
  /** HTTPS agent for push deliveries (test/helpers/push-service.ts: a local push service). */
  pushAgent?: Agent;
}

export interface HubHarness {
  url: string;
  /** `ws://…/acp`. */
  wsUrl: string;
  adminToken: string;
  stateDir: string;
  /** A temp directory sessions are created in. */
  workspace: string;
  daemon: RunningDaemon;
  /** The real token service the daemon authenticates with (device JWTs + the admin token). */
  auth: AuthServices;
  /** Mints a device token with the real token service (scope `view`, `operate` or `admin`). */
  token(scope: Scope, name?: string, person?: string): Promise<string>;
  /** Opens a raw ACP client (admin token unless `opts.token`). */
  client(opts?: ConnectOptions): Promise<AcpWsClient>;
  /** Opens, initializes and returns a client. */
  initializedClient(opts?: ConnectOptions & { name?: string; elicitationForm?: boolean }): Promise<AcpWsClient>;
  /** `fetch` against the daemon with the admin token (or `token`). */
  api(pathname: string, init?: RequestInit & { token?: string }): Promise<Response>;
  /** Stops the daemon, closes every client opened through the harness and removes the temp dirs. */
  close(): Promise<void>;
}

const tokenResponse = z.object({ token: z.string().min(1) });

/** Starts a daemon; always pair with `await harness.close()` (afterEach/afterAll). */
export async function startHub(options: HarnessOptions = {}): Promise<HubHarness> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-test-'));
  const stateDir = path.join(root, 'state');
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  const config = buildConfig({
    host: '127.0.0.1',
    port: 0,
    stateDir,
    backend: 'sim',
    workspace,
    providerFile: path.join(root, 'provider_config.json'),
    scenario: options.scenario ?? 'default',
    simArgs: options.simArgs ?? [],
    logLevel: 'silent',
    ...options.config,
    limits: { ...(options.limits ?? {}) },
  });
  // Under the SEC-05 global check every harness daemon logs at debug to a captured file, and
  // every credential it hands out is registered, so a leak anywhere in these suites fails the run.
  const logger =
    options.logger ??
    (process.env.ZCODE_HUB_TEST_LOG_DIR
      ? captureLogger('hub-harness').logger
      : createLogger({ level: process.env.ZCODE_HUB_TEST_LOG ?? 'silent' }));
  const l = config.limits;
  const auth = createAuthServices({
    // config.stateDir: a test may put the state dir elsewhere (inside its workspace, say).
    stateDir: config.stateDir,
    limits: l,
    logger,
  });
  let daemon: RunningDaemon;
  try {
    daemon = await startDaemon(config, logger, { auth, ...(options.pushAgent ? { pushAgent: options.pushAgent } : {}) });
  } catch (err) {
    auth.close();
    fs.rmSync(root, { recursive: true, force: true });
    throw err;
  }
  registerSecret(daemon.adminToken);
  const url = daemon.url;
  const wsUrl = `${url.replace(/^http/, 'ws')}/acp`;
  const clients = new Set<AcpWsClient>();

  const api = (pathname: string, init: RequestInit & { token?: string } = {}): Promise<Response> => {
    const { token, headers, ...rest } = init;
    return fetch(`${url}${pathname}`, {
      ...rest,
      headers: { authorization: `Bearer ${token ?? daemon.adminToken}`, ...(headers as Record<string, string> | undefined) },
    });
  };

  const client = async (opts: ConnectOptions = {}): Promise<AcpWsClient> => {
    const c = await AcpWsClient.connect(wsUrl, { token: daemon.adminToken, ...opts });
    clients.add(c);
    return c;
  };

  let closing: Promise<void> | undefined;
  return {
    url,
    wsUrl,
    adminToken: daemon.adminToken,
    stateDir: config.stateDir,
    workspace,
    daemon,
    auth,
    async token(scope, name = `${scope}-device`, person) {
      const issued = await auth.tokens.create({
        name,
        ...(person === undefined ? {} : { person }),
        scope,
        ttlMs: l.deviceTokenDefaultTtlMs,
        via: 'api',
      });
      const token = tokenResponse.parse(issued).token;
      registerSecret(token);
      return token;
    },
    client,
    async initializedClient(opts = {}) {
      const { name, elicitationForm, ...connect } = opts;
      const c = await client(connect);
      await c.initialize({ ...(name ? { name } : {}), ...(elicitationForm ? { elicitationForm } : {}) });
      return c;
    },
    api,
    close() {
      closing ??= (async () => {
        await Promise.all([...clients].map((c) => c.close().catch(() => undefined)));
        await daemon.close();
        auth.close();
        fs.rmSync(root, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
