import type { Logger } from '../logger.js';
import {
  BackendFailure,
  BackendRpcError,
  type BackendNotification,
  type BackendPort,
  type BackendRequestOptions,
  type BackendState,
  type BackendStatus,
  type InteractionHandler,
} from '../ports/backend-port.js';
import { CrashWindow, restartDelayMs } from './backoff.js';
import { createLinkTransport } from './link-transport.js';
import { cleanupOrphan, osProcessInspector, removePidfile, writePidfile } from './pidfile.js';
import { ReverseRouter } from './reverse-router.js';
import { RpcPeer } from './rpc-peer.js';
import { LineRing } from './stderr-ring.js';
import type { BackendDiagnostics, BackendLinkOptions, LinkTransport, SpawnPlan } from './link-options.js';
import { resumableSessionId, SESSION_OPEN_METHODS, SessionResumer } from './session-resumer.js';

export type { BackendDiagnostics, BackendLinkOptions, LinkTransport, SpawnPlan } from './link-options.js';

/** The liveness probe after every spawn (APP-SERVER.md §1.1: no handshake; this is cheap). */
export const PROBE_METHOD = 'runtime/capabilities';

interface Generation {
  epoch: number;
  transport: LinkTransport;
  peer: RpcPeer;
  router: ReverseRouter;
  exited: boolean;
  /** Stopped on purpose (restart/close): its exit is not a crash. */
  intentional: boolean;
}

/**
 * The backend link (ARCHITECTURE.md §3): owns the one app-server child, supervises it (capped
 * exponential backoff with jitter, `failed` after a crash loop, manual restart), correlates
 * requests, answers every reverse request, resumes cold sessions once, and stops the child with
 * the ladder. Implements the domain's BackendPort.
 */
export class BackendLink implements BackendPort {
  private state: BackendState = 'stopped';
  private kind: 'zcode' | 'sim';
  private epoch = 0;
  private restarts = 0;
  private pid?: number;
  private nextRetryMs?: number;
  private lastExit?: BackendStatus['lastExit'];
  private command?: string;
  private current?: Generation;
  private retryTimer?: NodeJS.Timeout;
  private startPromise?: Promise<void>;
  private restartPromise?: Promise<void>;
  private closePromise?: Promise<void>;
  private closing = false;
  private handler?: InteractionHandler;
  private readonly crashes: CrashWindow;
  private readonly resumer: SessionResumer;
  private readonly stderrRing: LineRing;
  private readonly notificationListeners = new Set<(n: BackendNotification) => void>();
  private readonly statusListeners = new Set<(s: BackendStatus) => void>();
  private readonly log: Logger;
  private readonly now: () => number;
  private lastEmitted = '';

  constructor(private readonly options: BackendLinkOptions) {
    this.kind = options.kind;
    this.log = options.logger;
    this.now = options.now ?? Date.now;
    this.crashes = new CrashWindow(options.limits.crashLoopCount, options.limits.crashWindowMs);
    this.stderrRing = new LineRing(options.limits.stderrRingLines);
    this.resumer = new SessionResumer(
      (sessionId) => this.send('session/resume', { sessionId }, options.limits.sessionOpenTimeoutMs),
      this.log,
    );
  }

  status(): BackendStatus {
    return {
      state: this.state,
      kind: this.kind,
      epoch: this.epoch,
      restarts: this.restarts,
      ...(this.pid === undefined ? {} : { pid: this.pid }),
      ...(this.nextRetryMs === undefined ? {} : { nextRetryMs: this.nextRetryMs }),
      ...(this.lastExit === undefined ? {} : { lastExit: { ...this.lastExit } }),
      ...(this.command === undefined ? {} : { command: this.command }),
      ...(this.options.cliVersion ? { cliVersion: { ...this.options.cliVersion } } : {}),
      ...(this.options.cliDetection ? { cliDetection: this.options.cliDetection } : {}),
      ...(this.options.cliRuntime ? { cliRuntime: { ...this.options.cliRuntime } } : {}),
    };
  }

  stderrTail(): string[] {
    return this.stderrRing.toArray();
  }

