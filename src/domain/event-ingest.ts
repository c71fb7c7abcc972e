/**
 * Event ingestion: backend notifications and status changes into domain state and broadcasts.
 * `session/event` is translated once (src/acp) and each ACP update journaled and broadcast
 * once (ARCHITECTURE.md §4.3); `state.updated` drives settings and the prompt queue's ready
 * boundary (APP-SERVER.md §5.8, §11.6); a backend (re)spawn starts a new epoch, marks pending
 * interactions `lost` and resubscribes live sessions (§3, §4.2).
 */
import { configOptionUpdate, stateFacts, type StateFacts } from '../acp/translate-state.js';
import { translateRawEvent } from '../acp/translate-event.js';
import { titleFromFrame } from '../acp/v4-frame.js';
import type { TurnSignal } from '../acp/translation-context.js';
import { assertNever } from '../errors.js';
import type { BackendNotification, BackendStatus } from '../ports/backend-port.js';
import type { HubCore } from './hub-core.js';
import type { InteractionFlow } from './interactions/interaction-flow.js';
import type { BackendLoss, PromptFlow } from './prompts/prompt-flow.js';
import { DELIVERY_KIND, type SessionOpener } from './sessions/session-open.js';
import type { SessionState } from './sessions/session-state.js';
import { ZCODE_NOTIFICATION } from '../zcode-ext/methods.js';
import { backendStateParams } from './sessions/session-views.js';

/**
 * The two fields ingestion needs before translating (the translator validates the rest once):
 * a plain check rather than a schema, since it runs for every event of every session.
 */
function eventHead(params: unknown): { sessionId: string; seq: number } | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { sessionId, seq } = params as { sessionId?: unknown; seq?: unknown };
  if (typeof sessionId !== 'string' || sessionId === '' || typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) return undefined;
  return { sessionId, seq };
}

/** True for an event of a delivery kind other than the hub's (its seq counts another space). */
function otherDeliveryKind(params: unknown): boolean {
  const kind = typeof params === 'object' && params !== null ? (params as { deliveryKind?: unknown }).deliveryKind : undefined;
  return typeof kind === 'string' && kind !== DELIVERY_KIND;
}

/** A failed `turn.terminal` telemetry event (§5.8): its session and error, else undefined. */
function telemetryFailure(params: unknown): { sessionId: string; error: { type: string; message: string; code?: string } } | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const p = params as Record<string, unknown>;
  if (
    p['kind'] !== 'turn.terminal' ||
    p['status'] !== 'failed' ||
    typeof p['sessionId'] !== 'string' ||
    typeof p['errorMessage'] !== 'string' ||
    p['errorMessage'] === ''
  )
    return undefined;
  const code = typeof p['errorCode'] === 'string' ? { code: p['errorCode'] } : {};
  return {
    sessionId: p['sessionId'],
    error: { type: typeof p['turnPhase'] === 'string' ? p['turnPhase'] : 'turn_terminal', message: p['errorMessage'], ...code },
  };
}

/** Turns child notifications into hub facts. */
export class EventIngest {
  private lastState: string | undefined;
  /** Backend epoch whose child was already declared gone (its turns failed, interactions lost). */
  private lostEpoch = 0;
  /** Backend epoch of the last child that reported `ready`. */
  private readyEpoch = 0;

  constructor(
    private readonly core: HubCore,
    private readonly prompts: PromptFlow,
    private readonly interactions: InteractionFlow,
    private readonly opener: () => SessionOpener,
  ) {}

