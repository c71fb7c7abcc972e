import type { Logger } from '../logger.js';
import type { RpcId } from './envelope.js';
import { ProtocolError, RPC } from './protocol-error.js';

/** Result of a reverse request: the client's `result`, or a ProtocolError for its `error`. */
type Settle = { ok: true; result: unknown } | { ok: false; error: ProtocolError };

interface Pending {
  group: Group;
}

interface Group {
  method: string;
  ids: Set<string>;
  settled: boolean;
  resolve: (s: Settle) => void;
  timers: NodeJS.Timeout[];
}

export interface ReverseRequestOptions {
  /** Reject with -32022 after this many ms (§1.7 rule 6); undefined = wait forever. */
  timeoutMs?: number;
  /** Re-send the same params under a new id while unanswered (§1.7 rule 5). */
  reannounce?: boolean;
  signal?: AbortSignal;
}

/** Re-announcement delays: +1 s, +2 s, +4 s, +8 s, then every 10 s (t ≈ 1, 3, 7, 15, 25, 35 s …). */
export function reannounceDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 10_000);
}

/**
 * Server → client requests with ids `"server-N"` (one counter per process, §1.3). Responses are
 * routed here immediately, never through the serial queue (§1.6). A response whose id is
 * unknown or already settled is ignored: the first answer wins (§1.7 rule 4).
 */
export class ReverseRequests {
  private counter = 0;
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly write: (message: object) => void,
    private readonly log: Logger,
    private readonly reannounceScale: number,
  ) {}

  /** Sends the request and resolves with the result; rejects with a ProtocolError. */
  async request(method: string, params: object, options: ReverseRequestOptions = {}): Promise<unknown> {
    const settle = await new Promise<Settle>((resolve) => {
      const group: Group = { method, ids: new Set(), settled: false, resolve, timers: [] };
      const send = (): void => {
        const id = `server-${++this.counter}`;
        group.ids.add(id);
        this.pending.set(id, { group });
        this.write({ id, method, params });
      };
      send();
      if (options.reannounce) {
        let attempt = 0;
        const schedule = (): void => {
          const t = setTimeout(() => {
            if (group.settled) return;
            send();
            attempt++;
            schedule();
          }, reannounceDelay(attempt) * this.reannounceScale);
          group.timers.push(t);
        };
        schedule();
      }
      if (options.timeoutMs !== undefined) {
        const timeoutMs = options.timeoutMs;
        group.timers.push(
          setTimeout(
            () =>
              this.finish(group, {
                ok: false,
                error: new ProtocolError(RPC.timedOut, `Client request timed out: ${method}`, { timeoutMs }),
              }),
            timeoutMs,
          ),
        );
      }
      if (options.signal) {
        const onAbort = (): void =>
          this.finish(group, { ok: false, error: new ProtocolError(RPC.cancelled, `Client request cancelled: ${method}`) });
        if (options.signal.aborted) onAbort();
        else options.signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    if (settle.ok) return settle.result;
    throw settle.error;
  }

  /** Routes a client response; returns false when the id was unknown or already settled. */
  handleResponse(id: RpcId, outcome: { result: unknown } | { error: { code: number; message: string; data?: unknown } }): boolean {
    const p = this.pending.get(String(id));
    if (!p) {
      this.log.debug({ id }, 'response to an unknown or settled reverse request ignored');
      return false;
    }
    this.finish(
      p.group,
      'error' in outcome
        ? { ok: false, error: new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data) }
        : { ok: true, result: outcome.result },
    );
    return true;
  }

  /** Rejects every pending request (stdin EOF: "ZCode Protocol client connection closed", §1.1). */
  rejectAll(message: string): void {
    const groups = new Set([...this.pending.values()].map((p) => p.group));
    for (const g of groups) this.finish(g, { ok: false, error: new ProtocolError(RPC.noClient, message) });
  }

  /** Number of reverse requests still waiting (for diagnostics and tests). */
  get size(): number {
    return new Set([...this.pending.values()].map((p) => p.group)).size;
  }

  private finish(group: Group, settle: Settle): void {
    if (group.settled) return;
    group.settled = true;
    for (const t of group.timers) clearTimeout(t);
    // §1.7 rule 8: a settled request is just forgotten; no cancel notice is sent.
    for (const id of group.ids) this.pending.delete(id);
    group.resolve(settle);
  }
}
