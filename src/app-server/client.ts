/**
 * The one typed client of the app-server (docs/APP-SERVER.md, cited APP-SERVER.md): a method
 * per call, named after the wire method (`session/setMode` → `setMode`, `session/create` →
 * `createSession` where the bare name would be vague), each result parsed by its zod schema
 * (session-schemas.ts, workflow-schemas.ts). Every failure rejects with an AppServerError
 * (errors.ts) already mapped to the catalog, so callers never catch just to re-map.
 *
 * The domain and the settings depend on the `AppServer` type, not on the link: the composition
 * root builds one client over the backend link and hands it to both.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { BackendPort, BackendRequestOptions } from '../ports/backend-port.js';
import { conversationTopic } from '../acp/v4-frame.js';
import { ackSucceeded } from '../backend-errors.js';
import { linkError, refusedAck, resultError } from './errors.js';
import * as s from './session-schemas.js';
import { WorkflowCalls, type Call } from './client-workflows.js';
import type { ModelSelection } from '../wire/model.js';
import type { CommandEnvelope, V4CommandType } from '../wire/v4.js';

/** `WorkspaceRef` of a local workspace: key = path (APP-SERVER.md §3.1). */
export function workspaceRef(path: string): { workspacePath: string; workspaceKey: string } {
  return { workspacePath: path, workspaceKey: path };
}

/** Who the hub says it is in v4 command envelopes (§7.1). */
export const HUB_CLIENT_ID = 'zcode-hub';

/** `session/create` parameters (§4.1) the hub sends. */
export interface CreateSessionParams {
  cwd: string;
  mode?: string;
  model?: { providerId: string; modelId: string };
  thoughtLevel?: string;
  /** The workflow runtime on the session (§8: off by default). */
  dynamicWorkflowEnabled?: boolean;
}

/** `session/send` parameters (§4.8): one user input. */
export interface SendParams {
  sessionId: string;
  content: string;
  /** The hub's prompt id, echoed back on the turn's events. */
  inputId: string;
  attachments?: Array<Record<string, unknown>>;
}

/** A model choice as `session/setModel` takes it (§4.14): the contract of src/wire/model.ts. */
export type { ModelSelection } from '../wire/model.js';

/** v4 command options (§7.1, §7.2). */
export interface V4CommandOptions {
  /**
   * Called when the ACK says `proto.sessionNotFound` (the session is cold): the client then
   * retries once with the *same* commandId, the idempotency key.
   */
  onColdSession?: () => Promise<unknown>;
}

/** The app-server's calls, typed. */
export class AppServerClient {
  /** `workflows/*` and the v4 workflow-run reads (§8). */
  readonly workflows: WorkflowCalls;

  constructor(private readonly link: Pick<BackendPort, 'request'>) {
    this.workflows = new WorkflowCalls((method, params, schema) => this.call(method, params, schema));
  }

