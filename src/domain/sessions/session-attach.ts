/**
 * Attaching clients to sessions and replaying what they missed (ARCHITECTURE.md §4.2):
 * - `afterSeq` + epoch inside the ring → exactly the missing journaled frames (byte-identical);
 * - otherwise, or on a full `session/load`, a replay rebuilt from `session/messages`
 *   (turn-aligned tail when `limit` is given, `replayMeta.recovered: false` when a gap was lost);
 * - live frames that arrive during a replay wait in the client's buffer and follow it;
 * - pending interactions are re-sent once the attach result is out (deliverPending), once per
 *   connection (§4.5).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { encodeHistoryCursor, pageAfter, pageBefore, tailByTurns, UnknownMessageError, type HistoryPage } from '../../acp/history-page.js';
import { parseMessages, type MessageWithParts } from '../../acp/message-schema.js';
import { nestSubagentHistory } from '../../acp/subagent-history.js';
import { historyWithLostTurns } from '../../acp/lost-turns.js';
import { promptedByOf, withAuthors } from '../../acp/history-authors.js';
import type { Attachment, AttachRole } from '../delivery/broadcast.js';
import type { ClientPort } from '../delivery/client-port.js';
import { previewOfUpdates } from './session-preview.js';
import { toHubError } from '../../backend-errors.js';
import type { HubCore } from '../hub-core.js';
import type { SessionState } from './session-state.js';
import type { LiveTail } from '../prompts/turn.js';
import { firstWindow, pageFromWindow } from './history-window.js';
import { subagentsOfPage } from './subagent-replay.js';
import { AttendanceNotices } from '../people/attendance-notices.js';
import { sendCommands } from './command-notices.js';
import { draftClientDisconnected } from '../delivery/draft-updates.js';

/** What the client learns about its replay (`result._meta.zcode.replayMeta`). */
export interface ReplayMeta {
  recovered: boolean;
  replayed: number;
  cursor?: string;
  hasMore: boolean;
  /** A turn is still running (zcode-acp-remote restores its running UI). */
  turnActive?: boolean;
}

export interface AttachOptions {
  afterSeq?: number;
  epoch?: string;
  limit?: number;
  /** `session/load` (true) replays history; `session/resume` (false) only fills a gap. */
  history: boolean;
  /** Multi-client draft role for this attachment (broadcast.ts). */
  role?: AttachRole;
  /**
   * The draft's `after_message`: replay only the history after this message (a chunk's ACP
   * `messageId`), then the running turn; an id not among the replayable messages is refused.
   */
  afterMessageId?: string;
}

/** Hooks into the interaction flow (re-send after replay). */
export interface AttachHooks {
  resendPending(session: SessionState, client: ClientPort): void;
}

/** Attach, detach and replay. */
export class SessionAttach {
  private readonly attendance: AttendanceNotices;

  constructor(
    private readonly core: HubCore,
    private readonly hooks: AttachHooks,
  ) {
    this.attendance = new AttendanceNotices(core.config.limits.presenceCoalesceMs, (session) => {
      if (core.findSession(session.sessionId) !== session) return;
      core.publishPresence(session);
      core.publishSessionState(session);
    });
  }

  /** Stops the attendance timer (the hub is closing). */
  close(): void {
    this.attendance.close();
  }

