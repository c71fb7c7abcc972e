/**
 * State and outbound helpers shared by the hub's flows (attach/replay, prompts, interactions,
 * event ingestion). It owns the session map, the connected clients, the epoch and the one
 * broadcaster, and knows how to turn a domain fact into frames for the right clients.
 */
import { randomBytes } from 'node:crypto';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Identity } from '../auth/identity.js';
import type { AuditSink } from './people/audit-sink.js';
import type { Rule } from '../policy/rule-schema.js';
import type { HubConfig } from '../config/schema.js';
import { turnEndedUpdate } from '../acp/turn-ended.js';
import type { BackendLifecycle } from '../ports/backend-port.js';
import type { AppServer } from '../app-server/client.js';
import { HubError } from '../errors.js';
import type { WorkspaceRoots } from '../fs/workspace-roots.js';
import type { Logger } from '../logger.js';
import { Broadcaster, type Attachment } from './delivery/broadcast.js';
import type { ClientPort, ProfileNotice } from './delivery/client-port.js';
import type { Frame } from './delivery/frame.js';
import { InteractionRegistry } from './interactions/interactions.js';
import type { SessionMarks, SessionPreview } from './sessions/session-marks.js';
import { noteEmitted, restoreKept } from './sessions/emitted-update.js';
import { liveSummary } from './sessions/session-listing.js';
import { SessionState, sessionLimits } from './sessions/session-state.js';
import { SessionStatePublisher } from './sessions/session-state-publisher.js';
import type { RestoredTurn, TurnRecords } from './prompts/turn-record.js';
import { AuthorBook } from './people/author-book.js';
import type { TaskOutputFiles } from './prompts/task-output-files.js';
import { recordFrame, recordHooks, restoreTurn } from './prompts/turn-restore.js';
import { ZCODE_NOTIFICATION } from '../zcode-ext/methods.js';
import type { NotificationParams, SessionStateParams, TurnStateParams } from '../zcode-ext/schemas.js';
import { presenceList, turnStateParams, type PresenceEntry } from './sessions/session-views.js';

export interface HubDeps {
  /** The link's lifecycle and notifications (its calls go through `appServer`). */
  backend: BackendLifecycle;
  /** The typed client of the app-server: every call the domain makes. */
  appServer: AppServer;
  config: HubConfig;
  logger: Logger;
  /** Where sessions may work: the one instance the composition root builds (REST checks the same). */
  roots: WorkspaceRoots;
  /** Archive flags and last-message previews: the one instance the composition root builds. */
  marks: SessionMarks;
  audit?: AuditSink;
  /** Running-turn records in the state dir (kept across a hub restart); none in tests that need no disk. */
  records?: TurnRecords;
  /** Who sent each prompt and answered each interaction (replay); in memory only when not given. */
  authors?: AuthorBook;
  /** Background tasks' kept output in the state dir (kept across a hub restart); in memory only when not given. */
  taskFiles?: TaskOutputFiles;
  /** The approval rules in force (src/policy/policy-store.ts), read for every interaction; none = ask every operator. */
  policy?: { readonly rules: readonly Rule[] };
}

/** The `_zcode/session_state` notification (docs/CLIENT-PROTOCOL.md), as its schema defines it. */
export type SessionStateSummary = SessionStateParams;

/** The shared core of the hub. */
export class HubCore {
  private readonly sessions = new Map<string, SessionState>();
  private readonly clients = new Map<string, ClientPort>();
  readonly interactions: InteractionRegistry;
  readonly broadcaster: Broadcaster;
  readonly backend: BackendLifecycle;
  readonly app: AppServer;
  readonly config: HubConfig;
  readonly logger: Logger;
  /** Where sessions may work. */
  readonly roots: WorkspaceRoots;
  /** Archive flags and last-message previews (session-marks.ts). */
  readonly marks: SessionMarks;
  private readonly auditSink: AuditSink | undefined;
  readonly records: TurnRecords | undefined;
  readonly authors: AuthorBook;
  readonly taskFiles: TaskOutputFiles | undefined;
  /** Records the previous run left, taken by each session as the hub learns it. */
  private readonly restored: Map<string, RestoredTurn>;
  /** `_zcode/session_state` to every client (batched) and the listeners (push notifications watch its transitions), once per change. */
  readonly sessionStates: SessionStatePublisher<SessionStateSummary>;
  /** New on every hub start; the epoch also changes with every backend (re)spawn. */
  private readonly startId = randomBytes(4).toString('hex');
  backendEpoch: number;

