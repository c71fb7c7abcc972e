/**
 * JSON-RPC 2.0 over the hub's WebSocket (`/acp`, CLIENT-PROTOCOL "Connecting"), with reconnect:
 * capped exponential backoff with jitter, an immediate retry when the network comes back, and a
 * liveness probe when the tab returns from the background or the machine wakes (a socket can be
 * half-dead after sleep without any close event). The cookie authenticates the upgrade.
 */
import { WEB_LIMITS } from '../limits.js';
import { idOf, parseJson, rec, str } from '../wire.js';
import { ConnectFailure, ConnectionLost, RpcError, UPGRADE_REFUSED, type ConnStatus } from './rpc-errors.js';
import { PendingCalls } from './pending-calls.js';
import { LinkGone } from './online-wait.js';
import { backoffDelay } from './backoff.js';
import { handOver, SentEarly, type EarlySocket } from './early-socket.js';
import { CLOSE } from '../../../src/gateway/close-codes.js';
import { ZCODE_REQUEST } from '../../../src/zcode-ext/methods.js';
import { HUB_RESULTS, MalformedResult, type HubClientNotifications, type HubMethod, type ParamsOf, type ResultOf } from './hub-methods.js';
import { cancelRequestFrame } from './hub-methods.js';

export { ConnectFailure, ConnectionLost, RpcError, UPGRADE_REFUSED, type ConnStatus } from './rpc-errors.js';

export interface RpcHandlers {
  /** Runs after every (re)connect, before the status turns `online`. */
  onOpen(conn: RpcConnection): Promise<void>;
  onNotification(method: string, params: unknown): void;
  onRequest(id: string | number, method: string, params: unknown): void;
  /** A new status; `reason` with `refused` (the hub's message, or UPGRADE_REFUSED). */
  onStatus(status: ConnStatus, reason?: string): void;
  /** Runs when stop() ends the reconnect loop: the status is left as it was, but nothing will follow it. */
  onStop?(): void;
}

type SocketClass = new (url: string) => WebSocket;

export interface RpcOptions {
  /**
   * Opens a socket: the browser's WebSocket by default; in Node (none built in before 22) the
   * `ws` package's, which implements the same interface.
   */
  WebSocket?: SocketClass;
  /** Where a frame that is not JSON-RPC is reported; console.warn by default. */
  warn?: (message: string) => void;
}

/** The WebSocket readyState of an open socket (the same constant in the browser and in `ws`). */
const OPEN = 1;

/** Close codes after which retrying cannot help (CLIENT-PROTOCOL close codes). */
const AUTH_CLOSE = new Set<number>([CLOSE.UNAUTHENTICATED, CLOSE.FORBIDDEN]);

/** States a retry leaves on screen until it ends otherwise: the fix they show stays readable. */
const KEPT_WHILE_RETRYING = new Set<ConnStatus>(['not_allowed', 'wrong_hub', 'refused']);

export class RpcConnection {
  private ws: WebSocket | undefined;
  private nextId = 1;
  private readonly pending = new PendingCalls();
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;
  private hiddenAt = 0;
  /** A socket opened before the app ran (early-socket.ts), used by the first connect instead of a new one. */
  private adopted: EarlySocket | undefined;
  /** The requests already sent on the adopted socket: a call asking the same (method and params) takes its answer. */
  private sentEarly: SentEarly | undefined;
  /** Frames of the adopted socket still being handed over (early-socket.ts `handOver`); new ones queue behind. */
  private replaying: { ws: WebSocket; queue: string[] } | undefined;
  status: ConnStatus = 'offline';

  private readonly Socket: SocketClass;
  private readonly warn: (message: string) => void;

  constructor(
    /** The socket URL, or a resolver (a machine's ticket URL, made fresh per attempt). */
    private readonly url: string | (() => Promise<string>),
    private readonly handlers: RpcHandlers,
    options: RpcOptions = {},
  ) {
    this.Socket = options.WebSocket ?? globalThis.WebSocket;
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  /** Whether page events (network back, tab shown) can wake the link: only in a browser. */
  private get inPage(): boolean {
    return typeof window !== 'undefined' && typeof document !== 'undefined';
  }

  /**
   * Whether the reconnect loop runs (started, not stopped): a link that is offline now will try
   * again by itself — unless its token was refused, which it never retries (`unauthorized`).
   */
  get running(): boolean {
    return !this.stopped;
  }

  /** Connects and keeps reconnecting until stop(). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.inPage) {
      window.addEventListener('online', this.onOnline);
      window.addEventListener('offline', this.onOffline);
      document.addEventListener('visibilitychange', this.onVisibility);
      window.addEventListener('pageshow', this.onOnline);
      window.addEventListener('pagehide', this.onPageHide);
    }
    this.open();
  }

  /**
   * Uses `early` for the first connect when it is still open or opening (before `start`): its
   * already-sent request answers the first call of that method, and the frames it received are
   * handled first, in order. A socket that closed meanwhile is ignored and a new one opened.
   */
  adopt(early: EarlySocket | undefined): void {
    this.adopted = early;
  }

  /**
   * Closes the socket for good (sign out, the machine removed). The calls still in flight fail at
   * once with LinkGone `closed`: no answer can come on a socket closed for good, and a caller
   * left to its timeout (or none, a prompt's) would wait for nothing.
   */
  stop(): void {
    this.stopped = true;
    if (this.inPage) {
      window.removeEventListener('online', this.onOnline);
      window.removeEventListener('offline', this.onOffline);
      document.removeEventListener('visibilitychange', this.onVisibility);
      window.removeEventListener('pageshow', this.onOnline);
      window.removeEventListener('pagehide', this.onPageHide);
    }
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      this.detach(ws);
      ws.close(CLOSE.NORMAL);
    }
    this.pending.failAll(() => new LinkGone('closed'));
    this.handlers.onStop?.();
  }

