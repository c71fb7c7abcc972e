/**
 * Test helpers for the domain: a recording ClientPort (a legitimate second implementation of
 * the port the gateway implements for sockets) and a real Hub over the real backend link with
 * the real simulator — in this process over the in-process transport by default, or as a child
 * process (`child: true`) — in temp dirs.
 */
import { AppServerClient } from '../../src/app-server/client.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Identity, Scope } from '../../src/auth/identity.js';
import { createBackend } from '../../src/backend/index.js';
import { buildConfig } from '../../src/config/load.js';
import type { HubConfig } from '../../src/config/schema.js';
import type { BackendNotification, BackendPort } from '../../src/ports/backend-port.js';
import type { ClientPort } from '../../src/domain/delivery/client-port.js';
import type { Frame as WireFrame } from '../../src/domain/delivery/frame.js';
import { Hub } from '../../src/domain/hub.js';
import type { LIMITS } from '../../src/limits.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { sessionMarks } from '../../src/daemon/domain-parts.js';
import { recordingBackend } from '../helpers/recording-backend.js';
import { workspaceParts } from '../../src/daemon/http-parts.js';
import { startSimulatorInProcess } from '../../src/simulator/index.js';
import { until } from '../helpers/until.js';

const frameSchema = z.looseObject({ method: z.string(), params: z.unknown() });
export type Frame = z.infer<typeof frameSchema>;

export interface RecordedRequest {
  id: number;
  method: string;
  params: Record<string, unknown>;
  settled: boolean;
  cancelled: boolean;
  reply(value: unknown): void;
}

let nextClient = 0;

/** A ClientPort that records every frame and request, and answers when told to. */
export class RecorderClient implements ClientPort {
  readonly clientId: string;
  readonly identity: Identity;
  readonly profile: 'acp' | 'legacy';
  readonly displayName: string;
  readonly elicitationForm: boolean;
  open = true;
  readonly raw: string[] = [];
  /** The frame objects as handed over (a broadcast hands every client the same one). */
  readonly sent: WireFrame[] = [];
  readonly frames: Frame[] = [];
  readonly requests: RecordedRequest[] = [];
  readonly cancelled: Array<string | number> = [];
  private nextId = 0;
  private readonly waiters = new Set<() => void>();

  /** The multi-client draft's update kinds this client opted into (the gateway sets it at `initialize` or `session/attach`). */
  readonly draftUpdates: ReadonlySet<string> | undefined;

  constructor(
    opts: { name?: string; scope?: Scope; elicitationForm?: boolean; profile?: 'acp' | 'legacy'; draftUpdates?: ReadonlySet<string> } = {},
  ) {
    nextClient += 1;
    this.draftUpdates = opts.draftUpdates;
    this.clientId = `c${nextClient}`;
    this.displayName = opts.name ?? `client-${nextClient}`;
    this.identity = { tokenId: `t-${this.clientId}`, name: this.displayName, person: this.displayName, scope: opts.scope ?? 'operate' };
    this.elicitationForm = opts.elicitationForm ?? false;
    this.profile = opts.profile ?? 'acp';
  }

  sendFrame(frame: WireFrame): void {
    if (!this.open) return;
    this.sent.push(frame);
    this.raw.push(frame.text);
    this.frames.push(frameSchema.parse(JSON.parse(frame.text)));
    this.wake();
  }

  request(method: string, params: unknown): { id: string | number; response: Promise<unknown> } {
    this.nextId += 1;
    const id = this.nextId;
    let resolve!: (v: unknown) => void;
    let reject!: (e: unknown) => void;
    const response = new Promise<unknown>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const rec: RecordedRequest = {
      id,
      method,
      params: z.record(z.string(), z.unknown()).parse(params),
      settled: false,
      cancelled: false,
      reply: (value) => {
        if (rec.settled) return;
        rec.settled = true;
        resolve(value);
      },
    };
    (rec as unknown as { rejectNow: (e: unknown) => void }).rejectNow = (e) => {
      if (rec.settled) return;
      rec.settled = true;
      reject(e);
    };
    this.requests.push(rec);
    this.wake();
    return { id, response };
  }

  cancelRequest(id: string | number): void {
    this.cancelled.push(id);
    const rec = this.requests.find((r) => r.id === id);
    if (rec) {
      rec.cancelled = true;
      (rec as unknown as { rejectNow: (e: unknown) => void }).rejectNow(new Error('cancelled'));
    }
    this.wake();
  }

