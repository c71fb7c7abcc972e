import type { Logger } from '../logger.js';
import { BackendFailure, BackendRpcError, type BackendFailureKind } from '../ports/backend-port.js';
import { idKey, type IncomingMessage, type RpcErrorObject, type RpcId } from './envelope.js';
import type { Transport } from './transport.js';
import { childTrace } from '../trace-context.js';

/** The answer to a reverse request: a result, or an error object (message non-empty, §1.7 rule 2). */
export type RpcOutcome = { result: unknown } | { error: RpcErrorObject };

/** Handles one reverse request; the peer writes whatever it resolves to (and an error if it throws). */
export type ReverseRequestHandler = (method: string, params: unknown, id: RpcId) => Promise<RpcOutcome>;

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** The fallback message when an error would otherwise be blank (a blank message voids the answer, §1.7 rule 2). */
const BLANK_ERROR_MESSAGE = 'The hub could not answer this request';

/** Builds a wire error object from anything thrown, never with a blank message. */
export function toErrorObject(err: unknown, fallbackCode = -32603): RpcErrorObject {
  const e = err as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  const code = typeof e?.code === 'number' && Number.isInteger(e.code) ? e.code : fallbackCode;
  const message = typeof e?.message === 'string' && e.message.trim().length > 0 ? e.message : BLANK_ERROR_MESSAGE;
  return e?.data === undefined || typeof e?.code !== 'number' ? { code, message } : { code, message, data: e.data };
}

/**
 * JSON-RPC correlation over one Transport (one child, one epoch): integer ids, a timeout per
 * request, typed failures (BackendRpcError for wire errors, BackendFailure for local ones), and
 * reverse requests that are always answered (APP-SERVER.md §1.7 rule 1). Knows nothing of
 * processes.
 */
export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private failedWith?: { kind: BackendFailureKind; message: string };

  constructor(
    private readonly transport: Transport,
    private readonly handlers: {
      onNotification: (method: string, params: unknown, receivedAt: number) => void;
      onRequest: ReverseRequestHandler;
    },
    private readonly logger: Logger,
  ) {}

  /** Forward requests still waiting for an answer. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Sends a request; settles with its result, a BackendRpcError or a BackendFailure. */
  request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    if (this.failedWith) return Promise.reject(new BackendFailure(this.failedWith.kind, method, this.failedWith.message));
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const key = idKey(id);
      const timer = setTimeout(() => {
        this.pending.delete(key);
        reject(new BackendFailure('timeout', method, `The agent backend did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(key, { method, resolve, reject, timer });
      try {
        // A traced client request names the hub's span as the child's parent (trace-context.ts).
        const trace = childTrace();
        this.transport.send({ id, method, ...(params === undefined ? {} : { params }), ...(trace ? { trace } : {}) }, method);
      } catch (err) {
        clearTimeout(timer);
        this.pending.delete(key);
        reject(err instanceof Error ? err : new BackendFailure('gone', method, String(err)));
      }
    });
  }

  /** Routes one message read from the transport. */
  handle(message: IncomingMessage, receivedAt: number): void {
    switch (message.kind) {
      case 'response':
      case 'error':
        this.settle(message);
        return;
      case 'notification':
        try {
          this.handlers.onNotification(message.method, message.params, receivedAt);
        } catch (err) {
          this.logger.error({ err, method: message.method }, 'notification listener threw');
        }
        return;
      case 'request':
        this.answer(message.id, message.method, message.params);
        return;
    }
  }

  /** Rejects every pending request with `kind` and refuses new ones (the child is gone or closed). */
  failAll(kind: BackendFailureKind, message: string): void {
    this.failedWith ??= { kind, message };
    for (const [key, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(key);
      p.reject(new BackendFailure(kind, p.method, message));
    }
  }

  /** Rejects one pending request (its answer could not be read, e.g. a skipped oversize line). */
  failOne(id: string | number, kind: BackendFailureKind, message: string): void {
    const key = idKey(id);
    const p = this.pending.get(key);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(key);
    p.reject(new BackendFailure(kind, p.method, message));
  }

  private settle(message: Extract<IncomingMessage, { kind: 'response' | 'error' }>): void {
    const key = idKey(message.id);
    const p = this.pending.get(key);
    if (!p) {
      if (message.kind === 'error' && (message.id === 'parse-error' || message.id === 'invalid-message')) {
        // §1.4: the child could not read one of our lines; the original id is lost.
        this.logger.error({ code: message.error.code, message: message.error.message }, 'the backend rejected a line the hub wrote');
      } else {
        this.logger.debug({ id: message.id }, 'response to an unknown or timed-out request ignored');
      }
      return;
    }
    clearTimeout(p.timer);
    this.pending.delete(key);
    if (message.kind === 'response') p.resolve(message.result);
    else p.reject(new BackendRpcError(p.method, message.error.code, message.error.message, message.error.data));
  }

  private answer(id: RpcId, method: string, params: unknown): void {
    let outcome: Promise<RpcOutcome>;
    try {
      outcome = this.handlers.onRequest(method, params, id);
    } catch (err) {
      outcome = Promise.resolve({ error: toErrorObject(err) });
    }
    outcome
      .catch((err: unknown) => ({ error: toErrorObject(err) }))
      .then((o) => {
        // A result of `undefined` would drop the `result` key and void the envelope (§1.3).
        const safe: RpcOutcome =
          'error' in o
            ? { error: toErrorObject(o.error) }
            : o.result === undefined
              ? { error: { code: -32603, message: BLANK_ERROR_MESSAGE } }
              : o;
        try {
          this.transport.send('error' in safe ? { id, error: safe.error } : { id, result: safe.result }, method);
        } catch (err) {
          this.logger.warn({ method, id, err: (err as Error).message }, 'could not answer a backend request');
        }
      })
      .catch((err: unknown) => this.logger.error({ err, method }, 'answering a backend request failed'));
  }
}
