/**
 * The app's link to the hub: one RpcConnection, the handshake (handshake.ts), the session list
 * and inbox, attaching sessions with replay from the last seq (ARCHITECTURE.md §4.2), history
 * pages, and the session commands — prompts (prompt-send.ts), cancel, config — and the
 * interaction requests the hub sends us (§4.5). Notifications are applied in hub-events.ts.
 */
import { WEB_LIMITS } from '../limits.js';
import { OnlineWait, outlookOf, type Outlook } from '../net/online-wait.js';
import { RpcConnection } from '../net/rpc-connection.js';
import { api, type ApiFn } from '../net/rest.js';
import { markSignedOut } from './sign-out.js';
import { keepDrafts } from './kept-drafts.js';
import { num, rec, str, zmeta, idOf } from '../wire.js';
import { setMachine, store, updateChat, type AppState } from './app-state.js';
import { applyAttachResult, applySessionUpdate, emptyChat, parseTurnState, prependHistory, resetForReplay } from './chat-reducer.js';
import { handleNotification } from './hub-events.js';
import { applyHandshake } from './handshake.js';
import { initializeParams } from './initialize-params.js';
import { listParams, loadParams } from './handshake-requests.js';
import { sendPrompt } from './prompt-send.js';
import { stopTurn } from './turn-stop.js';
import { fromView, mergeInteraction, rememberCard, type Answer } from './interactions.js';
import { answerInteraction, answerOneQuestion, holdInteractionRequest } from './interaction-requests.js';
import { fromListEntry, type SessionSummary } from './session-list.js';
import { ZCODE_NOTIFICATION, ZCODE_REQUEST } from '../../../src/zcode-ext/methods.js';
import { deviceLabel } from './device-name.js';
import type { SocketTicket } from '../machines/machine-api.js';

export { deviceLabel, rememberDevice } from './device-name.js';

/** Another machine's hub, reached cross-origin with its own credential. */
export interface MachineLink {
  hubId: string;
  /** `/api` calls signed for that machine (machines/machine-api.ts). */
  api: ApiFn;
  /** Called after each successful (re)connect. */
  onOnline?: () => void;
}

export class HubClient {
  readonly conn: RpcConnection;
  /** The machine this client talks to; undefined for the home hub (the app's own origin). */
  readonly hubId: string | undefined;
  /** REST on this client's hub: the home cookie, or the machine's DPoP-signed calls. */
  readonly api: ApiFn;
  private readonly onOnline: (() => void) | undefined;
  /** Sessions this connection has loaded (re-attached after every reconnect). */
  private readonly attached = new Set<string>();
  /** Updates and turn states received while an attach is in flight, applied once its result says how (§4.2). */
  readonly attaching = new Map<string, Array<{ method: string; params: unknown }>>();
  /** Interactions answered from this device (no "answered elsewhere" toast for them). */
  readonly answeredHere = new Set<string>();
  /** Sessions this device is deleting (no "deleted on another device" toast for them). */
  readonly deletingHere = new Set<string>();
  /** The card of each interaction recently dropped from the store, for its "answered by" line. */
  readonly recentCards = new Map<string, { sessionId: string; toolCallId: string }>();
  private inboxTimer: ReturnType<typeof setTimeout> | undefined;
  /** The sessions a page shows now (set by main.tsx from the route: this layer holds no routes). */
  private shownNow: () => readonly string[] = () => [];
  /** Calls waiting for this link to come online (whenOnline). */
  private readonly onlineWait = new OnlineWait();
  /**
   * Whether this link's hub serves requests sent behind `initialize` (its last handshake, or its ticket answer, said
   * so). The home hub does from the start: it served this app. Another machine may run an older hub, which refuses them.
   */
  private pipelines: boolean;

  constructor(url: string | (() => Promise<SocketTicket>), machine?: MachineLink) {
    this.hubId = machine?.hubId;
    this.pipelines = machine === undefined;
    this.onOnline = machine?.onOnline;
    this.api = machine?.api ?? api;
    const socketUrl = typeof url === 'string' ? url : async () => this.heard(await url());
    this.conn = new RpcConnection(socketUrl, {
      onOpen: () => this.onOpen(),
      onNotification: (method, params) => handleNotification(this, method, params),
      onRequest: (id, method, params) => this.onRequest(id, method, params),
      onStop: () => this.onlineWait.changed('closed'),
      onStatus: (status, reason) => {
        this.onlineWait.changed(this.outlook());
        if (this.hubId !== undefined) {
          const hubId = this.hubId;
          setMachine(hubId, (m) => ({
            ...m,
            status,
            refusal: status === 'refused' ? reason : undefined,
            downSince: status === 'online' ? undefined : (m.downSince ?? Date.now()),
          }));
          return;
        }
        if (status === 'unauthorized') {
          markSignedOut('revoked');
          // Before the page becomes the pairing screen: what waited to be sent, and the composer's text, is kept.
          keepDrafts();
        }
        store.update((s) => ({
          ...s,
          conn: { status, downSince: status === 'online' ? undefined : (s.conn.downSince ?? Date.now()) },
          // Signed out: who this device was is no longer known (text kept goes back only to whoever the next handshake names).
          ...(status === 'unauthorized' ? { paired: false, me: undefined } : {}),
        }));
      },
    });
  }

