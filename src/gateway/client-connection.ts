import type { NotificationParams } from '../zcode-ext/schemas.js';
import { randomUUID } from 'node:crypto';
import type { Identity } from '../auth/identity.js';
import type { ClientPort, ProfileNotice } from '../domain/delivery/client-port.js';
import { Frame } from '../domain/delivery/frame.js';
import type { Logger } from '../logger.js';
import { CLOSE } from './close-codes.js';
import type { GatewaySocket } from './gateway-socket.js';
import { legacyNotice, legacyReads } from './legacy-profile.js';
import { errorFrame, notificationFrame, requestFrame, resultFrame, type RpcErrorObject, type RpcId } from './jsonrpc.js';
import { frameForKinds, REPLAY_COMPLETE, type UpdateKinds } from './update-kinds.js';
import { MAX_BATCH_BYTES, type Batched, type RawSocket, type WriteBatcher } from './write-batch.js';
import { wsTextFrame } from './ws-text-frame.js';

/** The limits one connection enforces (a slice of `config.limits`). */
export interface ConnectionLimits {
  clientOutboundBudgetBytes: number;
  protocolViolationsBeforeClose: number;
  wsCloseGraceMs: number;
  withdrawnRequestsKept: number;
}

/** Why a request the hub sent to a client did not get a result. */
export class ClientRequestError extends Error {
  constructor(
    readonly kind: 'closed' | 'withdrawn' | 'client_error',
    message: string,
    readonly rpcError?: RpcErrorObject,
  ) {
    super(message);
    this.name = 'ClientRequestError';
  }
}

/** The TCP socket under the WebSocket and the gateway's batcher (write-batch.ts). */
export interface SendBatching {
  tcp: RawSocket;
  batcher: WriteBatcher;
}

/** `ws` send options for a pre-encoded JSON-RPC message: a text frame (ARCHITECTURE.md §5). */
const TEXT_FRAME = { binary: false } as const;
const NO_DRAFT_KINDS: ReadonlySet<string> = new Set();

interface PendingRequest {
  method: string;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  onLate: ((result: unknown) => void) | undefined;
}

/**
 * One authenticated WebSocket client (the hocuspocus `ClientConnection`): the domain's
 * {@link ClientPort} over a `ws` socket. Sending never awaits the client: frames go straight to
 * `ws` (batched per event-loop turn when the TCP socket is known, write-batch.ts), and a client
 * whose buffered bytes exceed its budget is closed 4008 (ARCHITECTURE.md §4.3).
 */
export class ClientConnection implements ClientPort, Batched {
  // The fields every delivered frame reads come first, in this order. V8 lays an object's fields
  // out in the order they are first assigned, so these share the object's first cache lines: in a
  // team's stream each client is sent one frame per turn, on an object the cache has long since
  // dropped, and every line a delivery touches is a miss (BENCHMARKS.md, twelfth session).
  private closed = false;
  /** Read for every delivery too: the fan-out skips the prompter's own client by it. */
  readonly clientId = randomUUID();
  readonly profile: 'acp' | 'legacy';
  /**
   * The `session/update` kinds this client parses, decided at `initialize` (update-kinds.ts);
   * `undefined`: every kind. Kinds it cannot parse are folded or dropped in {@link sendFrame}.
   */
  updateKinds: UpdateKinds;
  private readonly socket: GatewaySocket;
  /** The TCP socket under the WebSocket, when this turn's frames are batched (write-batch.ts). */
  private readonly tcp: RawSocket | undefined;
  private readonly batcher: WriteBatcher | undefined;
  /** Frames held this turn, written as one buffer at its end (write-batch.ts). */
  private batchCount = 0;
  /** This turn's first frame: a turn of one frame (a team's stream) never touches {@link batch}. */
  private batchFirst: Frame | undefined = undefined;
  /** Bytes the kernel had not taken when this turn's batch began: the backlog the budget judges. */
  private backlogAtBatch = 0;
  private batchedBytes = 0;
  /**
   * A turn of two frames or more: the first {@link batchCount} slots (the first frame copied in
   * from {@link batchFirst}). The list is never emptied: a V8 array emptied by `pop` or
   * `length = 0` drops its backing store, so every client's turn allocated a new one (a young
   * store hung off an old connection, for every scavenge to trace); its slots are cleared
   * instead, so it pins no frame between turns.
   */
  private readonly batch: Array<Frame | undefined> = [];
  private readonly limits: ConnectionLimits;