  constructor(deps: HubDeps) {
    this.backend = deps.backend;
    this.app = deps.appServer;
    this.config = deps.config;
    this.logger = deps.logger;
    this.roots = deps.roots;
    this.marks = deps.marks;
    this.auditSink = deps.audit;
    this.records = deps.records;
    this.authors =
      deps.authors ??
      new AuthorBook({ max: deps.config.limits.authorsMax, flushMs: deps.config.limits.turnRecordFlushMs, logger: deps.logger });
    this.taskFiles = deps.taskFiles;
    this.restored = deps.records?.loadAll() ?? new Map();
    this.backendEpoch = deps.backend.status().epoch;
    this.broadcaster = new Broadcaster(deps.config.limits.journalMaxUpdates);
    const toClients = (s: SessionStateSummary) => this.notifyAll(ZCODE_NOTIFICATION.sessionState, s);
    this.sessionStates = new SessionStatePublisher(toClients, deps.logger, deps.config.limits.sessionStateBatchMs, this.sessions);
    this.interactions = new InteractionRegistry({
      maxPendingPerSession: deps.config.limits.pendingInteractionsPerSession,
      maxSettledKept: deps.config.limits.settledInteractionsKept,
    });
  }

  /** The hub epoch (ARCHITECTURE.md §4.2): changes on hub start and on every backend restart. */
  get epoch(): string {
    return `${this.startId}-${this.backendEpoch}`;
  }

  /** The session, or HUB_ERR_SESSION_NOT_FOUND. */
  session(sessionId: string): SessionState {
    const s = this.sessions.get(sessionId);
    if (!s) throw new HubError('HUB_ERR_SESSION_NOT_FOUND', `Session not found: ${sessionId}`);
    return s;
  }

  /** The session if the hub knows it. */
  findSession(sessionId: string): SessionState | undefined {
    return this.sessions.get(sessionId);
  }

  /** Every session the hub knows, in the order it learnt them. */
  allSessions(): IterableIterator<SessionState> {
    return this.sessions.values();
  }

  /** How many sessions the hub knows. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** The session, created empty when the hub did not know it yet. */
  ensureSession(sessionId: string, cwd: string): SessionState {
    let s = this.sessions.get(sessionId);
    if (!s) {
      const limits = sessionLimits(this.config.limits);
      const records = this.records;
      const created: SessionState = new SessionState(sessionId, cwd, limits, this.epoch, {
        publish: () => this.publishTurnState(created),
        announce: (ended) => this.emitUpdate(created, turnEndedUpdate(ended)),
        // Every turn's end, a completed one too: its last message is known now (one write per
        // turn, not per chunk). Only failed and interrupted turns announce, so the write is not hung on that.
        settled: () => this.flushMarks(),
        toolsEnded: (close) => {
          for (const update of created.openTools.end(close)) this.emitUpdate(created, update);
        },
        ...(records === undefined ? {} : { tail: recordHooks(records, sessionId) }),
      });
      s = created;
      this.sessions.set(sessionId, s);
      restoreKept(this, created);
      const restored = this.restored.get(sessionId);
      if (restored && records) {
        this.restored.delete(sessionId);
        restoreTurn(this, created, restored, records);
      }
    }
    return s;
  }

  /**
   * Drops the hub's copy of sessions (they were deleted), and everything it keeps about them in
   * the state dir: their marks, turn records, background task output, and the authors and
   * overwrite marks of their prompts and tool calls (each file written once).
   */
  forgetSessions(sessionIds: ReadonlySet<string>): void {
    for (const id of sessionIds) {
      this.sessions.delete(id);
      this.restored.delete(id);
      this.records?.forget(id);
      this.taskFiles?.drop(id);
    }
    this.marks.forget(sessionIds);
    this.authors.forgetSessions(sessionIds);
  }