  /** Tells the client which sessions the screen shows, so each handshake loads them at once (onOpen). */
  setShownSessions(fn: () => readonly string[]): void {
    this.shownNow = fn;
  }

  /** A ticket's answer said whether its hub pipelines, before the socket opens: this connect follows it. */
  private heard(ticket: SocketTicket): string {
    this.pipelines = ticket.pipelining;
    return ticket.url;
  }

  /** Connects (and keeps reconnecting). */
  start(): void {
    this.conn.start();
  }

  /** What this link's state promises what waits on it (online-wait.ts): online, coming back by itself, or gone until someone acts. */
  outlook(): Outlook {
    return outlookOf(this.conn.status, this.conn.running);
  }

  /**
   * Resolves once this link is online: at once, or once a reconnect — however many attempts it
   * takes — has ended its handshake (onOpen: the list and the chats on screen loaded). Rejects
   * with LinkGone when the link is or turns gone (revoked, refused, stopped), with ConnectionLost
   * after `timeoutMs`, and with TakenBack when `signal` aborts first.
   */
  whenOnline(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return this.onlineWait.wait(this.outlook(), timeoutMs, signal);
  }

  /** Marks what came from this client's hub with its machine (nothing for the home hub). */
  tag<T extends { hubId?: string }>(v: T): T {
    return this.hubId === undefined ? v : { ...v, hubId: this.hubId };
  }

  /** Whether this client's hub is connected now (the home link, or the machine's). */
  online(s: AppState): boolean {
    return this.hubId === undefined ? s.conn.status === 'online' : s.machines[this.hubId]?.status === 'online';
  }

  /** True when a session's updates are live on this connection. */
  isAttached(sessionId: string): boolean {
    return this.attached.has(sessionId);
  }

  /** Stops re-attaching a session that no longer exists. */
  forgetSession(sessionId: string): void {
    this.attached.delete(sessionId);
    this.attaching.delete(sessionId);
  }

  private async onOpen(): Promise<void> {
    const device = deviceLabel();
    // The old socket's live requests: their cards stay answerable until the handshake answers.
    const stale = new Set(Object.values(store.get().interactions).flatMap((i) => (i.rpc && i.hubId === this.hubId ? [i.rpc] : [])));
    const handshake = this.conn.call('initialize', initializeParams(device));
    // A hub that pipelines is asked for the list and the chats on screen right behind
    // `initialize`, not after its answer: one round trip less on every connect
    // (CLIENT-PROTOCOL.md "Connecting"; BENCHMARKS.md, "B-PHONE"). The answers still come after
    // the handshake's, so the handshake is applied first.
    const pipelined = this.pipelines ? this.loadShown() : undefined;
    // Awaited below; a handshake that fails first must not leave this rejection unhandled.
    pipelined?.catch(() => undefined);
    const init = await handshake;
    applyHandshake(this.hubId, init, device);
    // Interactions are re-sent per attach, so the old socket's copies go — only those: a pipelined
    // load's requests may have come already.
    store.update((s) => ({
      ...s,
      interactions: Object.fromEntries(Object.entries(s.interactions).filter(([, i]) => !i.rpc || !stale.has(i.rpc))),
    }));
    this.pipelines = pipelinesOf(init);
    await (pipelined ?? this.loadShown());
    void this.refreshInbox();
    this.onOnline?.();
  }

  /**
   * Loads the session list and, beside it, what was attached before a reconnect and the sessions
   * the screen shows (a deep link's chat): the hub finds a session by its id (`session/load`'s
   * `cwd` is not read, CLIENT-PROTOCOL.md), so waiting for the list only cost a round trip before
   * the chat could show. The link turns online once both have answered; a prompt sent before
   * then waits for it (prompt-send.ts).
   *
   * A load a drop cuts off leaves its session out of `attached`, so the next handshake loads it
   * only if it is on screen by then. That is right, not lost: `attached` means "live on this
   * socket", and a chat kept there unloaded would never be loaded again (a page attaches only
   * what is not attached, session-page.ts). Its chat stays in the store as it was (attach writes
   * only once answered), and going back to it attaches it then, from its seq: what was missed
   * comes with that load, as after any reconnect (test/web/reload-cut.test.ts).
   */
  private async loadShown(): Promise<void> {
    const again = new Set([...this.attached, ...this.shownNow()]);
    this.attached.clear();
    await Promise.all([this.refreshSessions(), ...[...again].map((sid) => this.attach(sid).catch(() => undefined))]);
  }

