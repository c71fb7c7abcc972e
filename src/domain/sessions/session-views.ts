/**
 * The `_zcode/turn_state` and `_zcode/presence` shapes of a session and the `_zcode/backend_state`
 * shape of the child (docs/CLIENT-PROTOCOL.md "Notifications"): pure views, each built in one
 * place, published by hub-core.ts, hub.ts and event-ingest.ts.
 */
import { scopeAllows } from '../../auth/identity.js';
import type { BackendStatus } from '../../ports/backend-port.js';
import type { BackendStateParams, PresenceParams, TurnStateParams } from '../../zcode-ext/schemas.js';
import { connectionAuthor } from '../people/author.js';
import type { SessionState } from './session-state.js';

/** One attached client in `_zcode/presence`. */
export type PresenceEntry = PresenceParams['clients'][number];

/** `_zcode/turn_state` params: the turn, who started it and the queue behind it. */
export function turnStateParams(session: SessionState): TurnStateParams {
  const running = session.queue.running;
  const turn = session.turn;
  return {
    sessionId: session.sessionId,
    state: turn.state,
    ...(turn.turnId === undefined ? {} : { turnId: turn.turnId }),
    ...(turn.by === undefined ? {} : { promptedBy: turn.by }),
    ...(running === undefined ? {} : { promptId: running.promptId }),
    queue: session.queue.queued.map((p) => ({ promptId: p.promptId, ...p.by, preview: p.preview })),
  };
}

/** Who is attached to a session, with the multi-client draft role each one holds (observers without `operate`). */
export function presenceList(session: SessionState): PresenceEntry[] {
  return [...session.attachments.values()].map((a) => ({
    ...connectionAuthor(a.client),
    scope: a.client.identity.scope,
    profile: a.client.profile,
    role: a.role ?? (scopeAllows(a.client.identity.scope, 'operate') ? 'controller' : 'observer'),
  }));
}

/** `_zcode/backend_state` params: the child's state, under the hub's epoch (which changes on hub start and on every respawn). */
export function backendStateParams(status: BackendStatus, epoch: string): BackendStateParams {
  return {
    state: status.state,
    epoch,
    restarts: status.restarts,
    ...(status.nextRetryMs === undefined ? {} : { nextRetryMs: status.nextRetryMs }),
  };
}
