/**
 * Opening sessions on the app-server: create, resume, subscribe (APP-SERVER.md §4.1, §4.2,
 * §4.7) and folding snapshots into the hub's session state. Concurrent opens of one session
 * share one promise, so a crowd of clients attaching at once costs the child one resume.
 */
import { settingsPatchSchema, type SettingsPatch } from '../../acp/zcode-event-schema.js';
import type { KnownModel, StateFacts } from '../../acp/translate-state.js';
import { HubError } from '../../errors.js';
import { AppServerError } from '../../app-server/errors.js';
import type { HubCore } from '../hub-core.js';
import type { SessionState } from './session-state.js';
import { snapshotSchema, type Snapshot } from '../../app-server/session-schemas.js';
import { foldCommands } from './command-notices.js';
import type { Held } from './subscription.js';

/** Delivery kind the hub subscribes with; its seq space is the one `Subscription.lastSeq` tracks (§5.2). */
export const DELIVERY_KIND = 'web-remote-replayable';

/** The normal ingestion path, for what a subscribe held or returned (event-ingest.ts). */
export interface EventSink {
  /** One `session/event` (backlog or held live). */
  event(session: SessionState, params: unknown): void;
  /** What one `state.updated` held while the subscribe was in flight said. */
  state(session: SessionState, facts: StateFacts): void;
}

/** Creates, resumes and subscribes sessions. */
export class SessionOpener {
  private readonly inflight = new Map<string, Promise<SessionState>>();
  /** Backend epoch whose child answered -32601 to `v4/conversation/subscribe`. */
  private v4TitlesUnsupported = 0;

  constructor(
    private readonly core: HubCore,
    private readonly sink: EventSink,
  ) {}

  /** `session/create` + subscribe; returns the new session's state. */
  async create(p: {
    cwd: string;
    mode?: string;
    model?: { providerId: string; modelId: string };
    thoughtLevel?: string;
  }): Promise<SessionState> {
    // An existing directory inside a workspace root, symlinks resolved; the real path goes to the child.
    const cwd = await this.core.roots.resolve(p.cwd);
    const params = { ...p, cwd, mode: p.mode ?? this.core.config.defaultMode };
    const snap = await this.core.app.createSession(params, { timeoutMs: this.core.config.limits.sessionOpenTimeoutMs });
    const session = this.core.ensureSession(snap.session.sessionId, cwd);
    this.apply(session, snap, true);
    // A model that needs a reasoning level but got none would refuse every prompt (§3.2, §11.11).
    const level = p.thoughtLevel === undefined ? missingLevel(session.settings) : undefined;
    if (level !== undefined) this.applySettings(session, (await this.core.app.setThoughtLevel(session.sessionId, level)).settings);
    await this.subscribe(session);
    return session;
  }

  /**
   * Makes sure a session is known and its live events flow: no request at all when it is
   * already subscribed (REC-03), else resume + subscribe, shared between concurrent callers.
   */
  open(sessionId: string): Promise<SessionState> {
    const known = this.core.findSession(sessionId);
    if (known?.subscription.subscribed) return Promise.resolve(known);
    let p = this.inflight.get(sessionId);
    if (!p) {
      p = this.resumeAndSubscribe(sessionId).finally(() => this.inflight.delete(sessionId));
      this.inflight.set(sessionId, p);
    }
    return p;
  }

  /** `open`, to give the session work: one left outside the workspace roots (they changed) is watched, not prompted. */
  async openForWork(sessionId: string): Promise<SessionState> {
    const session = await this.open(sessionId);
    await this.core.roots.checkSession(session.cwd);
    return session;
  }

  /** After a backend restart or a link-side resume: subscribe again from the last seq (§11.10). */
  async resubscribe(session: SessionState, resumeFirst: boolean): Promise<void> {
    session.subscription.apply('lost');
    if (resumeFirst) {
      await this.open(session.sessionId);
      return;
    }
    await this.subscribe(session);
  }

  private async resumeAndSubscribe(sessionId: string): Promise<SessionState> {
    const snap = await this.core.app.resumeSession(
      { sessionId },
      { timeoutMs: this.core.config.limits.sessionOpenTimeoutMs, noResumeRetry: true },
    );
    const session = this.core.ensureSession(sessionId, snap.session.workspace?.workspacePath ?? this.core.config.workspace);
    this.apply(session, snap, true);
    await this.subscribe(session);
    return session;
  }

