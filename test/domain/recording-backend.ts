/**
 * A BackendPort that records every forward request and lets the test answer it — a legitimate
 * second implementation of the port the backend link implements for a child process, the way
 * RecorderClient (helpers.ts) is one of ClientPort. It keeps the port's contract: a request
 * stays open until answered (a result, a JSON-RPC error as BackendRpcError, or a local failure
 * as BackendFailure), fails with `timeout` after its timeout, and fails `gone` when the link
 * closes; nothing is answered on its own.
 */
import {
  BackendFailure,
  BackendRpcError,
  type BackendFailureKind,
  type BackendNotification,
  type BackendPort,
  type BackendRequestOptions,
  type BackendStatus,
  type InteractionHandler,
} from '../../src/ports/backend-port.js';

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  /** Answered (or failed) already. */
  settled: boolean;
  /** The child's result. */
  answer(result?: unknown): void;
  /** The child's JSON-RPC error. */
  refuse(code: number, message: string): void;
  /** A local failure of the link (the child went away, …). */
  fail(kind: BackendFailureKind): void;
}

export class RecordingBackend implements BackendPort {
  /** Every forward request, in the order asked. */
  readonly calls: RecordedCall[] = [];
  private current: BackendStatus = { state: 'ready', kind: 'sim', epoch: 1, restarts: 0 };
  private readonly notificationListeners = new Set<(n: BackendNotification) => void>();
  private readonly statusListeners = new Set<(s: BackendStatus) => void>();
  private readonly resumedListeners = new Set<(sessionId: string, snapshot: unknown) => void>();
  interactionHandler: InteractionHandler | undefined;

  /** @param defaultTimeoutMs how long a request without its own timeout waits (the link's forward timeout). */
  constructor(private readonly defaultTimeoutMs: number) {}

  status(): BackendStatus {
    return { ...this.current };
  }

  request(method: string, params?: unknown, options?: BackendRequestOptions): Promise<unknown> {
    if (this.current.state === 'stopped') return Promise.reject(new BackendFailure('closed', method, 'the backend is closed'));
    return new Promise((resolve, reject) => {
      const settle = (fn: () => void): void => {
        if (call.settled) return;
        call.settled = true;
        clearTimeout(timer);
        fn();
      };
      const call: RecordedCall = {
        method,
        params: (params ?? {}) as Record<string, unknown>,
        settled: false,
        answer: (result) => settle(() => resolve(result ?? {})),
        refuse: (code, message) => settle(() => reject(new BackendRpcError(method, code, message))),
        fail: (kind) => settle(() => reject(new BackendFailure(kind, method, `${method}: ${kind}`))),
      };
      const timer = setTimeout(() => call.fail('timeout'), options?.timeoutMs ?? this.defaultTimeoutMs);
      this.calls.push(call);
    });
  }

  onNotification(listener: (notification: BackendNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  onStatus(listener: (status: BackendStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  onSessionResumed(listener: (sessionId: string, snapshot: unknown) => void): () => void {
    this.resumedListeners.add(listener);
    return () => this.resumedListeners.delete(listener);
  }

  setInteractionHandler(handler: InteractionHandler): void {
    this.interactionHandler = handler;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  restart(): Promise<void> {
    this.setStatus({ ...this.current, state: 'ready', epoch: this.current.epoch + 1 });
    return Promise.resolve();
  }

  /** Stops: every open request fails `gone`, as the link's do when its child exits. */
  close(): Promise<void> {
    for (const c of this.calls) c.fail('gone');
    this.setStatus({ ...this.current, state: 'stopped' });
    return Promise.resolve();
  }

  stderrTail(): string[] {
    return [];
  }

  /** The open requests of `method`, oldest first. */
  open(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method && !c.settled);
  }

  /** The one open request of `method` (throws when there is none or more than one). */
  only(method: string): RecordedCall {
    const open = this.open(method);
    if (open.length !== 1) throw new Error(`expected one open ${method}, found ${open.length}`);
    return open[0] as RecordedCall;
  }

  /** Every request of `method` ever asked. */
  all(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  private setStatus(status: BackendStatus): void {
    this.current = status;
    for (const l of this.statusListeners) l(this.status());
  }
}
