/**
 * Listing and archiving sessions. `session/list` asks the app-server for every
 * session, archived ones included (APP-SERVER.md §4.3 `includeArchived`), merges the hub's live
 * facts and marks (archive flag, last-message preview), and leaves archived sessions out unless
 * the caller asks for them. Archiving is the hub's own flag: the app-server has no command for it.
 */
import { scopeAllows, type Identity } from '../../auth/identity.js';
import { HubError } from '../../errors.js';
import { ZCODE_NOTIFICATION } from '../../zcode-ext/methods.js';
import type { HubCore, SessionStateSummary } from '../hub-core.js';
import type { SessionInfo } from '../../app-server/session-schemas.js';
import type { SessionState } from './session-state.js';

/** One entry of `session/list` / `GET /api/sessions`. */
export type SessionSummary = Omit<SessionStateSummary, 'updatedAt'> & { updatedAt?: number };

/** What the listing needs besides the core: the hub's summary of a live session. */
export type LiveSummary = (sessionId: string) => SessionSummary | undefined;

/** A live session's entry: the `_zcode/session_state` shape (`runningTasks`: its background tasks running now, which may outlive their turn). */
export function liveSummary(core: HubCore, session: SessionState): SessionStateSummary {
  return {
    sessionId: session.sessionId,
    title: session.title,
    cwd: session.cwd,
    state: session.turn.state,
    ...(session.model === undefined ? {} : { model: session.model }),
    pendingInteractions: core.interactions.pendingCount(session.sessionId),
    runningTasks: session.taskOutputs.running(),
    clients: session.attachments.size,
    updatedAt: session.updatedAt,
    archived: core.marks.archived(session.sessionId) ?? session.appArchived,
    ...core.previewOf(session.sessionId),
  };
}

/** A session the hub has not opened, as the app-server lists it. */
function fromInfo(core: HubCore, info: SessionInfo): SessionSummary {
  return {
    sessionId: info.sessionId,
    cwd: info.workspace?.workspacePath ?? '',
    title: info.title,
    ...(info.updatedAt === undefined ? {} : { updatedAt: info.updatedAt }),
    state: 'idle',
    clients: 0,
    pendingInteractions: 0,
    runningTasks: 0,
    archived: core.marks.archived(info.sessionId) ?? info.archivedAt !== undefined,
    ...core.previewOf(info.sessionId),
  };
}

/** The app-server's list merged with the hub's live sessions; archived ones only when asked. */
export async function listSessions(
  core: HubCore,
  live: LiveSummary,
  p: { cwd?: string; includeArchived?: boolean },
): Promise<SessionSummary[]> {
  const infos = await core.app.listSessions({ includeArchived: true, ...(p.cwd === undefined ? {} : { cwd: p.cwd }) });
  const seen = new Set<string>();
  const out = infos.map((info) => {
    seen.add(info.sessionId);
    return live(info.sessionId) ?? fromInfo(core, info);
  });
  for (const s of core.allSessions()) {
    if (seen.has(s.sessionId) || (p.cwd !== undefined && s.cwd !== p.cwd)) continue;
    const summary = live(s.sessionId);
    if (summary) out.push(summary);
  }
  return p.includeArchived ? out : out.filter((s) => !s.archived);
}

/** Archives or unarchives a session; every client's list hears it (`_zcode/session_state`). */
export async function archiveSession(
  core: HubCore,
  live: LiveSummary,
  sessionId: string,
  archived: boolean,
  by: Identity,
): Promise<SessionSummary> {
  if (!scopeAllows(by.scope, 'operate')) throw new HubError('HUB_ERR_FORBIDDEN');
  let summary = live(sessionId);
  if (summary === undefined) {
    const info = (await core.app.listSessions({ sessionIds: [sessionId], includeArchived: true })).find((s) => s.sessionId === sessionId);
    if (!info) throw new HubError('HUB_ERR_SESSION_NOT_FOUND', `Session not found: ${sessionId}`);
    summary = fromInfo(core, info);
  }
  core.marks.setArchived(sessionId, archived);
  core.audit(by, 'session', sessionId, { action: archived ? 'archive' : 'unarchive' });
  const session = core.findSession(sessionId);
  if (session) {
    core.publishSessionState(session);
    return live(sessionId) ?? { ...summary, archived };
  }
  const updated = { ...summary, archived };
  core.notifyAll(ZCODE_NOTIFICATION.sessionState, { ...updated, updatedAt: updated.updatedAt ?? Date.now() });
  return updated;
}