  /** Attaches `client` to `session`, replays, goes live; resolves with the replay facts. */
  async attach(client: ClientPort, session: SessionState, p: AttachOptions): Promise<ReplayMeta> {
    const previous = session.attachments.get(client.clientId);
    const role = p.role ?? previous?.role;
    const attachment: Attachment = {
      client,
      sessionId: session.sessionId,
      replaying: true,
      buffer: previous?.buffer ?? [],
      attachedAt: Date.now(),
      ...(role ? { role } : {}),
    };
    session.attachments.set(client.clientId, attachment);
    let meta: ReplayMeta;
    try {
      meta = await this.replay(attachment, session, p);
    } catch (err) {
      // A message id the hub cannot find attaches nothing: the client asked for a replay it cannot have.
      if (err instanceof UnknownMessageError && previous === undefined) {
        session.attachments.delete(client.clientId);
        throw err;
      }
      // The attachment stays (live updates keep flowing) even when history could not be read.
      session.attachments.endReplay(attachment, this.core.broadcaster);
      this.afterAttach(session, client, previous === undefined);
      throw toHubError(err);
    }
    if (client.replayComplete === true && (p.history || p.afterSeq !== undefined)) this.replayComplete(attachment, session, meta);
    session.attachments.endReplay(attachment, this.core.broadcaster);
    this.afterAttach(session, client, previous === undefined);
    return meta;
  }

  /**
   * ACP v2's `replay_complete`: once after the last replayed update, before the live frames that
   * waited and before the result, to a client that announced it knows it (gateway/update-kinds.ts);
   * the others have the `_meta.zcode.replay` marker on the replayed frames and the result. Not
   * journaled: no seq.
   */
  private replayComplete(attachment: Attachment, session: SessionState, meta: ReplayMeta): void {
    const frame = this.core.broadcaster.serialize('session/update', {
      sessionId: session.sessionId,
      update: { sessionUpdate: 'replay_complete' },
      _meta: {
        zcode: {
          epoch: session.journal.epoch,
          replay: true,
          replayed: meta.replayed,
          recovered: meta.recovered,
          hasMore: meta.hasMore,
          ...(meta.cursor === undefined ? {} : { cursor: meta.cursor }),
        },
      },
    });
    this.core.broadcaster.sendNow(attachment.client, frame);
  }

  /** `session/close`: this client leaves the session; the ZCode session lives on. */
  detach(client: ClientPort, session: SessionState): void {
    const left = session.attachments.get(client.clientId);
    if (left === undefined || !session.attachments.delete(client.clientId)) return;
    draftClientDisconnected(this.core, session, left);
    for (const r of this.core.interactions.pending(session.sessionId)) {
      const copy = r.copies.get(client.clientId);
      r.copies.delete(client.clientId);
      copy?.withdraw();
    }
    this.attendance.changed(session);
  }

  /** A connection closed: detached everywhere. Nothing is settled or cancelled (§4.5, §5). */
  disconnect(clientId: string): void {
    this.core.removeClient(clientId);
    this.core.interactions.dropClient(clientId);
    for (const session of this.core.allSessions()) {
      const left = session.attachments.get(clientId);
      if (left === undefined || !session.attachments.delete(clientId)) continue;
      draftClientDisconnected(this.core, session, left);
      this.attendance.changed(session);
    }
  }

  /**
   * `_zcode/load_earlier`: the turn-aligned page before `cursor`, oldest first; without a cursor
   * the newest page (`GET /api/sessions/{id}/history`: a session no one loaded since the start).
   */
  async loadEarlier(
    session: SessionState,
    cursor: string | undefined,
    limit: number | undefined,
  ): Promise<{ updates: SessionUpdate[]; cursor?: string; hasMore: boolean }> {
    const max = this.core.config.limits.replayMaxMessages;
    const n = Math.max(1, Math.min(limit ?? max, max));
    const page = await pageFromWindow(
      (window) => this.fetchMessages(session, window),
      (messages) =>
        cursor === undefined ? tailByTurns(session.sessionId, messages, n) : pageBefore(session.sessionId, messages, cursor, n),
      n,
      max,
    );
    const updates = await this.historyUpdates(session, page.messages, false);
    // A background task launched on that page: its output so far after its card.
    const sent = cardsIn(updates);
    updates.push(...session.taskOutputs.replayUpdates((id) => sent.has(id)));
    return {
      updates,
      ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
      hasMore: page.hasMore,
    };
  }

