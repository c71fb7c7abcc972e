/**
 * Opening sessions on the app-server: create, resume, subscribe (ZCODE-PROTOCOL §4.1, §4.2,
 * §4.7) and folding snapshots into the hub's session state. Concurrent opens of one session
 * share one promise, so a crowd of clients attaching at once costs the child one resume.
 */
import { settingsPatchSchema } from '../acp/zcode-event-schema.js';
import type { KnownModel } from '../acp/translate-state.js';
import { conversationTopic } from '../acp/v4-frame.js';
import { HubError } from '../errors.js';
import { BackendRpcError } from '../ports/backend-port.js';
import { toHubError } from '../backend-errors.js';
import type { HubCore } from './hub-core.js';
import type { SessionState } from './session-state.js';
import { snapshotSchema, subscribeResultSchema, type Snapshot } from './snapshot-schema.js';

/** Delivery kind the hub subscribes with; its seq space is the one `lastZSeq` tracks (§5.2). */
export const DELIVERY_KIND = 'web-remote-replayable';

/** Replays ZCode events (subscribe backlog) through the normal ingestion path. */
export type EventSink = (session: SessionState, params: unknown) => void;

/** Creates, resumes and subscribes sessions. */
export class SessionOpener {
  private readonly inflight = new Map<string, Promise<SessionState>>();
  /** Backend epoch whose child answered -32601 to `v4/conversation/subscribe`. */
  private v4TitlesUnsupported = 0;

  constructor(
    private readonly core: HubCore,
    private readonly ingest: EventSink,
  ) {}

  /** `session/create` + subscribe; returns the new session's state. */
  async create(p: { cwd: string; mode?: string; model?: { providerId: string; modelId: string }; thoughtLevel?: string }): Promise<SessionState> {
    // An existing directory inside a workspace root, symlinks resolved; the real path goes to the child (issue 11 item 2).
    const cwd = await this.core.roots.resolve(p.cwd);
    const params = {
      workspace: { workspacePath: cwd, workspaceKey: cwd },
      mode: p.mode ?? this.core.config.defaultMode,
      ...(p.model === undefined ? {} : { model: { providerId: p.model.providerId, modelId: p.model.modelId } }),
      ...(p.thoughtLevel === undefined ? {} : { thoughtLevel: p.thoughtLevel }),
    };
    let raw: unknown;
    try {
      raw = await this.core.backend.request('session/create', params, { timeoutMs: this.core.config.limits.sessionOpenTimeoutMs });
    } catch (err) {
      throw toHubError(err);
    }
    const snap = parseSnapshot(raw);
    const session = this.core.ensureSession(snap.session.sessionId, cwd);
    this.apply(session, snap, true);
    await this.subscribe(session);
    return session;
  }

  /**
   * Makes sure a session is known and its live events flow: no request at all when it is
   * already subscribed (REC-03), else resume + subscribe, shared between concurrent callers.
   */
  open(sessionId: string): Promise<SessionState> {
    const known = this.core.findSession(sessionId);
    if (known?.subscribed) return Promise.resolve(known);
    let p = this.inflight.get(sessionId);
    if (!p) {
      p = this.resumeAndSubscribe(sessionId).finally(() => this.inflight.delete(sessionId));
      this.inflight.set(sessionId, p);
    }
    return p;
  }

  /** `open`, to give the session work: one left outside the workspace roots (they changed) is watched, not prompted (issue 11 item 2). */
  async openForWork(sessionId: string): Promise<SessionState> {
    const session = await this.open(sessionId);
    await this.core.roots.checkSession(session.cwd);
    return session;
  }

  /** After a backend restart or a link-side resume: subscribe again from the last seq (§11.10). */
  async resubscribe(session: SessionState, resumeFirst: boolean): Promise<void> {
    session.subscribed = false;
    if (resumeFirst) {
      await this.open(session.sessionId);
      return;
    }
    await this.subscribe(session);
  }

  private async resumeAndSubscribe(sessionId: string): Promise<SessionState> {
    let raw: unknown;
    try {
      raw = await this.core.backend.request('session/resume', { sessionId }, { timeoutMs: this.core.config.limits.sessionOpenTimeoutMs, noResumeRetry: true });
    } catch (err) {
      throw toHubError(err);
    }
    const snap = parseSnapshot(raw);
    const session = this.core.ensureSession(sessionId, snap.session.workspace?.workspacePath ?? this.core.config.workspace);
    this.apply(session, snap, true);
    await this.subscribe(session);
    return session;
  }