  /**
   * Calls one of the hub's methods (hub-methods.ts): params checked at compile time, the result
   * by its reader before the caller sees it. Rejects with RpcError (the hub's error answer),
   * MalformedResult, ConnectionLost or a timeout. `timeoutMs: 0` = none. `withdraw` aborted: ACP
   * `$/cancel_request` for it, on the socket it went on (ids are per connection); the answer still settles it.
   */
  async call<M extends HubMethod>(
    method: M,
    params: ParamsOf<M>,
    timeoutMs: number = WEB_LIMITS.requestTimeoutMs,
    withdraw?: AbortSignal,
  ): Promise<ResultOf<M>> {
    const raw = await this.request(method, params, timeoutMs, withdraw);
    const read = HUB_RESULTS[method](raw);
    if (!read.ok) throw new MalformedResult(method, read.problem);
    return read.value as ResultOf<M>;
  }

  private request(method: string, params: unknown, timeoutMs: number, withdraw?: AbortSignal): Promise<unknown> {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return Promise.reject(new ConnectionLost());
    const early = this.sentEarly?.take(ws, method, params);
    const id = early ?? this.nextId++;
    const answered = this.pending.add(id, method, timeoutMs);
    if (early === undefined) ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    withdraw?.addEventListener('abort', () => ws.send(cancelRequestFrame(id)));
    return answered;
  }

  /** Sends a notification (no answer). False when offline. */
  notify<M extends keyof HubClientNotifications>(method: M, params: HubClientNotifications[M]): boolean {
    if (this.ws?.readyState !== OPEN) return false;
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
    return true;
  }

  /** Answers a request the hub sent us. */
  respond(id: string | number, result: unknown): void {
    this.ws?.send(JSON.stringify({ jsonrpc: '2.0', id, result }));
  }

  /** Answers a request the hub sent us with an error. */
  respondError(id: string | number, code: number, message: string): void {
    this.ws?.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  }

  /** Drops the socket now and reconnects at once (used when a probe fails). */
  reconnectNow(): void {
    if (this.stopped) return;
    this.attempt = 0;
    this.dropSocket(CLOSE.CLIENT_RECONNECT);
    this.open();
  }

