import WebSocket from 'ws';
import { z } from 'zod';

/**
 * A raw ACP-over-WebSocket test client (docs/CLIENT-PROTOCOL.md): JSON-RPC by hand, every
 * inbound message kept in arrival order, and `waitFor` helpers that wait for events instead of
 * sleeping. Used by the integration suites and the benchmarks; it does no validation of its own
 * beyond the JSON-RPC envelope, so tests see exactly what the hub sent.
 */

const DEFAULT_TIMEOUT_MS = 20_000;
/** How long `close()` waits for the close handshake before terminating the socket. */
const CLOSE_FALLBACK_MS = 1_000;

const inboundSchema = z.looseObject({
  jsonrpc: z.literal('2.0').optional(),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string().optional(),
  params: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
});
export type InboundMessage = z.infer<typeof inboundSchema>;

/** A JSON-RPC error the hub answered with. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
  /** The stable hub code (`data.code`), e.g. `HUB_ERR_FORBIDDEN`. */
  get hubCode(): string | undefined {
    const d = this.data as { code?: unknown } | undefined;
    return typeof d?.code === 'string' ? d.code : undefined;
  }
}

/** A request the hub sent to this client (permission, elicitation). */
export interface HubRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

export interface ConnectOptions {
  /** Sent as `Authorization: Bearer`. */
  token?: string;
  /** Extra query parameters (`instance`, `token` for the legacy profile). */
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** ws answers pings by itself; `false` simulates a dead peer (WS-04). */
  autoPong?: boolean;
  /** Largest message this client accepts (default: ws's 100 MiB). */
  maxPayload?: number;
}

export interface Closed {
  code: number;
  reason: string;
}

