import type { Identity } from '../../auth/identity.js';
import type { Frame } from './frame.js';

/**
 * A domain fact some client profiles announce with a notification of their own (the compat
 * profile's running indicator and answered-card notices, ARCHITECTURE.md §5.1). The domain says
 * *that* it happened; the gateway's profile code (legacy-profile.ts) decides the wire shape.
 */
export type ProfileNotice =
  | { type: 'turn_state'; sessionId: string; running: boolean }
  | { type: 'interaction_settled'; sessionId: string; kind: string; toolCallId?: string };

/**
 * The domain's view of one connected client (implemented by src/gateway for WebSocket
 * clients). The domain decides *what* a client gets; the gateway owns *how* it is sent
 * (outbound budget, close 4008, heartbeat). Nothing here awaits a client.
 */
export interface ClientPort {
  /** Unique per connection. */
  readonly clientId: string;
  readonly identity: Identity;
  /** `legacy` = zcode-acp-remote (`?instance=`), which gets extra notifications (ARCHITECTURE.md §5.1). */
  readonly profile: 'acp' | 'legacy';
  /**
   * On the hub's own machine: a loopback socket that forwards nobody (src/policy/local-peer.ts),
   * for `localOnly` approval rules. Absent = not local.
   */
  readonly local?: boolean;
  /** Self-declared `clientInfo.name` from `initialize`, if any: a secondary label, never an identity. */
  readonly clientName?: string | undefined;
  /** Announced at `initialize` (protocol 2, or listed): it reads ACP v2's `replay_complete` after a replay. */
  readonly replayComplete?: boolean;
  /**
   * The multi-client draft's update kinds this client opted into (src/domain/delivery/draft-updates.ts
   * sends each only to clients listing it: other clients' schemas reject them). Absent = none.
   */
  readonly draftUpdates?: ReadonlySet<string>;
  /** Declared at `initialize`: `clientCapabilities.elicitation.form`. */
  readonly elicitationForm: boolean;
  /**
   * Questions go to this client one card at a time, each after a tool_call carrying its text
   * (set by the gateway for the zcode-acp-remote profile, which keeps one pending card).
   */
  readonly oneQuestionAtATime?: boolean;
  /**
   * Queues an already-serialized, already-encoded JSON-RPC message (the same `Frame` goes to
   * every client of a broadcast, ARCHITECTURE.md §4.3). Never throws; a client over budget is closed
   * by the gateway.
   */
  sendFrame(frame: Frame): void;
  /**
   * Sends a request to the client. `response` settles with the client's result, or rejects
   * (client error, or the connection closed). Ids are allocated by the gateway. `onLate` hears
   * a result the client sends after the request was withdrawn (kept for the last
   * `withdrawnRequestsKept` withdrawn requests of the connection).
   */
  request(method: string, params: unknown, onLate?: (result: unknown) => void): { id: string | number; response: Promise<unknown> };
  /** Withdraws an outstanding request: sends `$/cancel_request` and settles it locally. */
  cancelRequest(id: string | number): void;
  /** This client's own frame for a profile notice; undefined when its profile has none. */
  profileFrame?(notice: ProfileNotice): Frame | undefined;
  /** Closes the connection with a close code (e.g. 4008 when it fell behind); never throws. */
  close(code: number, reason: string): void;
  /** True while the socket is open. */
  readonly open: boolean;
}
