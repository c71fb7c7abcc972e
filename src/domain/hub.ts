/**
 * The Hub: the domain's one entry point for the gateway and the REST routes (ARCHITECTURE.md §4).
 * A thin façade; the work lives in the flows it wires: session-open (create/resume/subscribe),
 * session-attach (attach, replay, detach), prompt-flow (queue, cancel), interaction-flow (the
 * race), session-commands (settings, rename, fork, …) and event-ingest (child notifications
 * and status).
 */
import type { ContentBlock, SessionConfigOption, SessionModeState, SessionUpdate } from '@agentclientprotocol/sdk';
import { modeState } from '../acp/translate-state.js';
import { scopeAllows, type Identity } from '../auth/identity.js';
import { HubError } from '../errors.js';
import type { BackendStatus } from '../ports/backend-port.js';
import type { ClientPort } from './delivery/client-port.js';
import { EventIngest } from './event-ingest.js';
import { HubCore, type HubDeps, type SessionStateSummary } from './hub-core.js';
import { InteractionFlow } from './interactions/interaction-flow.js';
import type { InteractionView } from './interactions/interactions.js';
import { givePartialAnswer, type AnswerCaller, type PartialAnswerInput } from './interactions/partial-answer-flow.js';
import { PromptFlow } from './prompts/prompt-flow.js';
import type { PromptAnswer } from './prompts/prompt-queue.js';
import { SessionAttach, type AttachOptions, type ReplayMeta } from './sessions/session-attach.js';
import { deleteSession } from './sessions/session-delete.js';
import { SessionOpener } from './sessions/session-open.js';
import { SessionCommands, type ConfigId } from './sessions/session-commands.js';
import type { SessionState } from './sessions/session-state.js';
import { PromptAdmission } from './prompts/prompt-admission.js';
import type { JournalEvents } from './sessions/journal.js';

export type { AuditSink } from './people/audit-sink.js';
export type { ReplayMeta } from './sessions/session-attach.js';
export type { InteractionView } from './interactions/interactions.js';
export type { RestAnswerBody as RestAnswer } from '../acp/interactions.js';
import type { RestAnswerBody as RestAnswer } from '../acp/interactions.js';
import { ZCODE_NOTIFICATION } from '../zcode-ext/methods.js';
import type { GrantKeeper } from './interactions/always-keeper.js';

/** What `session/new`, `session/load` and `session/resume` return. */
export interface SessionOpened {
  sessionId: string;
  modes: SessionModeState;
  configOptions: SessionConfigOption[];
  /** Journal position and epoch after the replay (`_meta.zcode`). */
  seq: number;
  epoch: string;
}

export type { SessionSummary } from './sessions/session-listing.js';
import { archiveSession, listSessions, type SessionSummary } from './sessions/session-listing.js';
import { backendStateParams } from './sessions/session-views.js';

/** The hub. */
export class Hub {
  private readonly core: HubCore;
  private readonly opener: SessionOpener;
  private readonly attacher: SessionAttach;
  private readonly commands: SessionCommands;
  private readonly prompts: PromptFlow;
  private readonly interactionFlow: InteractionFlow;
  private readonly grants: GrantKeeper | undefined;
  private readonly ingest: EventIngest;
  private readonly unsubscribe: Array<() => void> = [];
  private readonly admission = new PromptAdmission();
  private closing: Promise<void> | undefined;

  /** `grants`: the "always allow" grants the hub keeps (src/policy/grant-store.ts); none = an "always" answer goes to the agent as it is. */
  constructor(deps: HubDeps & { grants?: GrantKeeper }) {
    this.core = new HubCore(deps);
    this.grants = deps.grants;
    this.interactionFlow = new InteractionFlow(this.core, deps.policy, deps.grants);
    this.prompts = new PromptFlow(this.core, { cancelInteractions: (s, by) => this.interactionFlow.cancelSession(s, by) });
    this.ingest = new EventIngest(this.core, this.prompts, this.interactionFlow, () => this.opener);
    this.opener = new SessionOpener(this.core, {
      event: (s, e) => this.ingest.ingestEvent(s, e),
      state: (s, facts) => this.ingest.applyState(s, facts),
    });
    this.commands = new SessionCommands(this.core, this.opener);
    this.attacher = new SessionAttach(this.core, { resendPending: (s, c) => this.interactionFlow.resendPending(s, c) });
  }

  /** Counters: serializations (FAN-03 counts these, not sends), frames and bytes sent. */
  get stats(): Readonly<{ serializations: number; framesSent: number; bytesSent: number }> {
    return this.core.broadcaster.stats;
  }

