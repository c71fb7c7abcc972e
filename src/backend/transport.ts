import type { IncomingMessage, OutgoingMessage } from './envelope.js';

/** How a transport ended. `reason` names a fault the transport detected itself (e.g. an oversize line). */
export interface TransportCloseInfo {
  code: number | null;
  signal: string | null;
  reason?: string;
}

/**
 * A message pipe to one app-server process, after the MCP SDK's Transport: `start/send/close`
 * plus `onmessage/onclose/onerror`. `send` is synchronous and throws a BackendFailure
 * (`overloaded`, `gone`) instead of returning a promise, so a stalled child makes requests fail
 * fast rather than pile up (requirement CHD-04).
 */
export interface Transport {
  /** Starts the pipe (spawns the child). Rejects when it cannot start; `onclose` then still fires. */
  start(): Promise<void>;
  /** Queues one message for the child. Throws BackendFailure when it cannot be queued. */
  send(message: OutgoingMessage, method: string): void;
  /** Ends the pipe (for a child: the stop ladder). Memoised; resolves after `onclose` fired. */
  close(): Promise<void>;
  /** Ends the pipe at once (for a child: SIGKILL) — used on faults. */
  abort(reason: string): void;
  /** Every parsed message, with the time its line was read (`performance.timeOrigin + now()`). */
  onmessage?: (message: IncomingMessage, receivedAt: number) => void;
  /** Fires exactly once. */
  onclose?: (info: TransportCloseInfo) => void;
  /** Non-fatal problems worth a log line. */
  onerror?: (error: Error) => void;
  /** A line over the line cap was skipped; `id` when it was the answer to one of our requests. */
  onoversize?: (info: { bytes: number; id?: string | number }) => void;
}

/** `onclose` fired exactly once, and the promise a transport's `close()` resolves with after it. */
export class CloseOnce {
  private resolveDone!: () => void;
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));
  private firedOnce = false;

  get fired(): boolean {
    return this.firedOnce;
  }

  /** Calls `onclose` with `info` the first time only; `done` resolves even if it throws. */
  fire(info: TransportCloseInfo, onclose: Transport['onclose']): void {
    if (this.firedOnce) return;
    this.firedOnce = true;
    try {
      onclose?.(info);
    } finally {
      this.resolveDone();
    }
  }
}
