import type { RpcOutcome } from './rpc-peer.js';

/** A Map kept in least-recently-used order, dropping the oldest entry past `capacity`. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.map.delete(oldest.value);
    }
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * De-duplication of re-announced interaction requests by `params.requestId` (APP-SERVER.md
 * §1.7 rule 5, requirement CHD-07). One instance per epoch: the first announcement starts the
 * work; every re-announcement while it runs shares its promise (so each JSON-RPC id is answered
 * once it settles); after settlement the answer is kept in a bounded LRU and a re-announcement
 * is answered at once with the same answer.
 */
export class InteractionDedupe {
  private readonly inflight = new Map<string, Promise<RpcOutcome>>();
  private readonly settled: Lru<string, RpcOutcome>;

  constructor(
    settledCapacity: number,
    private readonly maxInflight: number,
  ) {
    this.settled = new Lru(settledCapacity);
  }

  /** The shared outcome for `requestId`; `start` runs only for the first announcement. */
  run(requestId: string, start: () => Promise<RpcOutcome>): { outcome: Promise<RpcOutcome>; first: boolean } {
    const done = this.settled.get(requestId);
    if (done) return { outcome: Promise.resolve(done), first: false };
    const running = this.inflight.get(requestId);
    if (running) return { outcome: running, first: false };
    if (this.inflight.size >= this.maxInflight) {
      return {
        outcome: Promise.resolve({ error: { code: -32603, message: `Too many interactions waiting for an answer (${this.maxInflight})` } }),
        first: false,
      };
    }
    const outcome = start().then(
      (o) => this.finish(requestId, o),
      (err: unknown) => this.finish(requestId, { error: { code: -32603, message: (err as Error)?.message || 'The interaction failed' } }),
    );
    this.inflight.set(requestId, outcome);
    return { outcome, first: true };
  }

  /** Interactions still waiting for the domain. */
  get inflightCount(): number {
    return this.inflight.size;
  }

  /** Settled answers remembered. */
  get settledCount(): number {
    return this.settled.size;
  }

  private finish(requestId: string, outcome: RpcOutcome): RpcOutcome {
    this.inflight.delete(requestId);
    this.settled.set(requestId, outcome);
    return outcome;
  }
}