  /** Sizes read by /metrics at scrape time (nothing is counted on the hot path for it). */
  metricsSnapshot(): { attachedSessions: number; journals: Array<{ updates: number; bytes: number }>; pendingAgesMs: number[] } {
    const now = Date.now();
    const sessions = [...this.core.allSessions()];
    const attachedSessions = sessions.filter((s) => s.attachments.size > 0).length;
    const journals = sessions.map((s) => ({ updates: s.journal.size, bytes: s.journal.retainedBytes }));
    return { attachedSessions, journals, pendingAgesMs: this.core.interactions.pending().map((r) => now - r.view.createdAt) };
  }

  /** Every `_zcode/session_state` the hub publishes (state transitions drive push notifications). */
  onSessionState(listener: (summary: SessionStateSummary) => void): void {
    this.core.sessionStates.onState(listener);
  }

  /** Calls `listener(waitedMs)` when an interaction is answered (for the time-to-answer histogram). */
  onInteractionAnswered(listener: (waitedMs: number) => void): void {
    this.core.interactions.onSettled((record) => {
      if (record.view.state === 'resolved') listener(Date.now() - record.view.createdAt);
    });
  }

  /** Listens to the backend and registers the interaction race as its handler. */
  start(): void {
    const b = this.core.backend;
    b.setInteractionHandler((req) => this.interactionFlow.handle(req));
    this.unsubscribe.push(
      b.onNotification((n) => this.ingest.onNotification(n)),
      b.onStatus((s) => this.ingest.onStatus(s)),
      b.onSessionResumed((id) => this.ingest.onSessionResumed(id)),
    );
  }

  /** Stops listening; pending prompts fail, interactions stay with the (closing) child. Memoised. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const u of this.unsubscribe.splice(0)) u();
      this.interactionFlow.close();
      this.prompts.close();
      this.attacher.close();
      this.core.sessionStates.close();
      this.endPrompts();
      this.core.flushMarks();
      this.core.marks.close();
    })();
    return this.closing;
  }

  /**
   * The hub is about to close its connections: every prompt queued or running is answered now
   * (it fails, saying the hub is shutting down) while its client can still hear it, and any
   * prompt after this fails at once.
   */
  endPrompts(): void {
    this.prompts.end(this.core.allSessions());
  }

  /** A new authenticated connection: it learns the backend state and every session's state. */
  connect(client: ClientPort): void {
    this.core.addClient(client);
    const b = this.core.broadcaster;
    b.sendNow(client, b.serialize(ZCODE_NOTIFICATION.backendState, backendStateParams(this.core.backend.status(), this.core.epoch)));
    for (const session of this.core.allSessions())
      b.sendNow(client, b.serialize(ZCODE_NOTIFICATION.sessionState, this.core.sessionSummary(session)));
  }

  /** A token was given to another person: sessions it is attached to announce their presence again. */
  tokenPersonChanged(tokenId: string): void {
    for (const session of this.core.allSessions())
      if ([...session.attachments.values()].some((a) => a.client.identity.tokenId === tokenId)) this.core.publishPresence(session);
  }

  /** Detaches a closed connection everywhere; never settles or cancels an interaction or a turn. */
  disconnect(clientId: string): void {
    this.attacher.disconnect(clientId);
  }

  /**
   * Creates and subscribes a session nobody is attached to yet (a saved workflow started over
   * REST), so its events are journaled and it shows in every live session list.
   */
  async openSession(cwd: string): Promise<string> {
    const session = await this.opener.create({ cwd });
    this.core.publishSessionState(session);
    return session.sessionId;
  }

  /** `session/new`: creates the ZCode session and attaches the caller. */
  async newSession(
    client: ClientPort,
    p: { cwd: string; mode?: string; model?: { providerId: string; modelId: string }; thoughtLevel?: string },
  ): Promise<SessionOpened> {
    const session = await this.opener.create(p);
    this.core.audit(client, 'session', session.sessionId, { action: 'new', cwd: p.cwd });
    await this.attacher.attach(client, session, { history: false });
    return this.opened(session);
  }

  /** `session/list`: the child's list merged with the hub's live facts; archived only when asked. */
  listSessions(p: { cwd?: string; includeArchived?: boolean }): Promise<SessionSummary[]> {
    return listSessions(this.core, (id) => this.getSession(id), p);
  }

  /** Archives or unarchives a session (the hub's flag, session-marks.ts). */
  archiveSession(sessionId: string, archived: boolean, by: Identity): Promise<SessionSummary> {
    return archiveSession(this.core, (id) => this.getSession(id), sessionId, archived, by);
  }