  /** Close code the hub asked for, if it closed this client. */
  closedWith: number | undefined;

  /** Simulates the socket closing: outstanding requests reject, nothing more is recorded. */
  close(code?: number): void {
    this.closedWith ??= code;
    this.open = false;
    for (const r of this.requests) (r as unknown as { rejectNow: (e: unknown) => void }).rejectNow(new Error('closed'));
  }

  /** Notifications of one method. */
  notes(method: string): unknown[] {
    return this.frames.filter((f) => f.method === method).map((f) => f.params);
  }

  /** `session/update` params in arrival order. */
  updates(): Array<{
    sessionId: string;
    update: { sessionUpdate: string; [k: string]: unknown };
    _meta?: { zcode?: { seq?: number; epoch?: string; replay?: boolean } };
  }> {
    return this.notes('session/update') as never;
  }

  /** Requests not yet settled. */
  openRequests(method?: string): RecordedRequest[] {
    return this.requests.filter((r) => !r.settled && (method === undefined || r.method === method));
  }

  /** Resolves when `check` holds (re-checked on every frame/request), rejects after `timeoutMs`. */
  async waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
    const first = check();
    if (first) return first;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(poll);
        reject(new Error(`timed out waiting for ${what} (${this.displayName})`));
      }, timeoutMs);
      const poll = (): void => {
        const v = check();
        if (v) {
          clearTimeout(timer);
          this.waiters.delete(poll);
          resolve(v);
        }
      };
      this.waiters.add(poll);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** Waits for an arbitrary condition by polling (for state outside any client): the suite's one until(). */
export { until };

/** A frozen config in temp dirs with the simulator backend. */
export function testConfig(root: string, limits: Partial<Record<keyof typeof LIMITS, number>> = {}, simArgs: string[] = []): HubConfig {
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  return buildConfig({
    host: '127.0.0.1',
    port: 0,
    stateDir: path.join(root, 'state'),
    backend: 'sim',
    workspace,
    providerFile: path.join(root, 'provider_config.json'),
    simArgs: ['--data-dir', path.join(root, 'sim-data'), ...simArgs],
    logLevel: 'silent',
    limits,
  });
}

export interface DomainRig {
  root: string;
  config: HubConfig;
  backend: BackendPort;
  hub: Hub;
  /** Every forward request the backend link was asked to make (method names), for REC-03. */
  requests: string[];
  /** The same requests with their params, in order (what a test asks of the agent's answers' size). */
  calls: Array<{ method: string; params: unknown }>;
  /** Every notification seen from the child. */
  notifications: BackendNotification[];
  close(): Promise<void>;
}

/**
 * A real Hub over the real backend link and the real simulator: in this process over the
 * in-process transport (same framing, bounds and faults, no spawn), or with `child: true` as a
 * child process for what only a process shows. `requests` records the methods the domain asked
 * the link for (a wrapper that counts, not a fake: calls go through).
 */
export async function startRig(
  opts: { limits?: Partial<Record<keyof typeof LIMITS, number>>; simArgs?: string[]; logger?: Logger; child?: boolean } = {},
): Promise<DomainRig> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-domain-'));
  const config = testConfig(root, opts.limits, opts.simArgs);
  const logger = opts.logger ?? createLogger({ level: process.env.ZCODE_HUB_TEST_LOG ?? 'silent' });
  const link = createBackend(config, logger, {
    env: { ...process.env, HOME: root },
    ...(opts.child ? {} : { inProcessServer: startSimulatorInProcess }),
  });
  const requests: string[] = [];
  const calls: Array<{ method: string; params: unknown }> = [];
  const notifications: BackendNotification[] = [];
  const backend = recordingBackend(link, (method, params) => {
    requests.push(method);
    calls.push({ method, params });
  });
  link.onNotification((n) => notifications.push(n));
  const hub = new Hub({
    backend,
    appServer: new AppServerClient(backend),
    config,
    logger,
    roots: workspaceParts(config).roots,
    marks: sessionMarks(config),
  });
  hub.start();
  await link.start();
  await until(() => link.status().state === 'ready', 'backend ready');
  return {
    root,
    config,
    backend: link,
    hub,
    requests,
    calls,
    notifications,
    async close() {
      await hub.close();
      await link.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
