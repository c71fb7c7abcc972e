/**
 * The calls an RpcConnection has sent and not yet had answered, by JSON-RPC id: each settled by
 * its answer, by its timeout, or — all at once — when the socket they went on is gone.
 */
import { ConnectionLost, RpcError } from './rpc-errors.js';
import { rec, str } from '../wire.js';

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

export class PendingCalls {
  private readonly calls = new Map<number, Pending>();

  /** Waits for the answer to call `id` of `method`; `timeoutMs: 0` = no timeout. */
  add(id: number, method: string, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      if (timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.calls.delete(id);
          reject(new Error(`${method} timed out`));
        }, timeoutMs);
      }
      this.calls.set(id, entry);
    });
  }

  /**
   * Settles call `id` with an answer frame: its `result`, or its `error` as an RpcError. An answer
   * to no call of ours (one that timed out already) is dropped: nothing waits for it.
   */
  answer(id: number, msg: Record<string, unknown>): void {
    const p = this.calls.get(id);
    if (!p) return;
    this.calls.delete(id);
    clearTimeout(p.timer);
    const err = rec(msg['error']);
    if (err) p.reject(new RpcError(typeof err['code'] === 'number' ? err['code'] : -32603, str(err['message']) ?? 'error', err['data']));
    else p.resolve(msg['result']);
  }

  /**
   * The socket is gone: every call fails with `why` — ConnectionLost by default (a reconnect
   * follows), or what says the link was stopped for good.
   */
  failAll(why: () => Error = () => new ConnectionLost()): void {
    for (const [, p] of this.calls) {
      clearTimeout(p.timer);
      p.reject(why());
    }
    this.calls.clear();
  }
}