  /** Lets go of the socket without hearing its close (the caller says what follows), and fails the calls in flight. */
  private dropSocket(code: number): void {
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      this.detach(ws);
      ws.close(code);
    }
    this.pending.failAll();
  }

  private reason: string | undefined;

  private setStatus(s: ConnStatus, reason?: string): void {
    if (this.status === s && this.reason === reason) return;
    this.status = s;
    this.reason = reason;
    this.handlers.onStatus(s, reason);
  }

  private resolving = false;

  private open(): void {
    clearTimeout(this.timer);
    if (this.stopped || this.resolving || (this.ws && this.ws.readyState <= OPEN)) return;
    if (!KEPT_WHILE_RETRYING.has(this.status)) this.setStatus('connecting');
    if (typeof this.url === 'string') {
      this.openSocket(this.url);
      return;
    }
    this.resolving = true;
    this.url().then(
      (url) => {
        this.resolving = false;
        if (!this.stopped) this.openSocket(url, true);
      },
      (err: unknown) => {
        this.resolving = false;
        const status = err instanceof ConnectFailure ? err.status : 'offline';
        this.setStatus(status, err instanceof ConnectFailure ? err.reason : undefined);
        // A revoked token stays revoked: no reconnect loop.
        if (status !== 'unauthorized') this.schedule();
      },
    );
  }

  /** `ticketed`: the URL came from a resolver that just reached the hub (a fresh ticket). */
  private openSocket(url: string, ticketed = false): void {
    const early = this.adopted;
    this.adopted = undefined;
    const ws = early && early.ws.readyState <= OPEN ? early.ws : new this.Socket(url);
    this.ws = ws;
    let opened = false;
    const onOpen = () => {
      opened = true;
      this.handlers
        .onOpen(this)
        .then(() => {
          if (this.ws !== ws) return;
          this.attempt = 0;
          this.setStatus('online');
        })
        .catch(() => {
          if (this.ws === ws) ws.close(CLOSE.CLIENT_RECONNECT);
        });
    };
    ws.onopen = onOpen;
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') this.warn('rpc: ignored a frame that is not text (the hub speaks JSON-RPC in text frames)');
      else if (this.replaying?.ws === ws) this.replaying.queue.push(ev.data);
      else this.dispatch(ev.data);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.pending.failAll();
      if (AUTH_CLOSE.has(ev.code)) {
        this.setStatus('unauthorized');
        return;
      }
      // The hub dropped this app's origin from its peers: "not allowed" at once (retried, like at connect).
      if (ev.code === CLOSE.ORIGIN_NOT_ALLOWED) this.setStatus('not_allowed');
      // The hub answered the ticket request a moment ago, then the socket never opened: the
      // upgrade was refused (a browser hides its HTTP answer), which is not "offline".
      else if (ticketed && !opened) this.setStatus('refused', UPGRADE_REFUSED);
      else this.setStatus('offline');
      this.schedule();
    };
    if (ws === early?.ws && ws.readyState === OPEN) this.takeOver(early, onOpen);
  }

  /**
   * The adopted socket is open already: the open the app would have seen, its handshake's calls
   * finding the requests already sent, then the frames received so far, in order.
   */
  private takeOver(early: EarlySocket, onOpen: () => void): void {
    this.sentEarly = new SentEarly(early.ws, early.sent.splice(0));
    onOpen();
    // The handshake made its calls as it started (HubClient.onOpen): an early request none of
    // them asked is nobody's, and its answer is dropped; a later call that asks the same goes anew.
    this.sentEarly = undefined;
    const replay = { ws: early.ws, queue: early.received.splice(0) };
    this.replaying = replay;
    const deliver = (text: string): boolean => {
      if (this.ws !== replay.ws) return false;
      this.dispatch(text);
      return true;
    };
    handOver(replay.queue, deliver, () => {
      if (this.replaying === replay) this.replaying = undefined;
    });
  }

  private detach(ws: WebSocket): void {
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const delay = backoffDelay(this.attempt++, Math.random());
    this.timer = setTimeout(() => this.open(), delay);
  }

  private dispatch(text: string): void {
    const msg = rec(parseJson(text));
    if (!msg) {
      this.warn(`rpc: ignored a frame that is not a JSON object: ${text.slice(0, 80)}`);
      return;
    }
    const method = str(msg['method']);
    const id = idOf(msg['id']);
    if (method !== undefined) {
      if (id !== undefined) this.handlers.onRequest(id, method, msg['params']);
      else this.handlers.onNotification(method, msg['params']);
      return;
    }
    if (typeof id !== 'number' || !('result' in msg || 'error' in msg)) {
      this.warn(`rpc: ignored a frame that is neither a request, a notification nor an answer: ${text.slice(0, 80)}`);
      return;
    }
    this.pending.answer(id, msg);
  }

  private readonly onOnline = (): void => {
    if (this.stopped || this.status === 'unauthorized') return;
    if (this.ws?.readyState === OPEN) void this.probe();
    else {
      this.attempt = 0;
      this.open();
    }
  };

  /**
   * The browser says the device has no network: the socket is as good as gone, though its close
   * may come minutes later (a phone that changes networks sends no close, and a half-open socket
   * looks open until TCP gives up). Drop it and say "offline" now; `online` reconnects at once, and
   * the attach after it fetches what was missed meanwhile.
   */
  private readonly onOffline = (): void => {
    if (this.stopped || this.status === 'unauthorized') return;
    clearTimeout(this.timer);
    this.dropSocket(CLOSE.CLIENT_RECONNECT);
    this.setStatus('offline');
    this.schedule();
  };

  /**
   * A page that may be kept in the back/forward cache (`persisted`) lets go of its socket: the
   * browser will not keep a page with an open WebSocket, so going back would load the app anew.
   * Quietly (no "offline" on the kept page): `pageshow` reconnects, and the attach after it
   * fetches what was missed meanwhile, as after any reconnect.
   */
  private readonly onPageHide = (ev: PageTransitionEvent): void => {
    if (!ev.persisted || this.stopped) return;
    clearTimeout(this.timer);
    this.dropSocket(CLOSE.NORMAL);
  };

  private readonly onVisibility = (): void => {
    if (document.visibilityState === 'hidden') {
      this.hiddenAt = Date.now();
      return;
    }
    if (this.ws?.readyState !== OPEN) this.onOnline();
    else if (Date.now() - this.hiddenAt > WEB_LIMITS.probeAfterHiddenMs) void this.probe();
  };

  /** A cheap request; no answer within the probe timeout → the socket is dead, reconnect. */
  private async probe(): Promise<void> {
    // Not before the handshake is done: its own answers prove the socket alive then, and an older
    // hub refuses a request sent before initialize's (an adopted socket is open before it, and
    // `pageshow` comes then).
    if (this.status !== 'online') return;
    try {
      await this.call(ZCODE_REQUEST.interactionsList, {}, WEB_LIMITS.probeTimeoutMs);
    } catch (err) {
      // Any answer, even an error or an odd one, proves the socket alive.
      if (!(err instanceof RpcError || err instanceof MalformedResult)) this.reconnectNow();
    }
  }
}
