/**
 * What a client asks the agent to change on a session, beyond prompts: its settings (mode,
 * model, thought level, APP-SERVER.md §4.14), title (v4 `renameSession`, §7.3), runtime
 * (`session/close`), and the `_zcode/*` operations fork, compact, goal and cancelling a
 * background task (§4.10–§4.13). Each goes through the typed app-server client and folds what
 * the agent answers into the session; scope checks stay with the Hub façade.
 */
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import type { AppServer } from '../../app-server/client.js';
import type { Snapshot } from '../../app-server/session-schemas.js';
import { selectionForModel } from '../../acp/translate-state.js';
import type { Identity } from '../../auth/identity.js';
import { HubError } from '../../errors.js';
import type { HubCore } from '../hub-core.js';
import { parseSnapshot, type SessionOpener } from './session-open.js';
import type { SessionState } from './session-state.js';

/** A config option a client may set (ACP `session/set_config_option`). */
export type ConfigId = 'model' | 'mode' | 'thought_level';

export class SessionCommands {
  constructor(
    private readonly core: HubCore,
    private readonly opener: SessionOpener,
  ) {}

  /** Sets one config option; returns the session's new options. */
  async setConfigOption(
    by: Identity,
    sessionId: string,
    configId: ConfigId,
    value: string,
    thoughtLevel?: string,
  ): Promise<SessionConfigOption[]> {
    const session = await this.opener.open(sessionId);
    const snap = await settingRequest(session, configId, value, thoughtLevel)(this.core.app);
    this.opener.apply(session, snap, false);
    this.core.audit(by, 'settings', sessionId, { configId, value });
    this.core.publishSessionState(session);
    return session.configOptions();
  }

  /** Renames a session (v4 `renameSession`); every client hears the new title. */
  async rename(by: Identity, sessionId: string, title: string): Promise<SessionState> {
    const session = await this.opener.open(sessionId);
    await this.core.app.v4Command(sessionId, 'renameSession', { title });
    session.retitle(title);
    session.touch();
    this.core.audit(by, 'session', sessionId, { action: 'rename', title });
    this.core.publishSessionState(session);
    return session;
  }

  /** Unloads the session's runtime in the child (`session/close`); 409 HUB_ERR_SESSION_BUSY while a turn runs. */
  async closeRuntime(sessionId: string, by?: Identity): Promise<void> {
    const session = this.core.session(sessionId);
    if (session.turn.active || session.queue.running || session.queue.queued.length > 0) throw new HubError('HUB_ERR_SESSION_BUSY');
    await this.core.app.closeSession(sessionId);
    session.subscription.apply('lost');
    if (by) this.core.audit(by, 'session', sessionId, { action: 'close' });
    this.core.publishSessionState(session);
  }

  /** `_zcode/fork`: the fork's session id (the fork is active at once, §4.11). */
  async fork(sessionId: string, target?: unknown): Promise<{ sessionId: string }> {
    const r = await this.core.app.fork(sessionId, target);
    const snap = parseSnapshot(r.snapshot);
    const parent = this.core.findSession(sessionId);
    this.opener.apply(this.core.ensureSession(r.forkedSessionId, parent?.cwd ?? this.core.config.workspace), snap, false);
    return { sessionId: r.forkedSessionId };
  }

  /** `_zcode/compact`. */
  async compact(sessionId: string, instructions?: string): Promise<{ state: unknown }> {
    const r = await this.core.app.compact(sessionId, instructions);
    return { state: r.compact?.state ?? 'accepted' };
  }

  /** `_zcode/goal`. */
  async goal(sessionId: string, action: string, objective?: string): Promise<{ response: unknown }> {
    const r = await this.core.app.goal(sessionId, action, objective);
    return { response: r.response };
  }

  /** `_zcode/cancel_background_task`. */
  async cancelBackgroundTask(sessionId: string, taskId: string): Promise<{ cancelled: boolean; status: unknown }> {
    const r = await this.core.app.cancelBackgroundTask(sessionId, taskId);
    return { cancelled: r.cancelled, status: r.status };
  }
}

/** The app-server call for one config option (§4.14); model values are `providerId/modelId`. */
function settingRequest(
  session: SessionState,
  configId: ConfigId,
  value: string,
  thoughtLevel?: string,
): (app: AppServer) => Promise<Snapshot> {
  const sessionId = session.sessionId;
  switch (configId) {
    case 'mode':
      return (app) => app.setMode(sessionId, value);
    case 'thought_level':
      return (app) => app.setThoughtLevel(sessionId, value);
    case 'model': {
      // setModel keeps options: a model with levels needs one of its own, one without refuses any (§11.11).
      const known = session.allModels.length > 0 ? session.allModels : (session.settings.model?.available ?? []);
      const model = selectionForModel(value, known, session.settings.thoughtLevel?.current, thoughtLevel);
      if (!model) throw new HubError('HUB_ERR_BAD_REQUEST', 'A model value is providerId/modelId');
      return (app) => app.setModel(sessionId, model);
    }
  }
}
