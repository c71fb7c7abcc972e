import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { SessionTracker } from './session-tracker.js';

/** The socket side of the bridge: a text-frame duplex (a `ws` WebSocket in production). */
export interface BridgeSocket {
  send(text: string): void;
  close(): void;
  onMessage(listener: (text: string) => void): void;
  onClose(listener: (code: number) => void): void;
}

export interface BridgeOptions {
  /**
   * Opens a fresh authenticated connection to the daemon's `/acp` (starting it if needed);
   * `signal` aborts when the bridge closes, so a pending start or reconnect never holds it open.
   */
  connect: (signal: AbortSignal) => Promise<BridgeSocket>;
  /** Writes one protocol line to the editor (stdout). Nothing else ever goes there. */
  writeLine: (line: string) => void;
  logger: Logger;
  /** Editor messages held while reconnecting; past it the oldest requests fail. */
  maxBufferedMessages?: number;
  /** Reconnect backoff bounds. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

const idSchema = z.union([z.string(), z.number()]);
const messageSchema = z.object({
  id: idSchema.optional(),
  method: z.string().optional(),
  params: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});
type Message = z.infer<typeof messageSchema>;

/** Ids the bridge uses for its own requests (re-initialize, re-attach); their responses are swallowed. */
const INTERNAL_PREFIX = 'zcode-hub-bridge/';

function parse(text: string): Message | undefined {
  try {
    const result = messageSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `zcode-hub acp`: relays ACP between an editor on stdio and the daemon's WebSocket without
 * changing messages. When the connection drops (daemon restart, 4008) it reconnects with
 * backoff, re-sends the editor's `initialize`, re-attaches every session the editor had open
 * from its last seq, then delivers what the editor sent meanwhile — a pause, not an error.
 */
export class AcpBridge {
  private socket: BridgeSocket | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  /** Aborted by close(): ends a connect or a reconnect pause in progress. */
  private readonly stopping = new AbortController();
  private internalId = 0;
  private readonly buffered: string[] = [];
  private readonly tracker = new SessionTracker();
  /** Requests the hub sent the editor on the current connection (answers to older ones are dropped). */
  private hubRequests = new Set<string>();
  private readonly maxBuffered: number;
  private readonly minMs: number;
  private readonly maxMs: number;

  constructor(private readonly opts: BridgeOptions) {
    this.maxBuffered = opts.maxBufferedMessages ?? 1_000;
    this.minMs = opts.reconnectMinMs ?? 250;
    this.maxMs = opts.reconnectMaxMs ?? 5_000;
  }

  /**
   * Connects for the first time (failing loudly if the daemon cannot be reached at all; with an
   * AbortError when close() came first).
   */
  async start(): Promise<void> {
    const socket = await this.opts.connect(this.stopping.signal);
    if (this.closed) {
      socket.close();
      this.stopping.signal.throwIfAborted();
    }
    await this.attach(socket, false);
  }

  /** One line from the editor. */
  fromEditor(line: string): void {
    if (this.closed || line.trim() === '') return;
    const msg = parse(line);
    if (msg && msg.id !== undefined && msg.method === undefined) {
      // A response to a hub request: only meaningful on the connection that asked.
      if (!this.hubRequests.delete(String(msg.id))) return;
    } else if (msg?.method !== undefined && msg.id !== undefined) {
      this.tracker.editorRequest(msg.id, msg.method, msg.params);
    }
    if (this.socket) this.socket.send(line);
    else this.buffer(line);
  }

  /** The editor closed stdin: leave the daemon and its turns running; stop any connect in progress. */
  close(): void {
    this.closed = true;
    this.stopping.abort();
    this.socket?.close();
  }

  private buffer(line: string): void {
    this.buffered.push(line);
    while (this.buffered.length > this.maxBuffered) {
      const dropped = parse(this.buffered.shift()!);
      if (dropped?.id !== undefined && dropped.method !== undefined) {
        this.tracker.forget(dropped.id);
        this.toEditor({
          jsonrpc: '2.0',
          id: dropped.id,
          error: { code: -32603, message: 'zcode-hub is reconnecting and too many messages are waiting; retry' },
        });
      }
    }
  }

  private toEditor(message: unknown): void {
    this.opts.writeLine(JSON.stringify(message));
  }

  private fromHub(text: string): void {
    const msg = parse(text);
    if (!msg) {
      this.opts.writeLine(text);
      return;
    }
    if (typeof msg.id === 'string' && msg.id.startsWith(INTERNAL_PREFIX) && msg.method === undefined) {
      this.tracker.internalResponse(msg.id, msg.result, msg.error !== undefined);
      for (const answer of this.tracker.drainOrphanAnswers()) this.toEditor(answer);
      return;
    }
    if (msg.method !== undefined && msg.id !== undefined) this.hubRequests.add(String(msg.id));
    if (msg.method === undefined && msg.id !== undefined) this.tracker.hubResponse(msg.id, msg.result);
    if (msg.method !== undefined && msg.id === undefined) {
      this.tracker.hubNotification(msg.method, msg.params);
      for (const answer of this.tracker.drainOrphanAnswers()) this.toEditor(answer);
    }
    this.opts.writeLine(text);
  }

  private async attach(socket: BridgeSocket, reattach: boolean): Promise<void> {
    socket.onMessage((text) => this.fromHub(text));
    socket.onClose((code) => this.onDisconnect(socket, code));
    if (reattach) {
      const send = (method: string, params: unknown) => {
        const id = `${INTERNAL_PREFIX}${++this.internalId}`;
        this.tracker.internalRequest(id, method, params);
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      };
      const init = this.tracker.initializeParams();
      if (init !== undefined) send('initialize', init);
      for (const s of this.tracker.sessionsToResume()) send('session/resume', s);
      // Prompts cut off by the drop: if their turn already ended meanwhile, the list says idle.
      if (this.tracker.hasOrphans()) send('session/list', {});
    }
    this.socket = socket;
    for (const line of this.buffered.splice(0)) socket.send(line);
  }

  private onDisconnect(socket: BridgeSocket, code: number): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.hubRequests = new Set();
    if (this.closed) return;
    this.opts.logger.warn({ code }, 'lost the zcode-hub connection; reconnecting');
    for (const answer of this.tracker.connectionLost()) this.toEditor(answer);
    this.connecting ??= this.reconnect().finally(() => {
      this.connecting = undefined;
    });
  }

  private async reconnect(): Promise<void> {
    let delay = this.minMs;
    while (!this.closed) {
      try {
        const socket = await this.opts.connect(this.stopping.signal);
        if (this.closed) {
          socket.close();
          return;
        }
        await this.attach(socket, true);
        this.opts.logger.info('reconnected to zcode-hub');
        return;
      } catch (err) {
        if (this.closed) return;
        this.opts.logger.debug({ err }, 'reconnect failed');
        await sleep(delay, undefined, { signal: this.stopping.signal }).catch(() => undefined);
        delay = Math.min(this.maxMs, delay * 2);
      }
    }
  }
}