  readonly identity: Identity;
  /** `Acp-Connection-Id`: the 101 header of a WebSocket, the header of a Streamable HTTP connection. */
  readonly connectionId: string;
  elicitationForm = false;
  /** `clientInfo.name` from `initialize`, if any. */
  clientName: string | undefined;
  initialized = false;
  /** The multi-client draft's kinds it opted into (ClientPort.draftUpdates): at `initialize` or by `session/attach`. */
  draftUpdates: ReadonlySet<string> = NO_DRAFT_KINDS;
  /** zcode-acp-remote keeps one pending permission card: its questions come one at a time. */
  readonly oneQuestionAtATime: boolean;
  /** On the hub's own machine, not through a proxy or tunnel (set once by the gateway at accept). */
  local = false;
  /** Heartbeat: set by every pong, cleared by every ping (ARCHITECTURE.md §5). */
  alive = true;
  private violations = 0;
  private nextRequestId = 1;
  private readonly pending = new Map<RpcId, PendingRequest>();
  /** Withdrawn requests whose late result someone wants, oldest first (limits.withdrawnRequestsKept). */
  private readonly withdrawn = new Map<RpcId, (result: unknown) => void>();
  private readonly closeListeners: Array<(code: number, reason: string) => void> = [];
  private graceTimer: NodeJS.Timeout | undefined;
  /** The gateway's logger, shared by every connection. */
  private readonly baseLogger: Logger;
  private childLogger: Logger | undefined;

  constructor(
    socket: GatewaySocket,
    identity: Identity,
    profile: 'acp' | 'legacy',
    limits: ConnectionLimits,
    baseLogger: Logger,
    batching?: SendBatching,
    /** The RFD's `Acp-Connection-Id` the transport named this connection by (a fresh one if none). */
    connectionId?: string,
  ) {
    this.profile = profile;
    this.socket = socket;
    this.tcp = batching?.tcp;
    this.batcher = batching?.batcher;
    this.limits = limits;
    this.identity = identity;
    this.baseLogger = baseLogger;
    this.connectionId = connectionId ?? randomUUID();
    this.oneQuestionAtATime = profile === 'legacy';
    socket.on('close', (code: number, reason: Buffer) => this.finish(code, reason.toString('utf8')));
    socket.on('pong', () => {
      this.alive = true;
    });
  }

  /**
   * This connection's logger (carries `clientId`). Made on first use: most connections never log
   * beyond connect/disconnect, which the gateway writes with the shared logger (B-MEM).
   */
  get logger(): Logger {
    return (this.childLogger ??= this.baseLogger.child({ clientId: this.clientId }));
  }

  /** Whether it announced ACP v2's `replay_complete` (update-kinds.ts); false before `initialize`. */
  get replayComplete(): boolean {
    return this.initialized && (this.updateKinds === undefined || this.updateKinds.has(REPLAY_COMPLETE));
  }

  /** True while the socket is open and we have not decided to close it. */
  get open(): boolean {
    return !this.closed;
  }

