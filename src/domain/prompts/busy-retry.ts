import { AppServerError } from '../../app-server/errors.js';

/** True for the -32010 "a prompt is already running" refusal (not the other -32010 meanings, §10). */
export function isBusyError(err: unknown): boolean {
  return (
    err instanceof AppServerError &&
    err.fault.kind === 'rpc' &&
    err.fault.code === -32010 &&
    /already running|prompt is running/i.test(err.fault.message)
  );
}

/**
 * Re-sending after -32010 when no ready boundary will come (APP-SERVER.md §11 item 7,
 * §14.1): after a stop the child may end a turn without any terminal event. The stop watchdog
 * then ends it here and sends the next prompt; if the child still holds its lock that send is
 * refused with -32010, and the `prompt_completed` the queue would wait for never comes. So,
 * only after such a synthesised end, a refused prompt is tried again every `busyRetryMs`
 * until the child takes it or a real boundary arrives. One timer per session.
 */
export class BusyRetry {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Sessions whose last boundary was synthesised by the watchdog, not sent by the child. */
  private readonly synthetic = new Set<string>();

  constructor(
    private readonly retryMs: number,
    private readonly onRetry: (sessionId: string) => void,
  ) {}

  /** The watchdog ended a turn locally: the next -32010 of this session may never see a boundary. */
  markSynthetic(sessionId: string): void {
    this.synthetic.add(sessionId);
  }

  /** A prompt of this session was refused with -32010: retry later if no boundary is coming. */
  refused(sessionId: string): void {
    if (!this.synthetic.has(sessionId) || this.timers.has(sessionId)) return;
    this.timers.set(
      sessionId,
      setTimeout(() => {
        this.timers.delete(sessionId);
        this.onRetry(sessionId);
      }, this.retryMs),
    );
  }

  /** A real boundary (or a taken prompt): back to waiting for the child's own signals. */
  settled(sessionId: string): void {
    this.synthetic.delete(sessionId);
    const t = this.timers.get(sessionId);
    if (t) clearTimeout(t);
    this.timers.delete(sessionId);
  }

  /** Clears every timer (the hub is closing). */
  close(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.synthetic.clear();
  }
}