  /**
   * `session/subscribe` with `afterSeq` = the last ZCode seq seen. When the server's counter
   * went backwards (restart, close, eviction — §5.2) the log was reset; when its retention
   * already trimmed events after `afterSeq` (§5.2) there is a gap: either way the snapshot is
   * taken, the watermark reset and a new journal epoch started (ARCHITECTURE.md §4.2). Live events
   * may precede the answer (APP-SERVER.md §5.2): they are held until the backlog it returns is in, then both
   * are ingested in seq order, once each.
   */
  private async subscribe(session: SessionState): Promise<void> {
    const afterSeq = session.subscription.lastSeq;
    session.subscription.apply('start');
    let result: Awaited<ReturnType<HubCore['app']['subscribe']>>;
    try {
      // No watermark yet (first open): follow live only; the past comes from session/messages.
      const params = afterSeq > 0 ? { afterSeq, includeSnapshot: true } : {};
      result = await this.core.app.subscribe({ sessionId: session.sessionId, deliveryKind: DELIVERY_KIND, ...params });
    } catch (err) {
      const held = session.subscription.apply('failed');
      this.drain(session, held.events, held.states);
      throw err;
    }
    const held = session.subscription.apply('answered');
    this.followTitles(session);
    if (afterSeq === 0) {
      this.drain(session, held.events, held.states);
      session.subscription.followFrom(result.eventSeq);
      return;
    }
    const backlog = result.events.map((params) => ({ seq: seqOf(params), params }));
    const firstSeq = backlog[0]?.seq;
    const reset = result.eventSeq < afterSeq;
    const trimmed = !reset && result.eventSeq > afterSeq && (firstSeq === undefined || firstSeq > afterSeq + 1);
    if (reset || trimmed || held.overflow) {
      if (!reset) {
        const why = trimmed
          ? 'the agent no longer has the events after the last one the hub saw (its retention trimmed them)'
          : 'more live events arrived during the subscribe than the hub holds (subscribeBufferMaxEvents)';
        this.core.logger.warn(
          { sessionId: session.sessionId, afterSeq, firstRetainedSeq: firstSeq, eventSeq: result.eventSeq },
          `${why}; reloading the session from its snapshot`,
        );
      }
      this.reload(session, result.snapshot, result.eventSeq);
      this.drain(
        session,
        held.events.filter((e) => e.seq > result.eventSeq),
        held.states,
      );
      return;
    }
    // ingest() drops what was already seen, so an event both in the backlog and live counts once.
    this.drain(session, [...backlog, ...held.events], held.states);
  }

  /**
   * The events in seq order, then the held `state.updated`s: a ready boundary that came during the
   * subscribe ends its prompt only after the text that came before it reached the clients.
   */
  private drain(session: SessionState, events: Held['events'], states: Held['states']): void {
    for (const e of [...events].sort((a, b) => a.seq - b.seq)) this.sink.event(session, e.params);
    for (const facts of states) this.sink.state(session, facts);
  }

  /** A new seq space or a gap: the snapshot, a new journal epoch, events followed from `eventSeq`. */
  private reload(session: SessionState, snapshot: unknown, eventSeq: number): void {
    // Events of this seq space up to eventSeq are history now; follow live from here.
    const resets = session.subscription.restartAt(eventSeq);
    session.journal.setEpoch(`${this.core.epoch}.${resets}`);
    const snap = snapshotSchema.safeParse(snapshot);
    if (snap.success) this.apply(session, snap.data, false);
    this.core.publishSessionState(session);
  }

  /**
   * Newer CLIs send generated titles only in v4 frames (APP-SERVER.md §14.4): subscribe the session's
   * v4 conversation topic once per child, in the background (the frames are read for the title
   * only, event-ingest.ts). A CLI without it (-32601) is remembered and not asked again.
   */
  private followTitles(session: SessionState): void {
    const epoch = this.core.backendEpoch;
    if (this.v4TitlesUnsupported === epoch || !session.subscription.followTitles(epoch)) return;
    this.core.app.subscribeConversation(session.sessionId).catch((err: unknown) => {
      session.subscription.titlesFailed(epoch);
      if (err instanceof AppServerError && err.isRpc(-32601)) this.v4TitlesUnsupported = epoch;
      else
        this.core.logger.warn({ err, sessionId: session.sessionId }, 'v4 conversation subscribe failed; generated titles may not arrive');
    });
  }

  /** Folds a snapshot into the session state. `full` snapshots list every model (§3.6). */
  apply(session: SessionState, snap: Snapshot, full: boolean): void {
    session.fold({
      title: snap.session.title,
      archived: snap.session.archivedAt !== undefined,
      cwd: snap.session.workspace?.workspacePath,
      settings: snap.settings,
      models: full && snap.settings.model?.available ? (snap.settings.model.available as KnownModel[]) : undefined,
    });
    // A turn the child runs that this hub did not start (e.g. after a hub restart); told on attach.
    if (snap.runtime.activeTurnId && !session.turn.active) session.turn.bind(snap.runtime.activeTurnId, true);
    foldCommands(this.core, session, snap.slashCommands);
    session.touch();
  }

  /** Applies a Settings object (mutation snapshots and `state.updated` patches). */
  applySettings(session: SessionState, settings: unknown): void {
    const parsed = settingsPatchSchema.safeParse(settings);
    if (parsed.success) session.mergeSettings(parsed.data);
  }
}

/** The default level of the current model when it takes levels and the session has none (§3.6). */
function missingLevel(settings: SettingsPatch): string | undefined {
  if (settings.thoughtLevel?.current) return undefined;
  const current = settings.model?.current;
  const entry =
    current && settings.model?.available?.find((m) => m.ref.providerId === current.providerId && m.ref.modelId === current.modelId);
  const levels = entry?.reasoning?.levels.map((l) => l.value) ?? [];
  if (levels.length === 0) return undefined;
  const preferred = entry?.reasoning?.defaultLevel;
  return preferred !== undefined && levels.includes(preferred) ? preferred : levels[0];
}

/** The `seq` of a `session/event` params object (0 when unreadable: ingest drops it). */
function seqOf(params: unknown): number {
  const seq = typeof params === 'object' && params !== null ? (params as { seq?: unknown }).seq : undefined;
  return typeof seq === 'number' && Number.isFinite(seq) ? seq : 0;
}

/** Parses a snapshot result; a malformed one is a backend error, not a crash. */
export function parseSnapshot(raw: unknown): Snapshot {
  const parsed = snapshotSchema.safeParse(raw);
  if (!parsed.success)
    throw new HubError('HUB_ERR_BACKEND', 'The agent returned an unexpected session snapshot', { issues: parsed.error.issues.slice(0, 5) });
  return parsed.data;
}
