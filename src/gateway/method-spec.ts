import type { z } from 'zod';
import type { Scope } from '../auth/identity.js';
import type { Logger } from '../logger.js';
import type { ClientConnection } from './client-connection.js';
import type { GatewayHub } from './hub-api.js';

/** What a method handler may use besides its connection. */
export interface DispatchContext {
  hub: GatewayHub;
  version: string;
  /** This hub's id and name, for `initialize`'s `_meta.zcode.hub`. */
  hubIdentity?: { hubId: string; name: string };
  logger: Logger;
  /** The daemon's default workspace (`--workspace`), advertised so a new client can create a session. */
  defaultWorkspace?: string;
  /** The workspace roots (`--workspace`), advertised to clients that may open sessions (operate+). */
  workspaces?: readonly string[];
  /** Deepest JSON nesting accepted in one frame (limits.jsonMaxDepth; default LIMITS.jsonMaxDepth). */
  maxJsonDepth?: number;
  /** Called once per connection, right after its first `initialize` response is queued. */
  onInitialized(conn: ClientConnection): void;
}

/** One client → hub method: its params schema, the scope it needs and its handler (ARCHITECTURE.md §5). */
export interface MethodSpec<P = unknown> {
  schema: z.ZodType<P>;
  /** `view` reads; `operate` prompts, cancels, answers, changes settings of a session (ARCHITECTURE.md §7). */
  scope: Scope;
  /**
   * Runs with validated params; the resolved value is the JSON-RPC result. `withdrawn`, for a
   * {@link withdrawable} method, aborts on the client's `$/cancel_request` for this request.
   */
  handle(ctx: DispatchContext, conn: ClientConnection, params: P, method: string, withdrawn?: AbortSignal): Promise<unknown> | unknown;
  /** The client may withdraw the request with `$/cancel_request` (withdrawable-requests.ts). */
  withdrawable?: boolean;
}

/**
 * A result plus what must follow it on the wire: dispatch queues the result, then runs `after`
 * synchronously, so nothing can come between them (e.g. the pending interactions a client gets
 * right after its `session/load` result, ARCHITECTURE.md §4.5).
 */
export class ReplyThen {
  constructor(
    readonly result: unknown,
    readonly after: () => void,
  ) {}
}

/** Declares a method with its params type inferred from the schema (the registry erases `P`). */
export function method<P>(
  schema: z.ZodType<P>,
  scope: Scope,
  handle: MethodSpec<P>['handle'],
  opts: { withdrawable?: boolean } = {},
): MethodSpec {
  // Sound: `handle` only ever receives the output of `schema` (see dispatch.ts).
  return { schema, scope, handle: handle as MethodSpec['handle'], ...opts };
}