  /** The sessions the state dir keeps something about (marks, authors, task output, a turn record left by the last run). */
  keptSessionIds(): Set<string> {
    return new Set([
      ...this.marks.sessionIds(),
      ...this.authors.sessionIds(),
      ...(this.taskFiles?.storedSessionIds() ?? []),
      ...this.restored.keys(),
    ]);
  }

  /** Writes pending marks (at a turn's end, and when the hub stops: a usage noted after the end is kept too); a failed write is logged, never thrown into a turn. */
  flushMarks(): void {
    try {
      this.marks.flush();
    } catch (err) {
      this.logger.warn({ err }, 'could not write session-marks.ndjson');
    }
  }

  /** A connection authenticated: it hears connection-wide notifications from now on. */
  addClient(client: ClientPort): void {
    this.clients.set(client.clientId, client);
  }

  /** A connection closed. */
  removeClient(clientId: string): void {
    this.clients.delete(clientId);
  }

  /** How many connections are open. */
  get clientCount(): number {
    return this.clients.size;
  }

  /**
   * Journals one ACP update (seq, epoch) and sends the one serialized frame to every attached
   * client — except `exceptClientId` (the prompt echo goes to the *other* clients, §4.4), which
   * gets only the seq.
   */
  emitUpdate(session: SessionState, update: SessionUpdate, exceptClientId?: string, extraMeta?: Record<string, unknown>): void {
    const journal = session.journal;
    let frame: Frame;
    try {
      frame = journal.append((seq, epoch) =>
        this.broadcaster.serialize('session/update', {
          sessionId: session.sessionId,
          update,
          _meta: { zcode: { seq, epoch, ...extraMeta } },
        }),
      );
    } catch (err) {
      // Never let one unserializable update stop the caller half-way (a turn left
      // `running` forever). The journal is unchanged when its builder throws, so seqs stay gap-free.
      this.unsendable(err, session.sessionId, 'session/update');
      return;
    }
    // Its position, read now: a delivery below may close a client, and its leaving may journal another update.
    const seq = journal.lastSeq;
    const epoch = journal.epoch;
    if (this.records?.recording(session.sessionId)) recordFrame(this.records, session, frame);
    if (exceptClientId === undefined) {
      // The stream's case: the session's list of live clients, no attachment read on the way (attachments.ts).
      const to = session.attachments.fanOut();
      for (const a of to.replaying) this.broadcaster.deliver(a, frame);
      for (const client of to.live) this.broadcaster.sendNow(client, frame);
    } else {
      let own: Frame | undefined;
      for (const a of session.attachments.values()) {
        if (a.client.clientId !== exceptClientId) {
          this.broadcaster.deliver(a, frame);
        } else {
          // The prompter already shows its own prompt; it gets the seq without the content, so its
          // seq stream stays gap-free (docs/CLIENT-PROTOCOL.md `_zcode/own_update`).
          const zcode = { seq, epoch, ...extraMeta };
          own ??= this.broadcaster.serialize(ZCODE_NOTIFICATION.ownUpdate, { sessionId: session.sessionId, _meta: { zcode } });
          this.broadcaster.deliver(a, own);
        }
      }
    }
    noteEmitted(this, session, update);
    session.touch();
  }

  /** A non-journaled notification to every client attached to a session (one serialization). */
  notifySession<M extends string>(
    session: SessionState,
    method: M,
    params: NotificationParams<M>,
    filter?: (a: Attachment) => boolean,
  ): void {
    let frame: Frame | undefined;
    for (const a of session.attachments.values()) {
      if (filter && !filter(a)) continue;
      try {
        frame ??= this.broadcaster.serialize(method, params);
      } catch (err) {
        this.unsendable(err, session.sessionId, method);
        return;
      }
      this.broadcaster.deliver(a, frame);
    }
  }

  /** Logs a notification that could not be serialized (it is dropped; the caller goes on). */
  private unsendable(err: unknown, sessionId: string, method: string): void {
    this.logger.error(
      { sessionId, method, error: err instanceof Error ? err.message : String(err) },
      'a notification could not be serialized; dropped',
    );
  }