  /**
   * `session/load` (history: true) and `session/resume` (history: false). Replay frames are
   * sent before this resolves; live frames meanwhile follow the replay; the caller calls
   * deliverPending() once the result is written. `clients` lists who is attached when called (only
   * the draft's attach answers with it: built for every load, a storm of n built n² authors).
   */
  async loadSession(
    client: ClientPort,
    sessionId: string,
    p: AttachOptions,
  ): Promise<SessionOpened & { replayMeta: ReplayMeta; clients: () => ReturnType<HubCore['presenceList']> }> {
    const session = await this.opener.open(sessionId);
    if (p.history) session.markRetired(false);
    const replayMeta = await this.attacher.attach(client, session, p);
    return {
      ...this.opened(session),
      replayMeta: { ...replayMeta, turnActive: session.turn.active },
      clients: () => this.core.presenceList(session),
    };
  }

  /**
   * After the `session/load` / `session/resume` result is queued on the client's socket: its
   * copies of the session's pending interactions, once per connection (ARCHITECTURE.md §4.5).
   */
  deliverPending(client: ClientPort, sessionId: string): void {
    const session = this.core.findSession(sessionId);
    if (session) this.attacher.deliverPending(client, session);
  }

  /** `session/close`: detaches this client only. */
  detach(client: ClientPort, sessionId: string): void {
    const session = this.core.findSession(sessionId);
    if (session) this.attacher.detach(client, session);
  }

  /** `session/prompt`: queued FIFO; resolves at the end of this prompt's own turn (`withdrawn`: PromptFlow.prompt). */
  async prompt(client: ClientPort, sessionId: string, prompt: ContentBlock[], withdrawn?: AbortSignal): Promise<PromptAnswer> {
    this.requireController(client, sessionId);
    // A crash loop needs an admin: say so now rather than queue behind a child that will not come.
    if (this.core.backend.status().state === 'failed') this.prompts.refuseWhileFailed();
    // The checks await I/O: prompts join the FIFO in arrival order (PRM-01), and a cancel from the
    // same client while they run cancels this prompt too (prompt-admission.ts).
    const session = await this.admission.admit(client, sessionId, () => this.opener.openForWork(sessionId));
    if (!session) return { stopReason: 'cancelled', queuedBehind: 0 };
    session.markRetired(false);
    return this.prompts.prompt(client, session, prompt, withdrawn);
  }

  /** `session/cancel`: stops the turn; pending interactions → cancelled; the caller's queued prompts → cancelled. */
  async cancel(client: ClientPort, sessionId: string): Promise<void> {
    this.requireController(client, sessionId);
    this.admission.cancel(client, sessionId);
    await this.prompts.cancel(client, this.core.session(sessionId));
  }

  /** `session/set_mode`. */
  async setMode(client: ClientPort, sessionId: string, modeId: string): Promise<void> {
    await this.setConfigOption(client, sessionId, 'mode', modeId);
  }

  /** `session/set_config_option` for model, mode or thought level; returns the new options. */
  async setConfigOption(
    client: ClientPort,
    sessionId: string,
    configId: ConfigId,
    value: string,
    thoughtLevel?: string,
  ): Promise<SessionConfigOption[]> {
    this.requireController(client, sessionId);
    return this.commands.setConfigOption(client.identity, sessionId, configId, value, thoughtLevel);
  }

  /** `_zcode/load_earlier`: older history before an opaque cursor. */
  async loadEarlier(
    sessionId: string,
    cursor: string | undefined,
    limit?: number,
  ): Promise<{ updates: SessionUpdate[]; cursor?: string; hasMore: boolean }> {
    const session = await this.opener.open(sessionId);
    return this.attacher.loadEarlier(session, cursor, limit);
  }

  /** Pending interactions across sessions (the inbox); with `caller`, each carries `mayAnswer` for that caller. */
  listInteractions(sessionId?: string, caller?: { identity: Identity; local?: boolean }): InteractionView[] {
    return this.interactionFlow.list(sessionId, caller);
  }

  /** REST inbox answer; HUB_ERR_ALREADY_RESOLVED (details.resolvedBy) / HUB_ERR_NOT_FOUND / HUB_ERR_BAD_REQUEST. */
  async answerInteraction(interactionId: string, answer: RestAnswer, by: AnswerCaller): Promise<InteractionView> {
    return this.interactionFlow.answer(interactionId, answer, by);
  }

  /** `_zcode/partial_answer`: one question's answer kept on the hub; the last one answers it all. */
  partialAnswer(interactionId: string, input: PartialAnswerInput, by: AnswerCaller): InteractionView {
    return givePartialAnswer(this.core, this.interactionFlow, interactionId, input, by);
  }