  onNotification(listener: (notification: BackendNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  onStatus(listener: (status: BackendStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  onSessionResumed(listener: (sessionId: string, snapshot: unknown) => void): () => void {
    return this.resumer.onResumed(listener);
  }

  setInteractionHandler(handler: InteractionHandler): void {
    this.handler = handler;
  }

  start(): Promise<void> {
    if (this.closing) return Promise.reject(new BackendFailure('closed', 'start', 'The backend link is closed'));
    this.startPromise ??= (async () => {
      if (this.options.pidfile) {
        const outcome = await cleanupOrphan(
          this.options.pidfile,
          this.options.processInspector ?? osProcessInspector(),
          this.options.limits.stopGraceMs,
          this.log,
        );
        if (outcome === 'killed' || outcome === 'survived') this.log.warn({ outcome }, 'orphaned backend child handled');
      }
      await this.spawn('starting');
    })();
    return this.startPromise;
  }

  restart(): Promise<void> {
    if (this.closing) return Promise.reject(new BackendFailure('closed', 'restart', 'The backend link is closed'));
    if (!this.startPromise) return this.start();
    this.restartPromise ??= (async () => {
      try {
        await this.startPromise?.catch(() => undefined);
        this.clearRetry();
        const gen = this.current;
        this.current = undefined;
        if (gen && !gen.exited) {
          gen.intentional = true;
          this.log.info({ childPid: gen.transport.pid, epoch: gen.epoch }, 'restarting the backend on request');
          this.setStatus({ state: 'restarting', nextRetryMs: undefined });
          await gen.transport.close();
        }
        this.crashes.reset();
        await this.spawn('restarting');
      } finally {
        this.restartPromise = undefined;
      }
    })();
    return this.restartPromise;
  }

  close(): Promise<void> {
    this.closePromise ??= (async () => {
      this.closing = true;
      this.clearRetry();
      await this.stopCurrent();
      // A start or restart in flight notices `closing`; wait for it, then stop what it spawned.
      await Promise.allSettled([this.startPromise, this.restartPromise]);
      await this.stopCurrent();
      this.options.wireRecorder?.close();
      if (this.options.pidfile) removePidfile(this.options.pidfile, this.pid);
      this.setStatus({ state: 'stopped', pid: undefined, nextRetryMs: undefined });
    })();
    return this.closePromise;
  }

  private async stopCurrent(): Promise<void> {
    const gen = this.current;
    if (!gen) return;
    gen.intentional = true;
    gen.peer.failAll('closed', 'The backend link is closed');
    await gen.transport.close();
    if (this.current === gen) this.current = undefined;
  }

  async request(method: string, params?: unknown, options: BackendRequestOptions = {}): Promise<unknown> {
    const limits = this.options.limits;
    const timeoutMs =
      options.timeoutMs ?? (SESSION_OPEN_METHODS.has(method) ? limits.sessionOpenTimeoutMs : limits.forwardRequestTimeoutMs);
    try {
      return await this.send(method, params, timeoutMs);
    } catch (err) {
      const sessionId = resumableSessionId(err, method, params, options);
      if (sessionId === undefined) throw err;
      // §10/§11.8: resume, then retry exactly once (no resume on the retry).
      this.log.info({ sessionId, method }, 'session not active in the backend; resuming it');
      await this.resumer.resume(sessionId);
      return await this.send(method, params, timeoutMs);
    }
  }

  private send(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    if (this.closing) return Promise.reject(new BackendFailure('closed', method, 'The backend link is closed'));
    const gen = this.current;
    if (!gen || gen.exited)
      return Promise.reject(new BackendFailure('not_running', method, `The agent backend is not running (${this.state})`));
    return gen.peer.request(method, params, timeoutMs);
  }

  /** Counters of the current child (zeros when none runs). */
  diagnostics(): BackendDiagnostics {
    const gen = this.current;
    return {
      pendingRequests: gen?.peer.pendingCount ?? 0,
      pendingInteractions: gen?.router.dedupe.inflightCount ?? 0,
      stdinQueuedBytes: gen?.transport.queuedBytes ?? 0,
      junkLines: gen?.transport.junkLines ?? 0,
    };
  }

  /** One generation of the child: its transport, the JSON-RPC peer over it, and the router of its requests to the hub. */
  private createGeneration(plan: SpawnPlan, epoch: number, log: Logger): Generation {
    const transport = createLinkTransport(this.options, plan, this.stderrRing, log);
    const router = new ReverseRouter({
      epoch,
      askUserQuestionAutoResolution: this.options.askUserQuestionAutoResolution,
      getHandler: () => this.handler,
      logger: log,
    });
    const peer = new RpcPeer(
      transport,
      {
        onNotification: (method, params, receivedAt) => {
          // A generation being stopped may still talk; only the current one reaches the domain.
          if (this.current === gen) this.emitNotification({ method, params, receivedAt });
        },
        onRequest: (method, params, id) => router.handle(method, params, id),
      },
      log,
    );
    const gen: Generation = { epoch, transport, peer, router, exited: false, intentional: false };
    transport.onmessage = (message, receivedAt) => peer.handle(message, receivedAt);
    transport.onerror = (err) => log.warn({ err: err.message }, 'backend transport problem');
    transport.onoversize = ({ bytes, id }) => {
      if (id !== undefined)
        peer.failOne(
          id,
          'too_large',
          `The agent's answer was ${bytes} bytes, over the hub's ${this.options.limits.childStdoutLineBytes}-byte line limit`,
        );
    };
    transport.onclose = (info) => this.onExit(gen, info);
    return gen;
  }

  /** Spawns a new generation and resolves once it is `ready` or has failed its first steps. */
  private async spawn(phase: 'starting' | 'restarting'): Promise<void> {
    if (this.closing) return;
    let plan: SpawnPlan;
    try {
      plan = await this.options.plan();
    } catch (err) {
      const reason = `cannot prepare the backend: ${(err as Error).message}`;
      this.log.error({ err }, reason);
      this.lastExit = { code: null, signal: null, at: this.now(), reason };
      this.setStatus({ state: 'failed', pid: undefined, nextRetryMs: undefined });
      throw err;
    }
    if (this.closing) return;
    this.kind = plan.kind;
    this.command = plan.entry;
    const epoch = ++this.epoch;
    const log = this.log.child({ epoch });
    const gen = this.createGeneration(plan, epoch, log);
    const { transport, peer } = gen;
    this.current = gen;
    this.setStatus({ state: phase, pid: undefined, nextRetryMs: undefined });

    try {
      await transport.start();
    } catch (err) {
      log.error({ err: (err as Error).message, command: plan.command }, 'could not spawn the backend');
      return; // onclose has fired: the crash path took over.
    }
    if (gen.exited) return;
    const pid = transport.pid;
    this.setStatus({ pid });
    if (this.options.pidfile && pid !== undefined) {
      try {
        writePidfile(this.options.pidfile, { pid, startedAt: Date.now(), command: [plan.command, ...plan.args], hubPid: process.pid });
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'could not write the backend pidfile');
      }
    }
    log.info({ childPid: pid, kind: plan.kind, entry: plan.entry }, 'backend spawned');

    try {
      await peer.request(PROBE_METHOD, undefined, this.options.limits.backendStartTimeoutMs);
    } catch (err) {
      if (!(err instanceof BackendRpcError)) {
        // Gone: the exit path handles it. Timeout: a child that cannot answer is restarted.
        if (!gen.exited && this.current === gen) {
          log.error({ err: (err as Error).message }, 'backend failed its liveness probe');
          transport.abort(`liveness probe failed: ${(err as Error).message}`);
        }
        return;
      }
      // An error answer still proves a live, talking child.
    }
    if (this.current === gen && !gen.exited && !this.closing) {
      this.setStatus({ state: 'ready' });
      log.info({ childPid: pid }, 'backend ready');
    }
  }

  private onExit(gen: Generation, info: { code: number | null; signal: string | null; reason?: string }): void {
    gen.exited = true;
    const intentional = gen.intentional || this.closing;
    gen.peer.failAll(this.closing ? 'closed' : 'gone', this.closing ? 'The backend link is closed' : 'The agent backend exited');
    const pid = gen.transport.pid;
    if (this.options.pidfile && pid !== undefined) removePidfile(this.options.pidfile, pid);
    const at = this.now();
    this.lastExit = { code: info.code, signal: info.signal, at, epoch: gen.epoch, ...(info.reason ? { reason: info.reason } : {}) };
    const log = this.log.child({ epoch: gen.epoch });
    if (this.current !== gen) {
      this.emitStatus();
      return; // superseded (restart) or closing: they own the state
    }
    this.current = undefined;
    if (intentional) {
      // close() reports `stopped` itself once the ladder is done.
      if (!this.closing) this.setStatus({ pid: undefined });
      return;
    }
    this.restarts++;
    const recent = this.crashes.record(at);
    const tail = this.stderrRing.toArray().slice(-5);
    if (recent >= this.options.limits.crashLoopCount) {
      log.error(
        {
          code: info.code,
          signal: info.signal,
          reason: info.reason,
          crashes: recent,
          windowMs: this.options.limits.crashWindowMs,
          stderr: tail,
        },
        'backend crash loop: giving up until a manual restart',
      );
      this.setStatus({ state: 'failed', pid: undefined, nextRetryMs: undefined });
      return;
    }
    const limits = this.options.limits;
    const delay = restartDelayMs(this.crashes.attempt(at), limits.restartBackoffBaseMs, limits.restartBackoffMaxMs, this.options.random);
    log.warn(
      { code: info.code, signal: info.signal, reason: info.reason, retryInMs: delay, stderr: tail },
      'backend exited unexpectedly; restarting',
    );
    this.setStatus({ state: 'restarting', pid: undefined, nextRetryMs: delay });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.spawn('restarting').catch((err: unknown) => this.log.error({ err }, 'backend respawn failed'));
    }, delay);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private setStatus(patch: { state?: BackendState; pid?: number | undefined; nextRetryMs?: number | undefined }): void {
    if (patch.state !== undefined) this.state = patch.state;
    if ('pid' in patch) this.pid = patch.pid;
    if ('nextRetryMs' in patch) this.nextRetryMs = patch.nextRetryMs;
    this.emitStatus();
  }

  private emitStatus(): void {
    const status = this.status();
    const key = JSON.stringify(status);
    if (key === this.lastEmitted) return;
    this.lastEmitted = key;
    for (const listener of this.statusListeners) {
      try {
        listener(this.status());
      } catch (err) {
        this.log.error({ err }, 'status listener threw');
      }
    }
  }

  private emitNotification(notification: BackendNotification): void {
    for (const listener of this.notificationListeners) {
      try {
        listener(notification);
      } catch (err) {
        this.log.error({ err, method: notification.method }, 'notification listener threw');
      }
    }
  }
}