  /** Every notification from the child, in order. */
  onNotification(n: BackendNotification): void {
    switch (n.method) {
      case 'session/event': {
        // Seq spaces are per delivery kind (§5.2): another kind's events would corrupt the watermark.
        if (otherDeliveryKind(n.params)) return;
        const head = eventHead(n.params);
        const session = head && this.core.findSession(head.sessionId);
        if (session) this.ingest(session, head.seq, n.params);
        return;
      }
      case 'state.updated':
        this.ingestState(n.params);
        return;
      case 'v4/telemetry/event': {
        // A refusal before any turn event shows its reason only here (§5.8, APP-SERVER.md §14.3).
        const t = telemetryFailure(n.params);
        const session = t && this.core.findSession(t.sessionId);
        if (t && session) this.prompts.onTerminalFailure(session, t.error);
        return;
      }
      case 'v4/conversation/frame': {
        // Read for the title only: newer CLIs send generated titles nowhere else (APP-SERVER.md §14.4).
        const t = titleFromFrame(n.params);
        const session = t && this.core.findSession(t.sessionId);
        if (t && session && t.title !== session.title) {
          this.core.emitUpdate(session, { sessionUpdate: 'session_info_update', title: t.title, updatedAt: new Date().toISOString() });
          this.onSignal(session, { type: 'title_changed', title: t.title, ...(t.source === undefined ? {} : { source: t.source }) });
        }
        return;
      }
      default:
        // Telemetry, storage state …: ignorable (§5.8, §11.25).
        return;
    }
  }

  /** One `session/event` (live or subscribe backlog); duplicates by seq are dropped (§5.2). */
  ingestEvent(session: SessionState, params: unknown): void {
    const head = eventHead(params);
    if (head) this.ingest(session, head.seq, params);
  }

  private ingest(session: SessionState, seq: number, params: unknown): void {
    // Held while a subscribe's answer is on its way (its backlog comes first, session-open.ts); seen ones count once.
    if (session.subscription.take(seq, params) !== 'new') return;
    const result = translateRawEvent(params, session.translation);
    // Field names and types only, never values (they may hold user content).
    if (result.dropped)
      this.core.logger.warn(
        {
          sessionId: session.sessionId,
          seq,
          type: result.dropped.type,
          dropped: result.dropped.fields,
          wholeEvent: result.dropped.wholeEvent,
        },
        result.dropped.wholeEvent ? 'an agent event could not be read and was dropped' : 'dropped unreadable fields of an agent event',
      );
    for (const update of result.updates) this.core.emitUpdate(session, update);
    for (const signal of result.signals) this.onSignal(session, signal);
  }

  /** Backend status changes: `_zcode/backend_state` to everyone; a new spawn is a new epoch. */
  onStatus(status: BackendStatus): void {
    // The child is gone (crashed, crash loop, stopped): its running turns and pending
    // interactions end now, not at the respawn, which may be seconds away or never (`failed`).
    // `restarting` is also reported while the *next* child spawns under its new epoch: only a
    // child that was ready can be gone (else a crash loop's last exit went unnoticed).
    if (status.state === 'ready') this.readyEpoch = status.epoch;
    const gone = status.state === 'restarting' || status.state === 'failed' || status.state === 'stopped';
    if (gone && status.epoch === this.readyEpoch && this.lostEpoch !== status.epoch)
      this.onChildGone(status.epoch, { state: status.state as BackendLoss['state'] });
    // A child that died before it was ready may still have had work: the link names the epoch
    // that exited, so that work is answered now rather than when the next child spawns.
    const exited = status.lastExit?.epoch;
    if (exited !== undefined && exited > this.lostEpoch)
      this.onChildGone(exited, { state: gone ? (status.state as BackendLoss['state']) : 'restarting' });
    if (status.epoch !== this.core.backendEpoch) {
      const previous = this.core.backendEpoch;
      this.core.backendEpoch = status.epoch;
      for (const session of this.core.allSessions()) session.journal.setEpoch(this.core.epoch);
      // A respawn without a reported exit (e.g. a manual restart) still loses the old child's work.
      if (previous > 0 && this.lostEpoch !== previous) this.onChildGone(previous, { state: 'restarting' });
    }
    const key = `${status.state}:${status.epoch}:${status.restarts}`;
    if (key !== this.lastState) {
      this.lastState = key;
      this.core.notifyAll(ZCODE_NOTIFICATION.backendState, backendStateParams(status, this.core.epoch));
    }
    if (status.state === 'ready') this.resubscribeLive();
  }