  /** `_zcode/fork`: returns the fork's session id (the fork is active at once, §4.11). */
  fork(client: ClientPort, sessionId: string, target?: unknown): Promise<{ sessionId: string }> {
    this.requireOperate(client.identity);
    return this.commands.fork(sessionId, target);
  }

  /** `_zcode/compact`. */
  compact(client: ClientPort, sessionId: string, instructions?: string): Promise<{ state: unknown }> {
    this.requireOperate(client.identity);
    return this.commands.compact(sessionId, instructions);
  }

  /** `_zcode/goal`. */
  goal(client: ClientPort, sessionId: string, action: string, objective?: string): Promise<{ response: unknown }> {
    this.requireOperate(client.identity);
    return this.commands.goal(sessionId, action, objective);
  }

  /** `_zcode/cancel_background_task`. */
  cancelBackgroundTask(client: ClientPort, sessionId: string, taskId: string): Promise<{ cancelled: boolean; status: unknown }> {
    this.requireOperate(client.identity);
    return this.commands.cancelBackgroundTask(sessionId, taskId);
  }

  /** One session's summary (REST `GET /sessions/{id}`); undefined when the hub does not know it. */
  getSession(sessionId: string): SessionSummary | undefined {
    const s = this.core.findSession(sessionId);
    return s ? this.core.sessionSummary(s) : undefined;
  }

  /** Renames a session (v4 `renameSession`, §7.3). */
  async renameSession(sessionId: string, title: string, by: Identity): Promise<SessionSummary> {
    this.requireOperate(by);
    return this.core.sessionSummary(await this.commands.rename(by, sessionId, title));
  }

  /** Unloads the session's runtime in the child (`session/close`); 409 HUB_ERR_SESSION_BUSY while a turn runs. */
  closeSessionRuntime(sessionId: string, by?: Identity): Promise<void> {
    return this.commands.closeRuntime(sessionId, by);
  }

  /**
   * zcode-acp-remote's "Close session" (its ADR 0006, ARCHITECTURE.md §5.1): the runtime is unloaded
   * and the session leaves the app's discovery until it is used again; nothing is deleted.
   */
  async retireSession(sessionId: string, by?: Identity): Promise<void> {
    await this.closeSessionRuntime(sessionId, by);
    this.core.session(sessionId).markRetired(true);
  }

  /** True while a session closed from zcode-acp-remote has not been used again. */
  isRetired(sessionId: string): boolean {
    return this.core.findSession(sessionId)?.retiredFromDiscovery === true;
  }

  /** What the state dir keeps per session, for forgetting sessions deleted while the hub was down (the grants aside). */
  get kept(): Pick<HubCore, 'keptSessionIds' | 'forgetSessions' | 'findSession'> {
    return this.core;
  }

  /** `session/delete` (session-delete.ts): gone from the agent's store and from every client's list. */
  async deleteSession(sessionId: string, by: { identity: Identity; clientId?: string; client?: string }): Promise<void> {
    await deleteSession(
      this.core,
      {
        open: (id) => this.opener.open(id),
        cancelInteractions: (s, who) => this.interactionFlow.cancelSession(s, who),
        forgetElsewhere: (ids) => this.grants?.forgetSessions(ids),
      },
      sessionId,
      by,
    );
  }

  /** Journaled updates after `afterSeq` (REST `/sessions/{id}/events`). */
  events(sessionId: string, afterSeq: number, limit = this.core.config.limits.replayMaxMessages): JournalEvents {
    return this.core.session(sessionId).journal.events(afterSeq, limit);
  }

  /** Counts for `/api/status` and `/metrics`. */
  status(): { sessions: number; clients: number; pendingInteractions: number; backend: BackendStatus; epoch: string } {
    return {
      sessions: this.core.sessionCount,
      clients: this.core.clientCount,
      pendingInteractions: this.core.interactions.pendingCount(),
      backend: this.core.backend.status(),
      epoch: this.core.epoch,
    };
  }

  private opened(session: SessionState): SessionOpened {
    return {
      sessionId: session.sessionId,
      modes: modeState(session.mode),
      configOptions: session.configOptions(),
      seq: session.journal.lastSeq,
      epoch: session.journal.epoch,
    };
  }

  private requireOperate(identity: Identity): void {
    if (!scopeAllows(identity.scope, 'operate')) throw new HubError('HUB_ERR_FORBIDDEN');
  }

  /** `operate` scope, and not attached to this session as an observer (multi-client draft roles). */
  private requireController(client: ClientPort, sessionId: string): void {
    if (this.core.findSession(sessionId)?.attachments.get(client.clientId)?.role === 'observer')
      throw new HubError('HUB_ERR_FORBIDDEN', 'Attached to this session as an observer');
    this.requireOperate(client.identity);
  }
}
