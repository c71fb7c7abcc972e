import { BackendFailure, BackendRpcError } from '../ports/backend-port.js';
import { HubError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RpcErrorObject } from './jsonrpc.js';

/**
 * Maps whatever a hub call threw to the JSON-RPC error a client sees (STYLE.md habit 5): hub
 * errors carry their catalog code; local backend failures become the matching hub error; anything
 * else is an internal error, logged here and never shown with its stack.
 */
export function toRpcError(err: unknown, logger: Logger): RpcErrorObject {
  if (err instanceof HubError) return err.toRpc();
  if (err instanceof BackendFailure) {
    if (err.kind === 'timeout') return new HubError('HUB_ERR_BACKEND_TIMEOUT').toRpc();
    if (err.kind === 'overloaded') return new HubError('HUB_ERR_LIMIT', 'The agent backend is overloaded').toRpc();
    return new HubError('HUB_ERR_BACKEND_UNAVAILABLE').toRpc();
  }
  if (err instanceof BackendRpcError) {
    return new HubError('HUB_ERR_BACKEND', err.message, { method: err.method, code: err.code }).toRpc();
  }
  logger.error({ err }, 'request failed');
  return new HubError('HUB_ERR_INTERNAL').toRpc();
}