  /** Reloads the session list (`session/list`, following cursors). */
  async refreshSessions(): Promise<void> {
    let cursor: string | undefined;
    const found: Record<string, ReturnType<typeof fromListEntry>> = {};
    for (let page = 0; page < 20; page++) {
      const res = await this.conn.call('session/list', listParams(cursor));
      for (const e of res.sessions) {
        const sid = str(rec(e)?.['sessionId']);
        const summary = sid ? fromListEntry(e, store.get().sessions[sid]) : undefined;
        if (sid && summary) found[sid] = this.tag(summary);
      }
      cursor = res.nextCursor ?? undefined;
      if (!cursor) break;
    }
    store.update((s) => {
      const sessions = { ...s.sessions };
      for (const [sid, summary] of Object.entries(found)) if (summary) sessions[sid] = summary;
      return { ...s, sessions, sessionsLoaded: true };
    });
  }

  /** Reloads pending interactions across sessions (`_zcode/interactions/list`). */
  async refreshInbox(): Promise<void> {
    try {
      const res = await this.conn.call(ZCODE_REQUEST.interactionsList, {});
      const views = res.interactions
        .map(fromView)
        .filter((v) => v !== undefined)
        .map((v) => this.tag(v));
      store.update((s) => {
        const next: typeof s.interactions = {};
        // Another machine's interactions, and live requests, are not this list's to replace.
        for (const [id, i] of Object.entries(s.interactions)) if (i.rpc || i.hubId !== this.hubId) next[id] = i;
        for (const v of views) next[v.interactionId] = mergeInteraction(next[v.interactionId], v);
        return { ...s, interactions: next };
      });
    } catch {
      // Offline or an older hub: the inbox keeps what it had.
    }
  }

  /** Debounced inbox refresh (session_state bursts). */
  scheduleInbox(): void {
    clearTimeout(this.inboxTimer);
    this.inboxTimer = setTimeout(() => void this.refreshInbox(), 300);
  }

  /**
   * Loads a session on this connection: the last screenful of messages the first time, exactly the
   * missed updates (`afterSeq` + `epoch`) after a reconnect. Replay arrives before the result
   * and is buffered until the result says whether it continues what we hold (`recovered`).
   */
  async attach(sessionId: string): Promise<void> {
    if (this.attaching.has(sessionId)) return;
    const held = store.get().chats[sessionId];
    const from = held?.seq !== undefined ? { afterSeq: held.seq, epoch: held.epoch } : undefined;
    const cwd = store.get().sessions[sessionId]?.cwd ?? '';
    this.attaching.set(sessionId, []);
    try {
      const result = await this.conn.call('session/load', loadParams(sessionId, cwd, from), 60_000);
      const z = zmeta(result);
      const recovered = rec(z['replayMeta'])?.['recovered'];
      const fresh = from === undefined || recovered === false;
      let chat = held ?? emptyChat(sessionId);
      if (fresh) chat = resetForReplay(chat);
      for (const n of this.attaching.get(sessionId) ?? [])
        chat = n.method === ZCODE_NOTIFICATION.turnState ? { ...chat, turn: parseTurnState(n.params) } : applySessionUpdate(chat, n.params);
      chat = applyAttachResult(chat, result);
      if (!fresh) chat = { ...chat, history: held?.history ?? chat.history };
      const seq = num(z['seq']);
      const epoch = idOf(z['epoch']);
      if (seq !== undefined && (chat.seq === undefined || chat.epoch !== epoch || seq > chat.seq)) chat = { ...chat, seq, epoch };
      store.update((s) => ({ ...s, chats: { ...s.chats, [sessionId]: chat } }));
      this.attached.add(sessionId);
    } finally {
      this.attaching.delete(sessionId);
    }
  }

  /** Older history, prepended (`_zcode/load_earlier`). */
  async loadEarlier(sessionId: string): Promise<void> {
    const chat = store.get().chats[sessionId];
    if (!chat?.history.hasMore || !chat.history.cursor || store.get().loadingEarlier[sessionId]) return;
    store.update((s) => ({ ...s, loadingEarlier: { ...s.loadingEarlier, [sessionId]: true } }));
    try {
      const res = await this.conn.call(ZCODE_REQUEST.loadEarlier, {
        sessionId,
        cursor: chat.history.cursor,
        limit: WEB_LIMITS.historyPage,
      });
      updateChat(sessionId, (c) => prependHistory(c, res.updates, res.cursor ?? undefined, res.hasMore));
    } finally {
      store.update((s) => ({ ...s, loadingEarlier: { ...s.loadingEarlier, [sessionId]: false } }));
    }
  }

