import type { Authenticator, Identity } from '../auth/identity.js';
import type { HubConfig } from '../config/schema.js';
import { HubError } from '../errors.js';
import type { Logger } from '../logger.js';
import { ClientConnection } from './client-connection.js';
import { CLOSE } from './close-codes.js';
import { Dispatcher } from './dispatch.js';
import type { GatewaySocket } from './gateway-socket.js';
import type { GatewayHub } from './hub-api.js';
import { HeartbeatWheel } from './heartbeat-wheel.js';
import { WriteBatcher, type RawSocket } from './write-batch.js';

export interface GatewayServerDeps {
  hub: GatewayHub;
  config: HubConfig;
  logger: Logger;
  version: string;
  authenticator?: Authenticator;
  /** Told of every closed connection with its close code (metrics count 4008 slow consumers). */
  onConnectionClosed?: (code: number) => void;
  /** This hub's id and name, sent in `initialize`'s `_meta.zcode.hub`. */
  hubIdentity?: { hubId: string; name: string };
}

/** The close reason of a binary frame: what to send instead. */
export const BINARY_FRAME_REASON = 'text frames only: send each JSON-RPC message as a UTF-8 text frame';

/** Longest delay `setTimeout` accepts (about 24.8 days); later expiries are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The gateway's `Server` (hocuspocus model): every live client connection, the connection caps
 * (ARCHITECTURE.md §8), the heartbeat (§5) and closing sockets whose token is revoked or expires (§7).
 */
export class GatewayServer {
  private readonly conns = new Map<string, ClientConnection>();
  /** The `Origin` each browser socket was opened from (URL origin form), to close it when that peer goes. */
  private readonly origins = new Map<string, string>();
  private readonly perToken = new Map<string, number>();
  private readonly dispatcher: Dispatcher;
  /** One logger for every connection: a child per connection costs memory per idle client (B-MEM). */
  private readonly log: Logger;
  /** One end-of-turn flush for every connection's batched frames (write-batch.ts). */
  private readonly batcher = new WriteBatcher();
  /** Pings each connection once an interval, a slice of them at a time (heartbeat-wheel.ts). */
  private readonly heartbeat: HeartbeatWheel<ClientConnection>;
  private started = false;
  private unsubscribeRevoked: (() => void) | undefined;
  private closing = false;

  constructor(private readonly deps: GatewayServerDeps) {
    this.log = deps.logger.child({ component: 'gateway' });
    this.heartbeat = new HeartbeatWheel(deps.config.limits.heartbeatIntervalMs);
    this.dispatcher = new Dispatcher({
      hub: deps.hub,
      version: deps.version,
      ...(deps.hubIdentity ? { hubIdentity: deps.hubIdentity } : {}),
      logger: deps.logger,
      defaultWorkspace: deps.config.workspace,
      workspaces: deps.config.workspaces,
      maxJsonDepth: deps.config.limits.jsonMaxDepth,
      onInitialized: (conn) => {
        if (conn.open) deps.hub.connect(conn);
      },
    });
  }

  /** Starts the heartbeat and listens for revocations (idempotent). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.heartbeat.start();
    this.unsubscribeRevoked = this.deps.authenticator?.onRevoked?.((tokenId) => this.closeToken(tokenId, 'token revoked'));
  }

  /** Live connections. */
  get size(): number {
    return this.conns.size;
  }

  /** The live connections (read-only view, for status routes and tests). */
  connections(): IterableIterator<ClientConnection> {
    return this.conns.values();
  }

  /** Why a new connection for `identity` would be refused, or undefined when it may open. */
  admissionError(identity: Identity): HubError | undefined {
    const limits = this.deps.config.limits;
    if (this.closing) return new HubError('HUB_ERR_BACKEND_UNAVAILABLE', 'The hub is shutting down');
    if (this.conns.size >= limits.connectionsTotal)
      return new HubError('HUB_ERR_LIMIT', 'Too many open connections', { limit: 'connectionsTotal' });
    if ((this.perToken.get(identity.tokenId) ?? 0) >= limits.connectionsPerToken) {
      return new HubError('HUB_ERR_LIMIT', 'Too many open connections for this token', { limit: 'connectionsPerToken' });
    }
    return undefined;
  }

