/**
 * ACP's `$/cancel_request` (protocol "Cancellation", stable since ACP v1): a client may withdraw one
 * of its own outstanding requests by id. The hub honours it for the methods that say they can be
 * withdrawn (`MethodSpec.withdrawable`: `session/prompt`, whose prompt leaves the queue while it
 * still waits); every request is still answered once, as the protocol requires — a withdrawn
 * prompt with `stopReason: "cancelled"`. Ids are per connection, as JSON-RPC's are.
 */
import type { RpcId } from './jsonrpc.js';

export class WithdrawableRequests<Conn extends object> {
  private readonly open = new WeakMap<Conn, Map<RpcId, AbortController>>();

  /** A withdrawable request `id` of `conn` begins: the signal aborts if the client withdraws it. */
  begin(conn: Conn, id: RpcId): AbortSignal {
    let byId = this.open.get(conn);
    if (!byId) this.open.set(conn, (byId = new Map()));
    const controller = new AbortController();
    byId.set(id, controller);
    return controller.signal;
  }

  /** The request was answered: a later `$/cancel_request` for its id does nothing. */
  end(conn: Conn, id: RpcId): void {
    this.open.get(conn)?.delete(id);
  }

  /** `$/cancel_request` for `id` from `conn`; unknown or answered ids are ignored. */
  withdraw(conn: Conn, id: RpcId): void {
    this.open.get(conn)?.get(id)?.abort();
  }
}