  /** Creates a session in `cwd` and returns its id. */
  async newSession(cwd: string): Promise<string> {
    const res = await this.conn.call('session/new', { cwd, mcpServers: [] }, 60_000);
    const sessionId = res.sessionId;
    const z = zmeta(res);
    let chat = applyAttachResult(emptyChat(sessionId), res);
    const seq = num(z['seq']);
    if (seq !== undefined) chat = { ...chat, seq, epoch: idOf(z['epoch']) };
    store.update((s) => ({
      ...s,
      chats: { ...s.chats, [sessionId]: chat },
      sessions: {
        ...s.sessions,
        [sessionId]:
          s.sessions[sessionId] ??
          this.tag<SessionSummary>({
            sessionId,
            cwd,
            state: 'idle',
            clients: 1,
            pendingInteractions: 0,
            updatedAt: new Date().toISOString(),
          }),
      },
    }));
    this.attached.add(sessionId);
    return sessionId;
  }

  /** Archives or unarchives a session (`_zcode/session_archive`); every device's list follows. */
  async archive(sessionId: string, archived: boolean): Promise<void> {
    await this.conn.call(ZCODE_REQUEST.sessionArchive, { sessionId, archived });
    // Shown at once here; the hub's `_zcode/session_state` says the same to the others.
    store.update((s) =>
      s.sessions[sessionId] ? { ...s, sessions: { ...s.sessions, [sessionId]: { ...s.sessions[sessionId], archived } } } : s,
    );
  }

  /** Sends a prompt; queued by the hub when the session is busy (§4.4). */
  prompt(
    sessionId: string,
    text: string,
    images: Array<{ mimeType: string; data: string }>,
    links: Array<{ type: 'resource_link'; uri: string; name: string }> = [],
  ): Promise<void> {
    return sendPrompt(this, sessionId, text, images, links);
  }

  /** Stops the running turn (`session/cancel`), once the link is online (turn-stop.ts). */
  cancel(sessionId: string): Promise<'sent' | 'ended'> {
    return stopTurn(this, sessionId);
  }

  /**
   * Changes model, mode or thought level (`session/set_config_option`). Picked while the link
   * reconnects, the choice goes once it is online: the user picked it, and it sets, not toggles.
   */
  async setConfig(sessionId: string, configId: string, value: string): Promise<void> {
    await this.whenOnline(WEB_LIMITS.waitOnlineMs);
    const { configOptions } = await this.conn.call('session/set_config_option', { sessionId, configId, value });
    updateChat(sessionId, (c) => applyAttachResult(c, { configOptions }));
  }

  /** Changes the mode through `session/set_mode` (when no `mode` config option exists); waits for the link as setConfig does. */
  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.whenOnline(WEB_LIMITS.waitOnlineMs);
    await this.conn.call('session/set_mode', { sessionId, modeId });
    updateChat(sessionId, (c) => ({ ...c, modeId }));
  }

  private onRequest(id: string | number, method: string, params: unknown): void {
    holdInteractionRequest(this, id, method, params);
  }

  /** Answers an interaction: over the live request when we hold one, else over REST (§4.5). */
  answer(interactionId: string, answer: Answer): Promise<void> {
    return answerInteraction(this, interactionId, answer);
  }

  /** Answers one card of a multi-question question; the hub keeps it (CLIENT-PROTOCOL "Partial answers"). */
  answerQuestion(interactionId: string, questionIndex: number, answer: string | string[], last: boolean): Promise<void> {
    return answerOneQuestion(this, interactionId, questionIndex, answer, last);
  }

  /** Removes an interaction from what the app shows. */
  forget(interactionId: string): void {
    rememberCard(this.recentCards, store.get().interactions[interactionId], WEB_LIMITS.recentInteractionCards);
    store.update((s) => {
      if (!s.interactions[interactionId]) return s;
      const interactions = { ...s.interactions };
      delete interactions[interactionId];
      return { ...s, interactions, activeInteraction: s.activeInteraction === interactionId ? undefined : s.activeInteraction };
    });
  }
}

/** Whether an `initialize` answer says its hub serves requests sent behind it (`agentCapabilities._meta.zcode.pipelining`). */
function pipelinesOf(init: unknown): boolean {
  return zmeta(rec(init)?.['agentCapabilities'])['pipelining'] === true;
}