  /**
   * Takes over an upgraded socket of an authenticated caller. `tcp` is the TCP socket under
   * `socket`; with it, frames are batched per event-loop turn (write-batch.ts).
   */
  accept(
    socket: GatewaySocket,
    identity: Identity,
    profile: 'acp' | 'legacy',
    tcp?: RawSocket,
    origin?: string,
    local = false,
    connectionId?: string,
  ): ClientConnection | undefined {
    const limits = this.deps.config.limits;
    const batching = tcp ? { tcp, batcher: this.batcher } : undefined;
    const conn = new ClientConnection(socket, identity, profile, limits, this.log, batching, connectionId);
    conn.local = local;
    const clientId = conn.clientId;
    // ws emits 'error' before closing on a protocol error (1009 too big, 1007 bad UTF-8): log, never crash.
    socket.on('error', (err) =>
      this.log.info({ clientId, err: { message: err.message, code: (err as { code?: string }).code } }, 'socket error'),
    );
    const refused = this.admissionError(identity);
    if (refused) {
      // The pre-upgrade check raced with another upgrade of the same token.
      socket.close(CLOSE.POLICY, refused.message);
      return undefined;
    }
    this.conns.set(conn.clientId, conn);
    this.heartbeat.add(conn);
    const from = originOf(origin);
    if (from) this.origins.set(conn.clientId, from);
    this.perToken.set(identity.tokenId, (this.perToken.get(identity.tokenId) ?? 0) + 1);
    const expiry: { timer?: NodeJS.Timeout } = {};
    this.armExpiry(conn, expiry);
    conn.onClose((code) => {
      clearTimeout(expiry.timer);
      this.conns.delete(conn.clientId);
      this.heartbeat.remove(conn);
      this.origins.delete(conn.clientId);
      const left = (this.perToken.get(identity.tokenId) ?? 1) - 1;
      if (left > 0) this.perToken.set(identity.tokenId, left);
      else this.perToken.delete(identity.tokenId);
      // A close never settles or cancels anything: the domain only detaches (ARCHITECTURE.md §4.5).
      if (conn.initialized) this.deps.hub.disconnect(conn.clientId);
      this.log.info({ clientId, code }, 'client disconnected');
      this.deps.onConnectionClosed?.(code);
    });
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      if (!conn.open) return;
      // Messages are text frames only (docs/CLIENT-PROTOCOL.md "WebSocket"): a binary frame is
      // closed on at once, since ignoring it would leave its sender waiting for an answer forever.
      if (isBinary) {
        conn.close(CLOSE.UNSUPPORTED_DATA, BINARY_FRAME_REASON);
        return;
      }
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Buffer.from(data).toString('utf8');
      this.dispatcher.handleText(conn, text);
    });
    this.log.info({ clientId, profile, scope: identity.scope, name: identity.name }, 'client connected');
    return conn;
  }

  /**
   * The app origin a connection is reached from (an Origin header); the first one seen sticks, and
   * a request of the same connection from another origin is refused (false). Closing by origin
   * then finds every transport: a WebSocket names it at the upgrade, a Streamable HTTP connection
   * at its initialize or its first request that sends one.
   */
  bindOrigin(conn: ClientConnection, origin: string | undefined): boolean {
    const from = originOf(origin);
    if (!from) return true;
    const bound = this.origins.get(conn.clientId);
    if (bound === undefined && this.conns.has(conn.clientId)) this.origins.set(conn.clientId, from);
    return bound === undefined || bound === from;
  }

  /** Closes every connection (WebSocket or Streamable HTTP) from `origin` with 4003: that app origin is no longer a peer. Returns how many. */
  closeOrigin(origin: string, reason: string): number {
    let closed = 0;
    for (const conn of [...this.conns.values()])
      if (this.origins.get(conn.clientId) === origin) {
        conn.close(CLOSE.ORIGIN_NOT_ALLOWED, reason);
        closed += 1;
      }
    return closed;
  }

  /** Closes every socket of `tokenId` with 4401 (revocation, ARCHITECTURE.md §7). */
  closeToken(tokenId: string, reason: string): void {
    for (const conn of [...this.conns.values()]) if (conn.identity.tokenId === tokenId) conn.close(CLOSE.UNAUTHENTICATED, reason);
  }

  /**
   * Closes every connection with 1001 and stops the heartbeat; memoised by the caller's app.close().
   * Prompts in flight are answered first, while their sockets are open (a client tells the hub
   * going away from a lost network): their errors are written in the turn this yields, and a
   * connection's close writes what it holds before its close frame.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.heartbeat.stop();
    this.unsubscribeRevoked?.();
    this.deps.hub.endPrompts();
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (const conn of [...this.conns.values()]) conn.close(CLOSE.GOING_AWAY, 'hub shutting down');
  }

  /** Closes the connection when its token expires; far expiries re-arm, always into `holder`. */
  private armExpiry(conn: ClientConnection, holder: { timer?: NodeJS.Timeout }): void {
    const at = conn.identity.expiresAt;
    if (at === undefined) return;
    holder.timer = setTimeout(
      () => {
        if (!conn.open) return;
        if (Date.now() >= at) conn.close(CLOSE.UNAUTHENTICATED, 'token expired');
        else this.armExpiry(conn, holder);
      },
      Math.min(Math.max(at - Date.now(), 0), MAX_TIMER_MS),
    );
    holder.timer.unref();
  }
}

/** An Origin header in URL origin form (what the peer list holds), or undefined. */
function originOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return new URL(header).origin;
  } catch {
    return undefined;
  }
}