  /** A notification to every connected client. */
  notifyAll<M extends string>(method: M, params: NotificationParams<M>): void {
    if (this.clients.size === 0) return;
    let frame: Frame;
    try {
      frame = this.broadcaster.serialize(method, params);
    } catch (err) {
      this.unsendable(err, '', method);
      return;
    }
    for (const c of this.clients.values()) this.broadcaster.sendNow(c, frame);
  }

  /**
   * A notice some client profiles render as a notification of their own (the gateway's profile
   * code shapes it, client-port.ts); delivered in order with the session's other frames.
   */
  notifyProfiles(session: SessionState, notice: ProfileNotice, only?: ClientPort): void {
    for (const a of session.attachments.values()) {
      if (only !== undefined && a.client !== only) continue;
      const frame = a.client.profileFrame?.(notice);
      if (frame === undefined) continue;
      if (only !== undefined) this.broadcaster.sendNow(a.client, frame);
      else this.broadcaster.deliver(a, frame);
    }
  }

  /** `_zcode/turn_state` (and each profile's own turn notice) to the session's clients; the Turn calls it. */
  private publishTurnState(session: SessionState): void {
    this.notifySession(session, ZCODE_NOTIFICATION.turnState, this.turnStateParams(session));
    this.notifyProfiles(session, { type: 'turn_state', sessionId: session.sessionId, running: this.busy(session) });
    this.publishSessionState(session);
  }

  /** The turn state to one (just attached) client only. */
  sendTurnState(session: SessionState, client: ClientPort): void {
    this.broadcaster.sendNow(client, this.broadcaster.serialize(ZCODE_NOTIFICATION.turnState, this.turnStateParams(session)));
    this.notifyProfiles(session, { type: 'turn_state', sessionId: session.sessionId, running: this.busy(session) }, client);
  }

  /**
   * A session is busy while a turn runs or a prompt of it is running or waiting: a client that
   * only has an on/off indicator must not see "off" while its prompt is queued behind another.
   */
  busy(session: SessionState): boolean {
    return session.turn.active || session.queue.running !== undefined || session.queue.queued.length > 0;
  }

  /** `_zcode/turn_state` params (docs/CLIENT-PROTOCOL.md). */
  turnStateParams(session: SessionState): TurnStateParams {
    return turnStateParams(session);
  }

  /** `_zcode/session_state` to every connected client (live session lists), unless nothing in it changed (session-state-publisher.ts). */
  publishSessionState(session: SessionState): void {
    this.sessionStates.publish(session, this.sessionSummary(session));
  }

  /** `_zcode/presence`: who is attached to a session. */
  publishPresence(session: SessionState): void {
    this.notifySession(session, ZCODE_NOTIFICATION.presence, {
      sessionId: session.sessionId,
      clients: this.presenceList(session),
    });
  }
  /** Who is attached to a session, with the multi-client draft role each one holds. */
  presenceList(session: SessionState): PresenceEntry[] {
    return presenceList(session);
  }

  /** The `_zcode/session_state` shape (session-listing.ts). */
  sessionSummary(session: SessionState): SessionStateSummary {
    return liveSummary(this, session);
  }

  /** `{preview}` when the hub has seen a message of the session. */
  previewOf(sessionId: string): { preview?: SessionPreview } {
    const preview = this.marks.preview(sessionId);
    return preview === undefined ? {} : { preview };
  }

  /** Appends to the audit log when one is configured; a connected client's own `clientInfo.name` is kept beside its identity. */
  audit(
    by: Identity | Pick<ClientPort, 'identity' | 'clientName'>,
    action: Parameters<AuditSink>[0]['action'],
    sessionId?: string,
    detail?: Record<string, unknown>,
  ): void {
    if (!this.auditSink) return;
    const identity = 'identity' in by ? by.identity : by;
    const client = 'identity' in by ? by.clientName : undefined;
    try {
      this.auditSink({
        identity,
        ...(client === undefined ? {} : { client }),
        action,
        ...(sessionId === undefined ? {} : { sessionId }),
        ...(detail === undefined ? {} : { detail }),
      });
    } catch (err) {
      this.logger.warn({ err }, 'audit sink failed');
    }
  }
}