  private readonly call: Call = async (method, params, schema, options) => {
    let raw: unknown;
    try {
      raw = await this.link.request(method, params, options);
    } catch (err) {
      throw linkError(method, err);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw resultError(method, parsed.error.issues);
    return parsed.data as z.output<typeof schema>;
  };

  /** `session/create` (§4.1); the snapshot of the new session. */
  createSession(p: CreateSessionParams, options?: BackendRequestOptions): Promise<s.Snapshot> {
    const params = {
      workspace: workspaceRef(p.cwd),
      ...(p.mode === undefined ? {} : { mode: p.mode }),
      ...(p.model === undefined ? {} : { model: { providerId: p.model.providerId, modelId: p.model.modelId } }),
      ...(p.thoughtLevel === undefined ? {} : { thoughtLevel: p.thoughtLevel }),
      ...(p.dynamicWorkflowEnabled === undefined ? {} : { dynamicWorkflowEnabled: p.dynamicWorkflowEnabled }),
    };
    return this.call('session/create', params, s.snapshotSchema, options);
  }

  /**
   * A `deferred` draft session (§4.1: not listed, not persisted until a first send) for its
   * model list; closed again at once, best effort. `null` when the result has no list.
   */
  async draftModels(cwd: string): Promise<unknown[] | null> {
    const params = { workspace: workspaceRef(cwd), persistence: 'deferred', titleGenerationEnabled: false };
    const draft = await this.call('session/create', params, s.draftCreateResultSchema.optional().catch(undefined));
    if (!draft) return null;
    void this.closeSession(draft.session.sessionId).catch(() => undefined);
    return draft.settings.model.available;
  }

  /** `session/resume` (§4.2); the snapshot. */
  resumeSession(p: { sessionId: string; dynamicWorkflowEnabled?: boolean }, options?: BackendRequestOptions): Promise<s.Snapshot> {
    return this.call('session/resume', p, s.snapshotSchema, options);
  }

  /** `session/subscribe` (§4.7): live events from `afterSeq` (none: live only). */
  subscribe(p: {
    sessionId: string;
    deliveryKind: string;
    afterSeq?: number;
    includeSnapshot?: boolean;
  }): Promise<z.output<typeof s.subscribeResultSchema>> {
    return this.call('session/subscribe', p, s.subscribeResultSchema);
  }

  /**
   * `v4/conversation/subscribe` (§2.3, §5.8) to a session's conversation topic: its frames carry
   * generated titles. Never resumed-and-retried: a cold session gets it again on its next open.
   */
  async subscribeConversation(sessionId: string): Promise<void> {
    const params = { topic: conversationTopic(sessionId), connectionId: HUB_CLIENT_ID, clientMode: 'desktop-continuous' };
    await this.call('v4/conversation/subscribe', params, s.ignoredResultSchema, { noResumeRetry: true });
  }

  /** `session/list` (§4.3), optionally of one workspace or of named sessions, archived ones included when asked; at most `limit` (the app-server's default: 50). */
  async listSessions(p: { cwd?: string; sessionIds?: string[]; includeArchived?: boolean; limit?: number }): Promise<s.SessionInfo[]> {
    const { cwd, ...rest } = p;
    const params = { ...rest, ...(cwd === undefined ? {} : { workspace: workspaceRef(cwd) }) };
    return (await this.call('session/list', params, s.listResultSchema)).sessions;
  }

  /** `session/messages` (§4.5): the newest `limit` messages, unparsed. */
  async messages(sessionId: string, limit: number): Promise<unknown[]> {
    return (await this.call('session/messages', { sessionId, limit }, s.messagesResultSchema)).messages;
  }

  /** `session/subagents` (§4.16). */
  subagents(sessionId: string, endedLimit: number): Promise<z.output<typeof s.subagentsResultSchema>> {
    return this.call('session/subagents', { sessionId, endedLimit }, s.subagentsResultSchema);
  }

  /** `session/send` (§4.6): one user input; -32010 while another prompt runs. `timeoutMs`: see domain/prompts/send-input.ts. */
  async send(params: SendParams, timeoutMs?: number): Promise<void> {
    await this.call('session/send', params, s.ignoredResultSchema, timeoutMs === undefined ? {} : { timeoutMs });
  }

  /** Legacy `session/stop` (§4.9). */
  async stop(sessionId: string): Promise<void> {
    await this.call('session/stop', { sessionId }, s.ignoredResultSchema);
  }

  /** `session/close` (§4.4): unloads the runtime. */
  async closeSession(sessionId: string): Promise<void> {
    await this.call('session/close', { sessionId }, s.ignoredResultSchema);
  }

  /** `session/setMode` (§4.14); the new snapshot. */
  setMode(sessionId: string, mode: string): Promise<s.Snapshot> {
    return this.call('session/setMode', { sessionId, mode }, s.snapshotSchema);
  }

  /** `session/setThoughtLevel` (§4.14); the new snapshot. */
  setThoughtLevel(sessionId: string, thoughtLevel: string): Promise<s.Snapshot> {
    return this.call('session/setThoughtLevel', { sessionId, thoughtLevel }, s.snapshotSchema);
  }

  /** `session/setModel` (§4.14); the new snapshot. */
  setModel(sessionId: string, model: ModelSelection): Promise<s.Snapshot> {
    return this.call('session/setModel', { sessionId, model }, s.snapshotSchema);
  }

  /** `session/fork` (§4.11). */
  fork(sessionId: string, target?: unknown): Promise<z.output<typeof s.forkResultSchema>> {
    return this.call('session/fork', { sessionId, ...(target === undefined ? {} : { target }) }, s.forkResultSchema);
  }

  /** `session/compact` (§4.13). */
  compact(sessionId: string, instructions?: string): Promise<z.output<typeof s.compactResultSchema>> {
    return this.call('session/compact', { sessionId, ...(instructions === undefined ? {} : { instructions }) }, s.compactResultSchema);
  }

  /** `session/goal` (§4.12). */
  goal(sessionId: string, action: string, objective?: string): Promise<z.output<typeof s.goalResultSchema>> {
    return this.call('session/goal', { sessionId, action, ...(objective === undefined ? {} : { objective }) }, s.goalResultSchema);
  }

  /** `session/cancelBackgroundTask` (§4.10). */
  cancelBackgroundTask(sessionId: string, taskId: string): Promise<z.output<typeof s.cancelTaskResultSchema>> {
    return this.call('session/cancelBackgroundTask', { sessionId, taskId }, s.cancelTaskResultSchema);
  }

  /** `provider/testModelConnectivity` (§4.19): rejects with the provider's refusal as an `rpc` fault. */
  async testModelConnectivity(cwd: string, selection: ModelSelection, timeoutMs: number): Promise<void> {
    await this.call('provider/testModelConnectivity', { workspace: workspaceRef(cwd), selection }, s.ignoredResultSchema, { timeoutMs });
  }

  /**
   * One v4 command (§7.1): the envelope built here, the ACK parsed and checked (§7.2: accepted,
   * noop and duplicate succeed). Any other ACK rejects with an `ack` fault.
   */
  async v4Command(
    sessionId: string,
    type: V4CommandType,
    payload: Record<string, unknown>,
    options: V4CommandOptions = {},
  ): Promise<s.CommandAck> {
    const envelope: CommandEnvelope = { commandId: randomUUID(), clientId: HUB_CLIENT_ID, sessionId, type, payload, issuedAt: Date.now() };
    let ack = await this.call('v4/command', envelope, s.commandAckSchema);
    if (options.onColdSession && ack.status === 'rejected' && ack.reasonCode === 'proto.sessionNotFound') {
      await options.onColdSession();
      ack = await this.call('v4/command', { ...envelope, issuedAt: Date.now() }, s.commandAckSchema);
    }
    if (!ackSucceeded(ack)) throw refusedAck(type, ack);
    return ack;
  }
}

/** What the domain and the settings call: the client's public surface, as a type. */
export type AppServer = { [K in keyof AppServerClient]: AppServerClient[K] };
