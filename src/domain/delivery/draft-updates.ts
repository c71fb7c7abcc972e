/**
 * The multi-client draft's session updates (ACP RFD "Multi-Client Session Attach", PR #533, and
 * the proxies that implement it): `prompt_received`, `turn_complete`, `permission_resolved` and
 * `client_disconnected`, sent as `session/update` beside the hub's own names for the same facts
 * (`user_message_chunk` + `_meta.zcode.promptedBy`, the `session/prompt` answer and
 * `_zcode/turn_state`, `_zcode/interaction_resolved`, `_zcode/presence`). Not journaled: they
 * are live notices, never replayed. An ACP client's schema rejects a kind it does not know, so
 * each goes only to the attachments whose client opted into it (`ClientPort.draftUpdates`,
 * decided by the gateway: src/gateway/update-kinds.ts); the gateway then hands every other frame
 * to a client that takes every kind without looking at its kind. Every update carries the
 * draft's `type` beside ACP's `sessionUpdate` discriminator.
 */
import { scopeAllows } from '../../auth/identity.js';
import type { Author } from '../people/author.js';
import { connectionAuthor } from '../people/author.js';
import type { Attachment } from './broadcast.js';
import type { HubCore } from '../hub-core.js';
import type { SessionState } from '../sessions/session-state.js';

export const DRAFT_UPDATE = {
  promptReceived: 'prompt_received',
  turnComplete: 'turn_complete',
  permissionResolved: 'permission_resolved',
  clientDisconnected: 'client_disconnected',
} as const;

function send(core: HubCore, session: SessionState, kind: string, fields: Record<string, unknown>): void {
  core.notifySession(
    session,
    'session/update',
    { sessionId: session.sessionId, update: { sessionUpdate: kind, type: kind, ...fields, timestamp: new Date().toISOString() } },
    (a) => a.client.draftUpdates?.has(kind) === true,
  );
}

/** A prompt is sent to the agent: who asked what (the draft's `prompt_received`). */
export function draftPromptReceived(core: HubCore, session: SessionState, p: { promptId: string; content: unknown[]; by: Author }): void {
  send(core, session, DRAFT_UPDATE.promptReceived, { promptId: p.promptId, content: p.content, client: p.by });
}

/** A turn ended with `stopReason` (the draft's `turn_complete`). */
export function draftTurnComplete(core: HubCore, session: SessionState, stopReason: string, turnId: string | undefined): void {
  send(core, session, DRAFT_UPDATE.turnComplete, { stopReason, ...(turnId === undefined ? {} : { turnId }) });
}

/** A permission request was settled (the draft's `permission_resolved`, first writer wins). */
export function draftPermissionResolved(
  core: HubCore,
  session: SessionState,
  p: { toolCallId?: string | undefined; chosenOptionId?: string | undefined; resolvedBy?: unknown; state: string },
): void {
  send(core, session, DRAFT_UPDATE.permissionResolved, {
    state: p.state,
    ...(p.toolCallId === undefined ? {} : { toolCallId: p.toolCallId }),
    ...(p.chosenOptionId === undefined ? {} : { chosenOptionId: p.chosenOptionId }),
    ...(p.resolvedBy === undefined ? {} : { resolvedBy: p.resolvedBy }),
  });
}

/** A client left the session (detached or its connection closed): the draft's `client_disconnected`. */
export function draftClientDisconnected(core: HubCore, session: SessionState, left: Attachment): void {
  const role = left.role ?? (scopeAllows(left.client.identity.scope, 'operate') ? 'controller' : 'observer');
  send(core, session, DRAFT_UPDATE.clientDisconnected, { client: { ...connectionAuthor(left.client), role } });
}
