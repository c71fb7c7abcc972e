import type { Logger } from '../logger.js';
import { classifyLine, type IncomingRequest } from './envelope.js';
import { internalError, ProtocolError, RPC } from './protocol-error.js';
import type { ReverseRequests } from './reverse-requests.js';

export type MethodHandler = (params: unknown) => Promise<unknown> | unknown;

/** Methods that start once the previously queued request has started, then run concurrently (§1.6). */
export function bypassesQueue(method: string): boolean {
  return (
    method === 'session/stop' || method === 'workspace/cancelGenerateText' || method === 'mcp/readResource' || method.startsWith('mcp/ui')
  );
}

export interface ConnectionHooks {
  /** Called for every request before it is queued; return false to drop it (fault `--never-answer`). */
  onRequest?: (req: IncomingRequest) => boolean;
  /** Extra delay before each response is written (fault `--slow-ms`). */
  responseDelayMs?: number;
  /** Time a method's handler takes, inside the serial queue (fault `--slow-method`). */
  handlerDelayMs?: (method: string) => number;
  /** Delay of a method's answer *outside* the queue: later requests run meanwhile (fault `--subscribe-lag-ms`). */
  lateAnswerMs?: (method: string) => number;
}

/**
 * The protocol layer of one stdio connection: classifies lines (§1.3–1.4), answers envelope
 * errors, runs requests strictly one at a time in arrival order (§1.6), routes responses to
 * reverse requests immediately, and drains for 100 ms at EOF (§1.1).
 */
export class Connection {
  private tail: Promise<void> = Promise.resolve();
  private lastQueuedStarted: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly methods: ReadonlyMap<string, MethodHandler>,
    private readonly write: (message: object) => void,
    private readonly reverse: ReverseRequests,
    private readonly log: Logger,
    private readonly hooks: ConnectionHooks = {},
  ) {}

  /** Handles one trimmed, non-empty input line. */
  handleLine(line: string): void {
    const c = classifyLine(line);
    switch (c.kind) {
      case 'parse-error':
        this.write({ error: { code: RPC.parse, message: 'Parse error' }, id: 'parse-error' });
        return;
      case 'invalid':
        this.write({
          error: { code: RPC.invalidMessage, data: { issues: c.issues }, message: 'Invalid ZCode Protocol message' },
          id: 'invalid-message',
        });
        return;
      case 'notification':
        // §1.4: client notifications are ignored (process/networkCapture is a no-op here too).
        this.log.debug({ method: c.method }, 'client notification ignored');
        return;
      case 'response':
        this.reverse.handleResponse(c.message.id, c.message);
        return;
      case 'request':
        this.enqueue(c.message);
        return;
    }
  }

  /** Resolves when every started handler finished, or after `ms` (EOF drain, §1.1). */
  async drain(ms: number): Promise<void> {
    const all = Promise.all([...this.inFlight, this.tail]);
    await Promise.race([all, new Promise((r) => setTimeout(r, ms))]);
  }

  private enqueue(req: IncomingRequest): void {
    // The envelope's `trace` (§1.3): logged so a host's trace can be followed into the child.
    if (req.trace) this.log.info({ method: req.method, trace: req.trace }, 'traced request');
    if (this.hooks.onRequest && !this.hooks.onRequest(req)) return;
    if (bypassesQueue(req.method)) {
      const run = this.lastQueuedStarted.then(() => this.run(req));
      this.track(run);
      return;
    }
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    this.lastQueuedStarted = startedP;
    this.tail = this.tail.then(() => {
      started();
      const p = this.run(req);
      this.track(p);
      return p;
    });
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async run(req: IncomingRequest): Promise<void> {
    const handler = this.methods.get(req.method);
    const busyMs = this.hooks.handlerDelayMs?.(req.method) ?? 0;
    if (busyMs > 0) await new Promise((r) => setTimeout(r, busyMs));
    let message: object;
    if (!handler) {
      message = { error: { code: RPC.methodNotFound, message: `Method not found: ${req.method}` }, id: req.id };
    } else {
      try {
        const result = await handler(req.params);
        message = { id: req.id, result: result ?? {} };
      } catch (err) {
        const e = err instanceof ProtocolError ? err : internalError(err);
        if (!(err instanceof ProtocolError)) this.log.warn({ method: req.method, err }, 'handler threw');
        message = { error: e.toWire(), id: req.id };
      }
    }
    if (this.hooks.responseDelayMs) await new Promise((r) => setTimeout(r, this.hooks.responseDelayMs));
    const lateMs = this.hooks.lateAnswerMs?.(req.method) ?? 0;
    if (lateMs > 0) setTimeout(() => this.write(message), lateMs);
    else this.write(message);
  }
}
