/**
 * What a link to a hub can end in (rpc-connection.ts): its statuses and the errors its calls and
 * URL resolvers throw.
 */
import { rec, str } from '../wire.js';

/**
 * `unauthorized`: the token is revoked or expired (no retry); `not_allowed`: the hub is up but
 * does not accept this app's origin; `wrong_hub`: another hub answers at that URL (both retried
 * slowly, so fixing it on the machine heals the link).
 */
export type ConnStatus = 'connecting' | 'online' | 'offline' | 'unauthorized' | 'not_allowed' | 'wrong_hub' | 'refused';

/**
 * Thrown by a URL resolver when no socket can be opened now, with the status that says why; a
 * `refused` one carries the hub's own reason (it answered, and said no).
 */
export class ConnectFailure extends Error {
  constructor(
    readonly status: Exclude<ConnStatus, 'connecting' | 'online'>,
    readonly reason?: string,
  ) {
    super(reason ?? status);
    this.name = 'ConnectFailure';
  }
}

/** The reason shown when a ticketed socket never opens: the hub refused the upgrade itself. */
export const UPGRADE_REFUSED = 'upgrade-refused';

/** A JSON-RPC error answer from the hub. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
  /** The hub's stable `HUB_ERR_…` code, when it sent one. */
  get hubCode(): string | undefined {
    return str(rec(this.data)?.['code']);
  }
}

/** The socket closed before the answer came. */
export class ConnectionLost extends Error {
  constructor() {
    super('connection lost');
    this.name = 'ConnectionLost';
  }
}