  private async replay(attachment: Attachment, session: SessionState, p: AttachOptions): Promise<ReplayMeta> {
    if (p.afterSeq !== undefined) {
      const gap = session.journal.since(p.afterSeq, p.epoch);
      if (gap.kind === 'exact') {
        // Synchronous: nothing can interleave with these sends.
        // One encoding per replayed update for this client (ws encoded every string send before).
        for (const e of gap.entries) this.core.broadcaster.sendNow(attachment.client, e.toFrame());
        return { recovered: true, replayed: gap.entries.length, hasMore: false };
      }
      const meta = await this.replayHistory(attachment, session, p.limit ?? this.core.config.limits.replayMaxMessages);
      return { ...meta, recovered: false };
    }
    if (!p.history) return { recovered: true, replayed: 0, hasMore: false };
    return this.replayHistory(attachment, session, p.limit ?? this.core.config.limits.replayMaxMessages, p.afterMessageId);
  }

  /** Sends a turn-aligned tail of the conversation, rebuilt from `session/messages`. */
  private async replayHistory(attachment: Attachment, session: SessionState, limit: number, afterMessageId?: string): Promise<ReplayMeta> {
    const max = this.core.config.limits.replayMaxMessages;
    const limitN = Math.max(1, Math.min(limit, max));
    // Fetch more than the tail so the start can move back to the turn's user message (after a
    // message: as far back as a replay goes, to find it).
    const fetchLimit = afterMessageId === undefined ? firstWindow(limitN, max) : max;
    // Decided now, in the tick the attachment was made: journal entries up to `upTo` come from the
    // journal, everything after waits in the attachment's buffer (no gap, no duplicate).
    const tail = liveTail(session);
    const upTo = session.journal.lastSeq;
    // Taken in the same tick: later task output arrives in the buffered live frames.
    const tasks = session.taskOutputs.replayUpdates();
    const usage = session.lastUsage;
    const fetched = await this.fetchMessages(session, fetchLimit);
    // What the tail holds is left out of history: the agent has not stored (all of) it yet.
    const messages = tail ? fetched.filter((m) => (m.info.time?.created ?? 0) < tail.startedAt) : fetched;
    const page =
      afterMessageId === undefined
        ? completePage(session.sessionId, tailByTurns(session.sessionId, messages, limitN), fetched.length >= fetchLimit)
        : pageAfter(session.sessionId, fetched, messages, afterMessageId);
    const updates = await this.historyUpdates(session, page.messages, true);
    this.learnPreview(session, updates);
    const epoch = session.journal.epoch;
    for (const update of updates) {
      // History frames carry no seq: they are not journal positions (the result's seq is). A
      // prompt's author goes where the live echo has it too.
      const promptedBy = promptedByOf(update);
      const frame = this.core.broadcaster.serialize('session/update', {
        sessionId: session.sessionId,
        update,
        _meta: { zcode: { epoch, replay: true, ...(promptedBy === undefined ? {} : { promptedBy }) } },
      });
      this.core.broadcaster.sendNow(attachment.client, frame);
    }
    // Then the running (or interrupted) turn so far, byte-identical to what the others got live.
    const live = (tail ? session.journal.page(tail.startSeq - 1, upTo - tail.startSeq + 1) : []).map((e) => e.toFrame());
    for (const frame of live) this.core.broadcaster.sendNow(attachment.client, frame);
    // Then the background tasks' output so far (history has only their launch result), for the cards
    // sent, and the context meter (history has no usage).
    const sent = cardsIn(updates);
    const inLive = (id: string) => live.some((frame) => frame.text.includes(`"toolCallId":${JSON.stringify(id)}`));
    const shown = tasks.filter((u) => u.sessionUpdate === 'tool_call_update' && (sent.has(u.toolCallId) || inLive(u.toolCallId)));
    const closing = usage === undefined ? shown : [...shown, usage];
    for (const update of closing) {
      const frame = this.core.broadcaster.serialize('session/update', {
        sessionId: session.sessionId,
        update,
        _meta: { zcode: { epoch, replay: true } },
      });
      this.core.broadcaster.sendNow(attachment.client, frame);
    }
    return {
      recovered: true,
      replayed: updates.length + live.length + closing.length,
      hasMore: page.hasMore,
      ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
    };
  }

