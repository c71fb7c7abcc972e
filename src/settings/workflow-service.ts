/**
 * Saved workflows and workflow runs through the app-server (ZCODE-PROTOCOL.md §8, §7.3).
 * Every result is parsed at the boundary (workflow-wire.ts) and every refusal becomes one
 * HTTP error (backend-errors.ts).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { HubError } from '../errors.js';
import type { BackendPort } from '../ports/backend-port.js';
import { ackError, ackSucceeded, toHubError, workflowFailureError } from '../backend-errors.js';
import * as wire from './workflow-wire.js';

export interface WorkflowServiceOptions {
  backend: BackendPort;
  /** Workspace used when a request names none (and as the runtime carrier of `global` calls, §8). */
  defaultWorkspace: string;
  /**
   * Opens a new session for a workflow start. The composition root should pass the hub's own
   * session creation so clients see the session; default: a plain `session/create`.
   */
  openSession?: (workspace: string) => Promise<string>;
  /** Client id sent in v4 command envelopes (§7.1). */
  clientId?: string;
}

/** `WorkspaceRef` of a local workspace: key = path (§3.1). */
export function workspaceRef(path: string): { workspacePath: string; workspaceKey: string } {
  return { workspacePath: path, workspaceKey: path };
}

export class WorkflowService {
  private readonly backend: BackendPort;
  private readonly defaultWorkspace: string;
  private readonly openSessionFn: (workspace: string) => Promise<string>;
  private readonly clientId: string;

  constructor(options: WorkflowServiceOptions) {
    this.backend = options.backend;
    this.defaultWorkspace = options.defaultWorkspace;
    this.clientId = options.clientId ?? 'zcode-hub';
    this.openSessionFn = options.openSession ?? ((workspace) => this.createSession(workspace));
  }