export class AcpWsClient {
  /** Every message received, in order. */
  readonly messages: InboundMessage[] = [];
  /** Non-JSON text frames received (should stay empty). */
  readonly garbage: string[] = [];
  readonly closed: Promise<Closed>;
  private nextId = 1;
  private readonly waiters = new Set<() => void>();
  private readonly pending = new Map<string | number, { resolve: (m: InboundMessage) => void; reject: (err: Error) => void }>();
  private closeInfo: Closed | undefined;

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString('utf8') };
        for (const p of this.pending.values()) p.reject(new Error(`socket closed (${code}) before the response`));
        this.pending.clear();
        resolve(this.closeInfo);
        this.wake();
      });
    });
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        this.garbage.push(text);
        return;
      }
      const parsed = inboundSchema.safeParse(value);
      if (!parsed.success) {
        this.garbage.push(text);
        return;
      }
      const msg = parsed.data;
      this.messages.push(msg);
      if (msg.method === undefined && msg.id !== undefined && msg.id !== null) {
        const waiter = this.pending.get(msg.id);
        if (waiter) {
          this.pending.delete(msg.id);
          waiter.resolve(msg);
        }
      }
      this.wake();
    });
  }

  /** Opens a socket to `wsUrl` (…/acp); rejects with the HTTP status when the upgrade is refused. */
  static connect(wsUrl: string, opts: ConnectOptions = {}): Promise<AcpWsClient> {
    const url = new URL(wsUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const ws = new WebSocket(url, {
      headers,
      autoPong: opts.autoPong ?? true,
      ...(opts.maxPayload ? { maxPayload: opts.maxPayload } : {}),
    });
    const client = new AcpWsClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () =>
          reject(Object.assign(new Error(`upgrade refused: ${res.statusCode} ${body}`), { status: res.statusCode, body })),
        );
      });
      ws.once('error', (err) => reject(err));
    });
  }

  /** True while the socket is open. */
  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** The close code and reason once closed. */
  get closeState(): Closed | undefined {
    return this.closeInfo;
  }

  /** Sends a request and resolves with its raw response message. */
  requestRaw(method: string, params?: unknown): Promise<InboundMessage> {
    const id = this.nextId++;
    const response = new Promise<InboundMessage>((resolve, reject) => {
      if (this.closeInfo) reject(new Error('socket closed'));
      else this.pending.set(id, { resolve, reject });
    });
    this.sendJson({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return response;
  }

  /** Sends a request; resolves with `result`, rejects with {@link RpcError}. */
  async request<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const msg = await this.requestRaw(method, params);
    if (msg.error) throw new RpcError(msg.error.code, msg.error.message, msg.error.data);
    return msg.result as T;
  }

  /** `initialize` with sensible defaults. */
  initialize(opts: { name?: string; elicitationForm?: boolean } = {}): Promise<Record<string, unknown>> {
    return this.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: opts.elicitationForm ? { elicitation: { form: {} } } : {},
      clientInfo: { name: opts.name ?? 'test-client', version: '0.0.0' },
    });
  }

  /** Sends a notification. */
  notify(method: string, params?: unknown): void {
    this.sendJson({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  /** Answers a hub → client request. */
  answer(id: string | number, result: unknown): void {
    this.sendJson({ jsonrpc: '2.0', id, result });
  }

  /** Answers a hub → client request with an error. */
  answerError(id: string | number, code: number, message: string): void {
    this.sendJson({ jsonrpc: '2.0', id, error: { code, message } });
  }

  /** Sends raw bytes or text (hardening tests). */
  sendRaw(data: string | Buffer, binary = false): void {
    this.ws.send(data, { binary });
  }

  sendJson(value: unknown): void {
    this.ws.send(JSON.stringify(value));
  }

  /** Params of every notification of `method` received so far. */
  notifications<T = Record<string, unknown>>(method: string): T[] {
    return this.messages.filter((m) => m.method === method && (m.id === undefined || m.id === null)).map((m) => m.params as T);
  }

  /**
   * The journaled `session/update`s received so far (those with a `seq`): the session's history.
   * State told without a seq (`available_commands_update`, `replay_complete`) is left out
   * (docs/CLIENT-PROTOCOL.md "Notifications").
   */
  journaled<T = Record<string, unknown>>(): T[] {
    return this.notifications<{ _meta?: { zcode?: { seq?: unknown } } }>('session/update').filter(
      (u) => typeof u._meta?.zcode?.seq === 'number',
    ) as T[];
  }

  /** Every hub → client request of `method` received so far. */
  requests(method?: string): HubRequest[] {
    return this.messages
      .filter((m) => m.method !== undefined && m.id !== undefined && m.id !== null && (method === undefined || m.method === method))
      .map((m) => ({ id: m.id as string | number, method: m.method as string, params: (m.params ?? {}) as Record<string, unknown> }));
  }

  /** Resolves with the first value `probe` returns for the messages so far or to come. */
  waitFor<T>(
    probe: (messages: readonly InboundMessage[]) => T | undefined,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    what = 'condition',
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const value = probe(this.messages);
        if (value !== undefined) {
          cleanup();
          resolve(value);
          return true;
        }
        if (this.closeInfo) {
          cleanup();
          reject(new Error(`socket closed (${this.closeInfo.code} ${this.closeInfo.reason}) while waiting for ${what}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      const waiter = () => void check();
      if (check()) return;
      this.waiters.add(waiter);
    });
  }

  /**
   * Waits for a notification of `method` whose params satisfy `match`, among all received so far
   * — or only among those after the first `skip` of that method (pass `notifications(method).length`
   * taken before the action, to wait for one the action caused).
   */
  waitForNotification<T = Record<string, unknown>>(
    method: string,
    match: (params: T) => boolean = () => true,
    timeoutMs?: number,
    skip = 0,
  ): Promise<T> {
    return this.waitFor(() => this.notifications<T>(method).slice(skip).find(match), timeoutMs, `notification ${method}`);
  }

  /** Waits for a hub → client request of `method` whose params satisfy `match`. */
  waitForRequest(method: string, match: (req: HubRequest) => boolean = () => true, timeoutMs?: number): Promise<HubRequest> {
    return this.waitFor(() => this.requests(method).find(match), timeoutMs, `request ${method}`);
  }

  /** Waits for `count` notifications of `method` in total. */
  waitForCount(method: string, count: number, timeoutMs?: number): Promise<number> {
    return this.waitFor(
      () => {
        const n = this.notifications(method).length;
        return n >= count ? n : undefined;
      },
      timeoutMs,
      `${count} × ${method}`,
    );
  }

  /** Closes (default 1000) and waits for the close to complete. */
  async close(code = 1000, reason = ''): Promise<Closed> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, reason);
    // A peer (or our own paused socket) that never completes the handshake is dropped.
    const fallback = setTimeout(() => this.ws.terminate(), CLOSE_FALLBACK_MS);
    const closed = await this.closed;
    clearTimeout(fallback);
    return closed;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