  /** Registers a listener that runs once when the connection ends (any cause). */
  onClose(listener: (code: number, reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  /** Queues an encoded frame; over budget the client is closed 4008 (never throws, never awaits). */
  sendFrame(shared: Frame): void {
    if (this.closed) return;
    if (this.profile === 'legacy' && !legacyReads(shared.method)) return;
    const frame = frameForKinds(shared, this.updateKinds);
    if (frame === undefined) return;
    const size = frame.bytes.length;
    // A backlog is what the budget bounds: one frame larger than the budget (an image prompt
    // echoed to the others) still goes out to a client that keeps up. This turn's batch is no
    // backlog (the kernel has not been offered it yet), so it does not count as one. A client
    // that keeps up has none, and its later frames of a turn skip reading the socket's queue.
    const holding = this.batchCount > 0;
    const backlog = holding ? this.backlogAtBatch : this.backlog();
    if (backlog > 0) {
      // Every byte not yet handed to the kernel: earlier turns' backlog plus this turn's batch.
      const buffered = holding ? backlog + this.batchedBytes : backlog;
      if (buffered + size > this.limits.clientOutboundBudgetBytes) {
        this.logger.warn({ buffered, frameBytes: size }, 'client over its outbound budget: closing 4008');
        this.close(CLOSE.SLOW_CONSUMER, 'slow consumer');
        return;
      }
    }
    // Batched, the frame waits for the end of the turn and leaves with the others in one write
    // (write-batch.ts); an unbatched socket, or one ws is closing, goes through ws (which refuses
    // sends after close).
    const batcher = this.batcher;
    if (batcher === undefined || this.socket.readyState !== this.socket.OPEN) {
      this.socket.send(frame.bytes, TEXT_FRAME);
      return;
    }
    if (!holding) {
      this.backlogAtBatch = backlog;
      this.batchFirst = frame;
      this.batchCount = 1;
      batcher.hold(this);
    } else {
      if (this.batchCount === 1) this.batch[0] = this.batchFirst;
      this.batch[this.batchCount++] = frame;
    }
    if ((this.batchedBytes += size) >= MAX_BATCH_BYTES) this.flushBatch();
  }

  /**
   * Bytes written and not yet taken by the kernel. Batched, that is the TCP socket's own queue:
   * every frame goes to it directly, and ws's sender holds bytes only while it compresses or reads
   * a Blob, neither of which the hub does (ws-text-frame.ts); reading it there skips two objects
   * a delivery would otherwise touch (ws's getter adds its sender's count).
   */
  private backlog(): number {
    return this.tcp !== undefined ? this.tcp.writableLength : this.socket.bufferedAmount;
  }

  /** Writes this turn's frames to the TCP socket in one write (idempotent; dropped once ws no longer sends). */
  flushBatch(): void {
    const count = this.batchCount;
    if (count === 0) return;
    this.batchCount = 0;
    this.batchedBytes = 0;
    const first = this.batchFirst as Frame;
    this.batchFirst = undefined;
    if (this.tcp !== undefined && this.batcher !== undefined && this.socket.readyState === this.socket.OPEN)
      this.tcp.write(count === 1 ? wsTextFrame(first) : this.batcher.join(this.batch, count));
    if (count > 1) for (let i = 0; i < count; i++) this.batch[i] = undefined;
  }

  /** Encodes and queues a frame built for this client alone. */
  private sendText(text: string): void {
    this.sendFrame(new Frame(text));
  }

  /**
   * Sends a hub → client request; `response` settles with the client's answer. `onLate` hears a
   * result that arrives after the request was withdrawn (cancelRequest).
   */
  request(method: string, params: unknown, onLate?: (result: unknown) => void): { id: number; response: Promise<unknown> } {
    const id = this.nextRequestId++;
    const response = new Promise<unknown>((resolve, reject) => {
      if (this.closed) {
        reject(new ClientRequestError('closed', 'connection closed'));
        return;
      }
      this.pending.set(id, { method, resolve, reject, onLate });
    });
    // A rejection nobody awaits must not become an unhandled rejection (the domain may drop it).
    response.catch(() => undefined);
    this.sendText(requestFrame(id, method, params));
    return { id, response };
  }

  /** Withdraws an outstanding request: `$/cancel_request` (legacy: with `id` too), settled locally. */
  cancelRequest(id: string | number): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    if (entry.onLate !== undefined && this.limits.withdrawnRequestsKept > 0) {
      this.withdrawn.set(id, entry.onLate);
      if (this.withdrawn.size > this.limits.withdrawnRequestsKept) this.withdrawn.delete(this.withdrawn.keys().next().value as RpcId);
    }
    entry.reject(new ClientRequestError('withdrawn', `${entry.method} withdrawn`));
    const params = this.profile === 'legacy' ? { requestId: id, id } : { requestId: id };
    this.sendText(notificationFrame('$/cancel_request', params));
  }

  /** The compat profile's own notification for a domain notice (legacy-profile.ts); none for ACP. */
  profileFrame(notice: ProfileNotice): Frame | undefined {
    if (this.profile !== 'legacy') return undefined;
    const shaped = legacyNotice(notice);
    return shaped === undefined ? undefined : new Frame(notificationFrame(shaped.method, shaped.params), shaped.method);
  }

  /** Sends a notification built for this client alone (per-client frames are rare: presence, errors). */
  notify<M extends string>(method: M, params: NotificationParams<M>): void {
    this.sendFrame(new Frame(notificationFrame(method, params), method));
  }

  /** Answers one of the client's requests. */
  respond(id: RpcId, result: unknown): void {
    this.sendText(resultFrame(id, result));
  }

  /** Answers one of the client's requests with an error. */
  respondError(id: RpcId | null, error: RpcErrorObject): void {
    this.sendText(errorFrame(id, error));
  }

  /**
   * Routes the client's answer to one of our requests. A result for a withdrawn request goes to
   * its `onLate` (once); other unknown ids are ignored.
   */
  settle(id: RpcId | null, outcome: { result: unknown } | { error: RpcErrorObject }): void {
    if (id === null) return;
    const entry = this.pending.get(id);
    if (!entry) {
      const late = this.withdrawn.get(id);
      if (late === undefined) return;
      this.withdrawn.delete(id);
      if ('result' in outcome) late(outcome.result);
      return;
    }
    this.pending.delete(id);
    if ('result' in outcome) entry.resolve(outcome.result);
    else entry.reject(new ClientRequestError('client_error', outcome.error.message, outcome.error));
  }

  /** Counts one protocol violation; past the limit the socket is closed 4400. Returns true when closed. */
  violation(reason: string): boolean {
    this.violations += 1;
    this.logger.debug({ reason, violations: this.violations }, 'protocol violation');
    if (this.violations >= this.limits.protocolViolationsBeforeClose) {
      this.logger.warn({ violations: this.violations }, 'too many protocol violations: closing 4400');
      this.close(CLOSE.PROTOCOL_VIOLATION, 'too many protocol violations');
      return true;
    }
    return false;
  }

  /** Heartbeat tick: terminate when the last ping got no pong, else ping again. */
  heartbeat(): void {
    if (this.closed) return;
    if (!this.alive) {
      this.logger.info('missed pong: terminating');
      this.terminate();
      return;
    }
    this.alive = false;
    try {
      this.socket.ping();
    } catch {
      this.terminate();
    }
  }

  /**
   * Closes with `code`. The connection counts as gone at once (the domain detaches it now);
   * a peer that does not complete the close handshake in `wsCloseGraceMs` is terminated.
   */
  close(code: number, reason: string): void {
    if (this.closed) return;
    // Whatever this turn batched leaves before the close frame, not at the end of the turn.
    this.flushBatch();
    this.socket.close(code, reason);
    this.graceTimer = setTimeout(() => this.socket.terminate(), this.limits.wsCloseGraceMs);
    this.graceTimer.unref();
    this.finish(code, reason);
  }

  /** Drops the socket without a close handshake (dead peer). */
  terminate(): void {
    this.socket.terminate();
    this.finish(1006, 'terminated');
  }

  /** Idempotent end of life: pending requests reject with a typed error, listeners run once. */
  private finish(code: number, reason: string): void {
    if (this.graceTimer && this.socket.readyState === this.socket.CLOSED) clearTimeout(this.graceTimer);
    this.flushBatch();
    if (this.closed) return;
    this.closed = true;
    for (const entry of this.pending.values()) entry.reject(new ClientRequestError('closed', 'connection closed'));
    this.pending.clear();
    this.withdrawn.clear();
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener(code, reason);
      } catch (err) {
        this.logger.error({ err }, 'close listener failed');
      }
    }
  }
}