  private async call<S extends z.ZodType>(method: string, params: unknown, schema: S): Promise<z.output<S>> {
    let raw: unknown;
    try {
      raw = await this.backend.request(method, params);
    } catch (error) {
      throw toHubError(error);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new HubError('HUB_ERR_BACKEND', `${method} returned an unexpected result`, { reason: 'bad_result', method });
    return parsed.data;
  }

  /** Unwraps a `{ok:true,…} | {ok:false, reason}` result (§8: failures are results). */
  private async callOk<S extends z.ZodType>(method: string, params: unknown, schema: S): Promise<Exclude<z.output<S>, { ok: false }>> {
    const result = await this.call(method, params, schema);
    const failure = wire.workflowFailureSchema.safeParse(result);
    if (failure.success) throw workflowFailureError(method, failure.data);
    return result as Exclude<z.output<S>, { ok: false }>;
  }

  private ws(workspace?: string) {
    return workspaceRef(workspace ?? this.defaultWorkspace);
  }

  list(q: { workspace?: string | undefined; scope?: wire.WorkflowScope | undefined }) {
    return this.call('workflows/list', { workspace: this.ws(q.workspace), ...(q.scope ? { scope: q.scope } : {}) }, wire.workflowsListResultSchema);
  }

  get(scope: wire.WorkflowScope, name: string, workspace?: string) {
    return this.callOk('workflows/get', { workspace: this.ws(workspace), name, scope }, wire.workflowGetResultSchema);
  }

  updateMeta(scope: wire.WorkflowScope, name: string, meta: wire.WorkflowMeta, workspace?: string) {
    return this.callOk('workflows/updateMeta', { workspace: this.ws(workspace), name, meta, scope }, wire.workflowPathResultSchema);
  }

  delete(scope: wire.WorkflowScope, name: string, workspace?: string) {
    return this.callOk('workflows/delete', { workspace: this.ws(workspace), name, scope }, wire.workflowPathResultSchema);
  }

  /** Copies a global workflow into this project (never overwrites, §8). */
  move(name: string, workspace?: string) {
    return this.callOk('workflows/move', { workspace: this.ws(workspace), name }, wire.workflowMoveResultSchema);
  }

  save(input: { runId: string; name: string; meta: wire.WorkflowMeta; scope?: wire.WorkflowScope | undefined; overwrite?: boolean | undefined; workspace?: string | undefined }) {
    const { workspace, ...rest } = input;
    return this.callOk('workflows/save', { workspace: this.ws(workspace), ...stripUndefined(rest) }, wire.workflowSaveResultSchema);
  }

  /** The run journal (newest first); `limit` is required by the CLI (1..50). */
  runs(q: { workspace?: string | undefined; name?: string | undefined; scope?: wire.WorkflowScope | undefined; limit: number }) {
    return this.call('workflows/runs', { workspace: this.ws(q.workspace), limit: q.limit, ...stripUndefined({ name: q.name, scope: q.scope }) }, wire.workflowRunsResultSchema);
  }

  private async createSession(workspace: string): Promise<string> {
    // The workflow runtime must exist on the session (§8: dynamic workflows are off by default).
    const snapshot = await this.call('session/create', { workspace: workspaceRef(workspace), dynamicWorkflowEnabled: true }, wire.sessionSnapshotIdSchema);
    return snapshot.session.sessionId;
  }

  /**
   * Sends one v4 command. `proto.sessionNotFound` means the session is cold: resume it and
   * retry once with the *same* commandId (the idempotency key, §7.1/§7.2).
   */
  async command(sessionId: string, type: string, payload: Record<string, unknown>): Promise<wire.CommandAck> {
    const envelope = { commandId: randomUUID(), clientId: this.clientId, sessionId, type, payload, issuedAt: Date.now() };
    let ack = await this.call('v4/command', envelope, wire.commandAckSchema);
    if (ack.status === 'rejected' && ack.reasonCode === 'proto.sessionNotFound') {
      await this.call('session/resume', { sessionId, dynamicWorkflowEnabled: true }, wire.sessionSnapshotIdSchema);
      ack = await this.call('v4/command', { ...envelope, issuedAt: Date.now() }, wire.commandAckSchema);
    }
    if (!ackSucceeded(ack)) throw ackError(type, ack);
    return ack;
  }

  /** Starts a saved workflow on an existing session or on a new one (§7.3 `startSavedWorkflow`). */
  async start(input: { scope: wire.WorkflowScope; name: string; sessionId?: string | undefined; args?: Record<string, unknown> | undefined; workspace?: string | undefined }) {
    let sessionId = input.sessionId;
    if (sessionId === undefined) {
      try {
        sessionId = await this.openSessionFn(input.workspace ?? this.defaultWorkspace);
      } catch (error) {
        throw toHubError(error);
      }
    }
    const ack = await this.command(sessionId, 'startSavedWorkflow', { name: input.name, scope: input.scope, ...(input.args ? { args: input.args } : {}) });
    const result = wire.startSavedWorkflowResultSchema.safeParse(ack.result);
    if (!result.success) throw new HubError('HUB_ERR_BACKEND', 'startSavedWorkflow was accepted without a runId', { reason: 'bad_result' });
    return { sessionId, runId: result.data.runId, toolCallId: result.data.toolCallId ?? null, created: input.sessionId === undefined };
  }

  /** Resumes a stopped/errored run (§7.3 `resumeWorkflowRun`). */
  async resume(sessionId: string, runId: string, name?: string) {
    const ack = await this.command(sessionId, 'resumeWorkflowRun', { workId: runId, ...(name ? { name } : {}) });
    return { sessionId, runId, status: ack.status };
  }

  /**
   * Stops a run: `cancelBackgroundWork {workId: runId}` targets exactly this run; a runtime that
   * cannot cancel background work gets the session-wide v4 `stop` instead (§7.3, §7.4).
   */
  async stop(sessionId: string, runId: string) {
    try {
      const ack = await this.command(sessionId, 'cancelBackgroundWork', { workId: runId });
      return { sessionId, runId, via: 'cancelBackgroundWork' as const, status: ack.status };
    } catch (error) {
      const reason = error instanceof HubError ? (error.details as { reason?: string } | undefined)?.reason : undefined;
      if (reason !== 'capabilityUnsupported' && reason !== 'cancel_not_supported') throw error;
    }
    const ack = await this.command(sessionId, 'stop', {});
    return { sessionId, runId, via: 'stop' as const, status: ack.status };
  }

  sessionRuns(sessionId: string, limit?: number) {
    return this.call('v4/conversation/workflowRuns', { sessionId, ...(limit ? { limit } : {}) }, wire.sessionRunsResultSchema);
  }

  async runDetail(sessionId: string, runId: string) {
    const { runs } = await this.sessionRuns(sessionId, 64);
    const run = runs.find((r) => r.runId === runId);
    if (!run) throw new HubError('HUB_ERR_NOT_FOUND', `No workflow run ${runId} in session ${sessionId}`, { reason: 'not_found' });
    return run;
  }

  runEvents(sessionId: string, runId: string, q: { afterSequence?: number | undefined; limit?: number | undefined }) {
    return this.call('v4/conversation/workflowRunEvents', { sessionId, runId, ...stripUndefined(q) }, wire.runEventsResultSchema);
  }

  runArtifacts(sessionId: string, runId: string) {
    return this.call('v4/conversation/workflowRunArtifacts', { sessionId, runId }, wire.runArtifactsResultSchema);
  }

  runArtifactData(sessionId: string, runId: string, artifactId: string, q: { afterSequence?: number | undefined; limit?: number | undefined; fields?: string[] | undefined }) {
    return this.call('v4/conversation/workflowRunArtifactData', { sessionId, runId, artifactId, ...stripUndefined(q) }, wire.runArtifactDataResultSchema);
  }

  runArtifactRead(sessionId: string, runId: string, artifactId: string, q: { version: number; offset: number; limit: number }) {
    return this.call('v4/conversation/workflowRunArtifactRead', { sessionId, runId, artifactId, ...q }, wire.runArtifactReadResultSchema);
  }

  runWorkspace(sessionId: string, runId: string) {
    return this.call('v4/conversation/workflowRunWorkspace', { sessionId, runId }, wire.runWorkspaceResultSchema);
  }

  runNodeResult(sessionId: string, runId: string, siteId: string, ordinal: number, maxBytes?: number) {
    return this.call('v4/conversation/workflowRunNodeResult', { sessionId, runId, siteId, ordinal, ...stripUndefined({ maxBytes }) }, wire.runNodeResultSchema);
  }
}

function stripUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