  /**
   * `session/subscribe` with `afterSeq` = the last ZCode seq seen. When the server's counter
   * went backwards (restart, close, eviction — §5.2) the log was reset: take the snapshot, reset
   * the watermark and start a new epoch for this session's journal (HUB-DESIGN §4.2).
   */
  private async subscribe(session: SessionState): Promise<void> {
    const afterSeq = session.lastZSeq;
    let raw: unknown;
    try {
      // No watermark yet (first open): follow live only; the past comes from session/messages.
      const params = afterSeq > 0 ? { afterSeq, includeSnapshot: true } : {};
      raw = await this.core.backend.request('session/subscribe', { sessionId: session.sessionId, deliveryKind: DELIVERY_KIND, ...params });
    } catch (err) {
      throw toHubError(err);
    }
    const result = subscribeResultSchema.parse(raw);
    session.subscribed = true;
    this.followTitles(session);
    if (afterSeq === 0) {
      session.lastZSeq = Math.max(session.lastZSeq, result.eventSeq);
      return;
    }
    if (result.eventSeq < afterSeq) {
      session.lastZSeq = 0;
      session.seqResets += 1;
      session.journal.setEpoch(`${this.core.epoch}.${session.seqResets}`);
      const snap = snapshotSchema.safeParse(result.snapshot);
      if (snap.success) this.apply(session, snap.data, false);
      // Events of the new seq space up to eventSeq are history now; follow live from here.
      session.lastZSeq = result.eventSeq;
      return;
    }
    for (const event of result.events) this.ingest(session, event);
  }

  /**
   * Newer CLIs send generated titles only in v4 frames (seed 001 §9.7): subscribe the session's
   * v4 conversation topic once per child, in the background (the frames are read for the title
   * only, event-ingest.ts). A CLI without it (-32601) is remembered and not asked again.
   */
  private followTitles(session: SessionState): void {
    const epoch = this.core.backendEpoch;
    if (this.v4TitlesUnsupported === epoch || session.titleFeedEpoch === epoch) return;
    session.titleFeedEpoch = epoch;
    const params = { topic: conversationTopic(session.sessionId), connectionId: 'zcode-hub', clientMode: 'desktop-continuous' };
    this.core.backend.request('v4/conversation/subscribe', params, { noResumeRetry: true }).catch((err: unknown) => {
      if (session.titleFeedEpoch === epoch) session.titleFeedEpoch = 0;
      if (err instanceof BackendRpcError && err.code === -32601) this.v4TitlesUnsupported = epoch;
      else this.core.logger.warn({ err, sessionId: session.sessionId }, 'v4 conversation subscribe failed; generated titles may not arrive');
    });
  }

  /** Folds a snapshot into the session state. `full` snapshots list every model (§3.6). */
  apply(session: SessionState, snap: Snapshot, full: boolean): void {
    session.title = snap.session.title;
    session.appArchived = snap.session.archivedAt !== undefined;
    if (snap.session.workspace?.workspacePath) session.cwd = snap.session.workspace.workspacePath;
    session.settings = snap.settings;
    if (full && snap.settings.model?.available) session.allModels = snap.settings.model.available as KnownModel[];
    // A turn the child runs that this hub did not start (e.g. after a hub restart); told on attach.
    if (snap.runtime.activeTurnId && !session.turn.active) session.turn.bind(snap.runtime.activeTurnId, true);
    session.touch();
  }

  /** Applies a Settings object (mutation snapshots and `state.updated` patches). */
  applySettings(session: SessionState, settings: unknown): void {
    const parsed = settingsPatchSchema.safeParse(settings);
    if (parsed.success) session.settings = { ...session.settings, ...parsed.data };
  }
}

/** Parses a snapshot result; a malformed one is a backend error, not a crash. */
export function parseSnapshot(raw: unknown): Snapshot {
  const parsed = snapshotSchema.safeParse(raw);
  if (!parsed.success) throw new HubError('HUB_ERR_BACKEND', 'The agent returned an unexpected session snapshot', { issues: parsed.error.issues.slice(0, 5) });
  return parsed.data;
}
