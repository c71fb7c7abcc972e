/**
 * Saved workflows and workflow runs through the app-server (APP-SERVER.md §8, §7.3): the
 * hub's defaults (the workspace a request names none of, the session a start opens) and the
 * fallbacks (cold session, a runtime that cannot cancel one run) over the typed client, which
 * parses every result and maps every refusal to one HTTP error.
 */
import { HubError } from '../errors.js';
import { toHubError } from '../backend-errors.js';
import { workspaceRef, type AppServer } from '../app-server/client.js';
import type { CommandAck } from '../app-server/session-schemas.js';
import type * as wire from '../app-server/workflow-schemas.js';
import type { V4CommandType } from '../wire/v4.js';
import { startSavedWorkflowResultSchema } from '../app-server/workflow-schemas.js';

export interface WorkflowServiceOptions {
  appServer: Pick<AppServer, 'workflows' | 'createSession' | 'resumeSession' | 'v4Command'>;
  /** Workspace used when a request names none (and as the runtime carrier of `global` calls, §8). */
  defaultWorkspace: string;
  /**
   * Opens a new session for a workflow start. The composition root should pass the hub's own
   * session creation so clients see the session; default: a plain `session/create`.
   */
  openSession?: (workspace: string) => Promise<string>;
}

export class WorkflowService {
  private readonly app: WorkflowServiceOptions['appServer'];
  private readonly defaultWorkspace: string;
  private readonly openSessionFn: (workspace: string) => Promise<string>;

  constructor(options: WorkflowServiceOptions) {
    this.app = options.appServer;
    this.defaultWorkspace = options.defaultWorkspace;
    this.openSessionFn = options.openSession ?? ((workspace) => this.createSession(workspace));
  }

  private ws(workspace?: string) {
    return workspaceRef(workspace ?? this.defaultWorkspace);
  }

  list(q: { workspace?: string | undefined; scope?: wire.WorkflowScope | undefined }) {
    return this.app.workflows.list(this.ws(q.workspace), q.scope);
  }

  get(scope: wire.WorkflowScope, name: string, workspace?: string) {
    return this.app.workflows.get(this.ws(workspace), scope, name);
  }

  updateMeta(scope: wire.WorkflowScope, name: string, meta: wire.WorkflowMeta, workspace?: string) {
    return this.app.workflows.updateMeta(this.ws(workspace), scope, name, meta);
  }

  delete(scope: wire.WorkflowScope, name: string, workspace?: string) {
    return this.app.workflows.delete(this.ws(workspace), scope, name);
  }

  /** Copies a global workflow into this project (never overwrites, §8). */
  move(name: string, workspace?: string) {
    return this.app.workflows.move(this.ws(workspace), name);
  }

  save(input: {
    runId: string;
    name: string;
    meta: wire.WorkflowMeta;
    scope?: wire.WorkflowScope | undefined;
    overwrite?: boolean | undefined;
    workspace?: string | undefined;
  }) {
    const { workspace, ...rest } = input;
    return this.app.workflows.save(this.ws(workspace), rest);
  }

  /** The run journal (newest first); `limit` is required by the CLI (1..50). */
  runs(q: { workspace?: string | undefined; name?: string | undefined; scope?: wire.WorkflowScope | undefined; limit: number }) {
    return this.app.workflows.runs(this.ws(q.workspace), { limit: q.limit, name: q.name, scope: q.scope });
  }

  private async createSession(workspace: string): Promise<string> {
    // The workflow runtime must exist on the session (§8: dynamic workflows are off by default).
    const snapshot = await this.app.createSession({ cwd: workspace, dynamicWorkflowEnabled: true });
    return snapshot.session.sessionId;
  }

  /** Sends one v4 command; a cold session (`proto.sessionNotFound`) is resumed and the command retried once (§7.1/§7.2). */
  command(sessionId: string, type: V4CommandType, payload: Record<string, unknown>): Promise<CommandAck> {
    return this.app.v4Command(sessionId, type, payload, {
      onColdSession: () => this.app.resumeSession({ sessionId, dynamicWorkflowEnabled: true }),
    });
  }

  /** Starts a saved workflow on an existing session or on a new one (§7.3 `startSavedWorkflow`). */
  async start(input: {
    scope: wire.WorkflowScope;
    name: string;
    sessionId?: string | undefined;
    args?: Record<string, unknown> | undefined;
    workspace?: string | undefined;
  }) {
    let sessionId = input.sessionId;
    if (sessionId === undefined) {
      try {
        sessionId = await this.openSessionFn(input.workspace ?? this.defaultWorkspace);
      } catch (error) {
        throw toHubError(error);
      }
    }
    const ack = await this.command(sessionId, 'startSavedWorkflow', {
      name: input.name,
      scope: input.scope,
      ...(input.args ? { args: input.args } : {}),
    });
    const result = startSavedWorkflowResultSchema.safeParse(ack.result);
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
    return this.app.workflows.sessionRuns(sessionId, limit);
  }

  async runDetail(sessionId: string, runId: string) {
    const { runs } = await this.sessionRuns(sessionId, 64);
    const run = runs.find((r) => r.runId === runId);
    if (!run) throw new HubError('HUB_ERR_NOT_FOUND', `No workflow run ${runId} in session ${sessionId}`, { reason: 'not_found' });
    return run;
  }

  runEvents(sessionId: string, runId: string, q: { afterSequence?: number | undefined; limit?: number | undefined }) {
    return this.app.workflows.runEvents(sessionId, runId, q);
  }

  runArtifacts(sessionId: string, runId: string) {
    return this.app.workflows.runArtifacts(sessionId, runId);
  }

  runArtifactData(
    sessionId: string,
    runId: string,
    artifactId: string,
    q: { afterSequence?: number | undefined; limit?: number | undefined; fields?: string[] | undefined },
  ) {
    return this.app.workflows.runArtifactData(sessionId, runId, artifactId, q);
  }

  runArtifactRead(sessionId: string, runId: string, artifactId: string, q: { version: number; offset: number; limit: number }) {
    return this.app.workflows.runArtifactRead(sessionId, runId, artifactId, q);
  }

  runWorkspace(sessionId: string, runId: string) {
    return this.app.workflows.runWorkspace(sessionId, runId);
  }

  runNodeResult(sessionId: string, runId: string, siteId: string, ordinal: number, maxBytes?: number) {
    return this.app.workflows.runNodeResult(sessionId, runId, siteId, ordinal, maxBytes);
  }
}