  /**
   * A page of history as ACP updates: sub-agents' tool cards nested under their Agent card, and
   * turns left unfinished by a restart marked `interrupted` (`tail`: the page ends at the newest message).
   */
  private async historyUpdates(session: SessionState, page: MessageWithParts[], tail: boolean): Promise<SessionUpdate[]> {
    const limits = this.core.config.limits;
    const children = await subagentsOfPage(session.sessionId, page, {
      app: this.core.app,
      logger: this.core.logger,
      maxSubagents: limits.replaySubagentsMax,
      maxMessages: limits.replayMaxMessages,
    });
    const authors = this.core.authors;
    const sessionId = session.sessionId;
    return withAuthors(nestSubagentHistory(historyWithLostTurns(page, { running: session.turn.active, tail }), children), {
      prompt: (messageId) => authors.promptOf(sessionId, messageId),
      answer: (toolCallId) => authors.answerOf(sessionId, toolCallId),
      overwrites: (toolCallId) => authors.overwrites(sessionId, toolCallId),
    });
  }

  /** A session the hub has not seen a message of yet (older than this hub) gets its preview from history. */
  private learnPreview(session: SessionState, updates: readonly SessionUpdate[]): void {
    if (this.core.marks.preview(session.sessionId) !== undefined) return;
    const last = previewOfUpdates(updates, this.core.config.limits.sessionPreviewChars);
    if (last && this.core.marks.notePreview(session.sessionId, last.role, last.text)) this.core.flushMarks();
  }

  private async fetchMessages(session: SessionState, limit: number): Promise<MessageWithParts[]> {
    const raw = await this.core.app.messages(session.sessionId, limit);
    const dropped: string[] = [];
    const messages = parseMessages(raw, (what) => dropped.push(what));
    // Field paths and types only, never content (§5.6: nothing dropped silently).
    if (dropped.length > 0)
      this.core.logger.warn(
        { sessionId: session.sessionId, dropped: dropped.slice(0, 20), droppedCount: dropped.length },
        'dropped unreadable parts of the agent history',
      );
    return messages;
  }

  private afterAttach(session: SessionState, client: ClientPort, isNew: boolean): void {
    this.core.sendTurnState(session, client);
    if (isNew) this.attendance.changed(session);
  }

  /**
   * The attach result has been written to the client: now its copies of the session's pending
   * interactions (§4.5). A request must not reach a client before the `session/load` result
   * that tells it the session exists, so the caller invokes this once that result is queued. The
   * agent's slash commands go first (command-notices.ts).
   */
  deliverPending(client: ClientPort, session: SessionState): void {
    if (!client.open || !session.attachments.has(client.clientId)) return;
    sendCommands(this.core, session, client);
    this.hooks.resendPending(session, client);
  }
}

/** The tool cards a list of updates announces. */
function cardsIn(updates: readonly SessionUpdate[]): Set<string> {
  return new Set(updates.flatMap((u) => (u.sessionUpdate === 'tool_call' ? [u.toolCallId] : [])));
}

/** The session's live tail while the journal still holds all of it (a trimmed one is history's job). */
function liveTail(session: SessionState): LiveTail | undefined {
  const tail = session.turn.tail;
  return tail !== undefined && tail.startSeq >= session.journal.firstSeq && tail.startSeq <= session.journal.lastSeq ? tail : undefined;
}

/** When the fetched window was full there may be older messages even if the page starts at its first one. */
function completePage(sessionId: string, page: HistoryPage, windowFull: boolean): HistoryPage {
  const first = page.messages[0];
  if (page.hasMore || !windowFull || first === undefined) return page;
  return { ...page, hasMore: true, cursor: encodeHistoryCursor({ sessionId, beforeMessageId: first.info.messageId }) };
}
