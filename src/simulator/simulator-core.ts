import type { Logger } from '../logger.js';
import type { StrictSnapshot } from '../wire/snapshot.js';
import { driftEvent, driftMessages, driftSnapshot } from './drift.js';
import type { SessionEvent } from './event-log.js';
import { InteractionBroker } from './interactions.js';
import { ModelRegistry } from './models.js';
import type { SimOptions } from './options.js';
import { notActive, ProtocolError, RPC } from './protocol-error.js';
import { ReverseRequests } from './reverse-requests.js';
import { DEFAULT_PREFERENCES, SessionRuntime, type SessionInfo } from './session-runtime.js';
import { RuntimePreferencesResult, type RuntimePreferences } from './schemas/session-params.js';
import { SessionStore, type StoredSession } from './session-store.js';
import { WorkflowRunRegistry } from './workflows/run-registry.js';
import { dropSubscriptions } from './v4-conversation.js';

/** The reverse-request timeout of `session/requestRuntimePreferences` (§1.7 rule 6). */
export const RUNTIME_PREFERENCES_TIMEOUT_MS = 15_000;

/**
 * Process-wide state of the simulator: the session runtimes of this process, the persisted
 * store, the model registry, reverse requests and workflow runs. Method handlers and turn
 * scripts receive it; only `process-main.ts` touches real stdio.
 */
export class SimulatorCore {
  readonly runtimes = new Map<string, SessionRuntime>();
  readonly registry = new ModelRegistry();
  readonly store: SessionStore;
  readonly reverse: ReverseRequests;
  readonly interactions: InteractionBroker;
  readonly runs = new WorkflowRunRegistry();
  /** Concurrent resumes of one id share one materialisation (§4.2). */
  readonly resuming = new Map<string, Promise<SessionRuntime>>();
  /** `--fail-command TYPE=REASON_CODE` refusals not yet given: each fails one command of its type, in order. */
  readonly commandRefusals: string[];
  /** Global v4 ACK index for `v4/commands/query` (§7.5). */
  readonly v4Index = new Map<string, unknown>();
  private sessionEventsWritten = 0;
  /** Forces a provider-file re-read (set by the provider watcher; §4.19). */
  providerRefresh: (() => void) | undefined;

  constructor(
    readonly options: SimOptions,
    readonly log: Logger,
    private readonly write: (message: object) => void,
    /** Ends the simulator with an exit code (`process.exit` when it is its own process). */
    private readonly exit: (code: number) => void,
  ) {
    this.store = new SessionStore(options.dataDir, log);
    this.reverse = new ReverseRequests(write, log, options.reannounceScale);
    this.interactions = new InteractionBroker(this.reverse, log);
    this.commandRefusals = [...options.failCommand];
  }

  /** Writes a server notification. */
  notify(method: string, params: object): void {
    this.write({ method, params });
  }

  /** Creates and registers a runtime (create, resume, fork). */
  createRuntime(info: SessionInfo, persistence: 'immediate' | 'deferred', stored?: StoredSession): SessionRuntime {
    const rt = new SessionRuntime(
      info,
      persistence,
      {
        sessionEvent: (e) => this.writeSessionEvent(e),
        notify: (m, p) => this.notify(m, p),
        persist: (r) => this.store.save(r.toStored()),
      },
      this.options.eventRate === undefined,
      stored,
      this.options.retainEvents,
    );
    this.runtimes.set(info.sessionId, rt);
    return rt;
  }

  /** The active runtime or -32004 `Session is not active` (§4). */
  requireActive(sessionId: string): SessionRuntime {
    const rt = this.runtimes.get(sessionId);
    if (!rt) throw notActive(sessionId);
    return rt;
  }

  /** Unloads one runtime: aborts its turn, forgets interactions and timers (§4.15). */
  unload(rt: SessionRuntime): void {
    rt.activeTurn?.abort.abort();
    for (const timers of rt.backgroundTimers.values()) for (const t of timers) clearTimeout(t);
    rt.backgroundTimers.clear();
    rt.closed = true;
    this.runtimes.delete(rt.sessionId);
    dropSubscriptions(this, rt.sessionId);
  }

  /** The §11 restart switch: forget every runtime without exiting (SIGUSR2). */
  forgetAllRuntimes(): void {
    for (const rt of [...this.runtimes.values()]) this.unload(rt);
    this.runs.clear();
    this.log.info('all session runtimes forgotten (restart switch)');
  }

  /**
   * Asks the host for runtime preferences (§6.1): -32601 → defaults; other errors fail the
   * create/resume with that code and message; no answer → -32022 after 15 s (scaled).
   */
  async askRuntimePreferences(sessionId: string): Promise<RuntimePreferences> {
    const timeoutMs = Math.round(RUNTIME_PREFERENCES_TIMEOUT_MS * this.options.reverseTimeoutScale);
    let raw: unknown;
    try {
      raw = await this.reverse.request('session/requestRuntimePreferences', { sessionId, scope: 'runtime-materialization' }, { timeoutMs });
    } catch (err) {
      if (err instanceof ProtocolError && (err.code === RPC.methodNotFound || err.code === RPC.noClient)) return { ...DEFAULT_PREFERENCES };
      throw err;
    }
    const r = RuntimePreferencesResult.safeParse(raw);
    if (!r.success)
      throw new ProtocolError(
        RPC.internal,
        `Invalid session/requestRuntimePreferences result: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      );
    return { ...DEFAULT_PREFERENCES, ...r.data };
  }

  /** Events as written on the wire (`--payload-drift` turns them into the real server's loose shapes). */
  wireEvents(events: SessionEvent[]): SessionEvent[] {
    return this.options.payloadDrift ? events.map(driftEvent) : events;
  }

  /** A snapshot as written on the wire (`--payload-drift`: an unreadable model option, §5.6). */
  wireSnapshot(snapshot: StrictSnapshot): unknown {
    return this.options.payloadDrift ? driftSnapshot(snapshot) : snapshot;
  }

  /** Messages as written on the wire (`--payload-drift`: nulls and an unreadable part, §5.6). */
  wireMessages(messages: SessionRuntime['messages']): unknown[] {
    return this.options.payloadDrift ? driftMessages(messages) : messages;
  }

  private writeSessionEvent(e: SessionEvent): void {
    this.notify('session/event', this.options.payloadDrift ? driftEvent(e) : e);
    this.sessionEventsWritten++;
    const limit = this.options.crashAfterEvents;
    if (limit !== undefined && this.sessionEventsWritten >= limit) {
      this.log.error({ events: this.sessionEventsWritten }, 'fault --crash-after-events reached; exiting with code 1');
      this.exit(1);
    }
  }
}