  /** The link resumed a session after -32004 (§3): subscribe again from the last seq. */
  onSessionResumed(sessionId: string): void {
    const session = this.core.findSession(sessionId);
    if (!session) return;
    this.opener()
      .resubscribe(session, false)
      .catch((err: unknown) => this.core.logger.warn({ err, sessionId }, 'resubscribe after resume failed'));
  }

  /** Everything that lived in the child of `epoch`: subscriptions, running turns, interactions. */
  private onChildGone(epoch: number, lost: BackendLoss): void {
    this.lostEpoch = epoch;
    for (const session of this.core.allSessions()) {
      session.subscription.apply('lost');
      this.prompts.onBackendLost(session, lost);
    }
    this.interactions.markLost(epoch + 1);
  }

  /** After a (re)spawn, sessions someone is watching (or waiting on) follow live again. */
  private resubscribeLive(): void {
    for (const session of this.core.allSessions()) {
      if (session.subscription.subscribed) continue;
      if (session.attachments.size === 0 && session.queue.queued.length === 0) continue;
      this.opener()
        .resubscribe(session, true)
        .then(() => this.prompts.pump(session))
        .catch((err: unknown) => this.core.logger.warn({ err, sessionId: session.sessionId }, 'resubscribe after backend restart failed'));
    }
  }

  /** One live `state.updated`; held while a subscribe of its session is in flight (session-open.ts). */
  private ingestState(params: unknown): void {
    const facts = stateFacts(params);
    if (!facts?.sessionId) return;
    const session = this.core.findSession(facts.sessionId);
    if (!session) return;
    // Held while a subscribe is in flight; past its limit the held ones and this one apply now, in
    // order: a late prompt end beats a lost one (the queue would stall).
    for (const now of session.subscription.takeState(facts)) this.applyState(session, now);
  }

  /** What a `state.updated` says: settings, the child took a prompt, the ready boundary. */
  applyState(session: SessionState, facts: StateFacts): void {
    if (facts.settings) {
      const before = session.mode;
      session.mergeSettings(facts.settings);
      if (facts.reason === 'mode_changed' || facts.reason === 'model_changed' || facts.reason === 'thought_level_changed') {
        if (session.mode !== before) this.core.emitUpdate(session, { sessionUpdate: 'current_mode_update', currentModeId: session.mode });
        this.core.emitUpdate(session, configOptionUpdate(session.settings, session.allModels.length > 0 ? session.allModels : undefined));
        this.core.publishSessionState(session);
      }
    }
    if (facts.reason === 'prompt_started') this.prompts.onPromptStarted(session);
    if (facts.ready) this.prompts.onReady(session, facts.failed);
  }

  private onSignal(session: SessionState, signal: TurnSignal): void {
    switch (signal.type) {
      case 'turn_started': {
        this.prompts.onTurnStarted(session, signal);
        // The prompt this turn runs is known now: its user message is that prompt's (replay names it).
        const running = session.queue.running;
        if (running && running.life.turnId === signal.turnId && signal.messageId !== undefined)
          this.core.authors.setPrompt(session.sessionId, signal.messageId, running.by);
        return;
      }
      case 'turn_ended':
        this.prompts.onTurnEnded(session, signal);
        this.interactions.abandonTurn(session, signal.turnId, session.turn.turnId !== undefined && session.turn.turnId !== signal.turnId);
        return;
      case 'title_changed':
        session.retitle(signal.title);
        this.core.publishSessionState(session);
        return;
      case 'mode_changed':
        session.mergeSettings({ mode: { ...session.settings.mode, current: signal.mode } });
        this.core.publishSessionState(session);
        return;
      case 'model_changed':
        session.mergeSettings({ model: { ...session.settings.model, current: signal.model } });
        this.core.publishSessionState(session);
        return;
      case 'session_closed':
        session.subscription.apply('lost');
        return;
      case 'steer_queued':
        this.prompts.onSteerQueued(session, signal);
        return;
      case 'usage':
      case 'background_task':
        return;
      default:
        assertNever(signal, 'turn signal');
    }
  }
}
