/**
 * `session/delete` (ACP stable; RFD "Session Delete"): the conversation is removed from the
 * agent's store through the app-server's v4 `deleteSession` command (APP-SERVER.md §7.3), then
 * from the hub. Idempotent: a session nobody knows is "already deleted". A running turn is
 * refused (409) rather than cut off, so nobody loses work by a click on another device.
 */
import { authorOf } from '../people/author.js';
import { scopeAllows, type Identity } from '../../auth/identity.js';
import { HubError } from '../../errors.js';
import { AppServerError } from '../../app-server/errors.js';
import { toHubError } from '../../backend-errors.js';
import type { HubCore } from '../hub-core.js';
import type { ResolvedBy } from '../interactions/interactions.js';
import type { SessionState } from './session-state.js';
import { ZCODE_NOTIFICATION } from '../../zcode-ext/methods.js';

/** ACK reason codes that mean "this app-server cannot delete sessions" (§7.2 step 6). */
const UNSUPPORTED_REASONS = new Set(['fault.command.notImplemented', 'fault.command.capabilityUnsupported']);

/** What the delete flow needs from the rest of the hub. */
export interface DeleteHooks {
  /** Resumes the session in the child (v4 commands need it active); HUB_ERR_SESSION_NOT_FOUND when it does not exist. */
  open(sessionId: string): Promise<SessionState>;
  /** Settles the session's pending interactions as cancelled. */
  cancelInteractions(session: SessionState, by: ResolvedBy): void;
  /** Forgets the session where the hub keeps it outside the session's own stores (the "always allow" grants set in it). */
  forgetElsewhere(sessionIds: ReadonlySet<string>): void;
}

/** Deletes a session everywhere; resolves once the agent confirmed (or it never existed). */
export async function deleteSession(
  core: HubCore,
  hooks: DeleteHooks,
  sessionId: string,
  by: { identity: Identity; clientId?: string; client?: string },
): Promise<void> {
  if (!scopeAllows(by.identity.scope, 'operate')) throw new HubError('HUB_ERR_FORBIDDEN');
  const known = core.findSession(sessionId);
  if (known && (known.turn.active || known.queue.running || known.queue.queued.length > 0))
    throw new HubError('HUB_ERR_SESSION_BUSY', 'A turn is running on this session; stop it before deleting');
  let session: SessionState;
  try {
    session = await hooks.open(sessionId);
  } catch (err) {
    const e = toHubError(err);
    if (e.code === 'HUB_ERR_SESSION_NOT_FOUND') {
      forget(core, hooks, sessionId, known, by);
      return;
    }
    throw e;
  }
  try {
    await core.app.v4Command(sessionId, 'deleteSession', {});
  } catch (err) {
    if (!(err instanceof AppServerError)) throw err;
    if (err.isRpc(-32601)) throw unsupported('its app-server has no v4/command');
    if (err.fault.kind === 'result')
      throw new HubError('HUB_ERR_BACKEND', 'The agent answered deleteSession with an unreadable acknowledgement');
    if (err.fault.kind !== 'ack') throw err;
    const { status, reasonCode, message } = err.fault.ack;
    if (reasonCode && UNSUPPORTED_REASONS.has(reasonCode)) throw unsupported(message ?? reasonCode);
    // `proto.sessionNotFound`: the session went away between the resume and the command.
    const gone = status === 'rejected' && reasonCode === 'proto.sessionNotFound';
    if (!gone)
      throw new HubError('HUB_ERR_BACKEND', `The agent refused to delete the session: ${message ?? reasonCode ?? status}`, {
        status,
        reasonCode,
      });
  }
  core.audit(by.identity, 'session', sessionId, { action: 'delete' });
  forget(core, hooks, sessionId, session, by);
}

function unsupported(why: string): HubError {
  return new HubError('HUB_ERR_NOT_SUPPORTED', `This agent cannot delete sessions (${why})`, { method: 'session/delete' });
}

/**
 * Drops the hub's copy: pending interactions cancelled, every client told, the session forgotten
 * with all the hub kept about it on disk — also when the agent no longer knew it (deleted by
 * another ZCode frontend, say), so what a restart left there goes too.
 */
function forget(
  core: HubCore,
  hooks: DeleteHooks,
  sessionId: string,
  session: SessionState | undefined,
  by: { identity: Identity; clientId?: string; client?: string },
): void {
  const resolvedBy: ResolvedBy = authorOf(by.identity, by.clientId, by.client);
  if (session) hooks.cancelInteractions(session, resolvedBy);
  const gone = new Set([sessionId]);
  core.forgetSessions(gone);
  hooks.forgetElsewhere(gone);
  if (!session) return;
  core.notifyAll(ZCODE_NOTIFICATION.sessionDeleted, { sessionId: session.sessionId, deletedBy: resolvedBy });
  session.attachments.clear();
}
