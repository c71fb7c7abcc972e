/**
 * The `_zcode/turn_state` and `_zcode/presence` shapes of a session (docs/CLIENT-PROTOCOL.md
 * "Notifications"): pure views of its state, published by hub-core.ts.
 */
import { scopeAllows } from '../auth/identity.js';
import type { PresenceParams, TurnStateParams } from '../zcode-ext/schemas.js';
import { connectionAuthor } from './author.js';
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
