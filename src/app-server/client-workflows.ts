/**
 * The `workflows/*` calls and the v4 workflow-run reads of the app-server (APP-SERVER.md §8),
 * each parsed by its schema (workflow-schemas.ts). `{ok:false, reason}` results are failures
 * in a result's clothing (§8): `ok` calls turn them into the catalog error.
 */
import type { z } from 'zod';
import { workflowFailureError } from '../backend-errors.js';
import type { BackendRequestOptions } from '../ports/backend-port.js';
import * as w from './workflow-schemas.js';

/** The client's one way to call: parsed result or an AppServerError. */
export type Call = <S extends z.ZodType>(
  method: string,
  params: unknown,
  schema: S,
  options?: BackendRequestOptions,
) => Promise<z.output<S>>;

type WorkspaceRef = { workspacePath: string; workspaceKey: string };
type Window = { afterSequence?: number | undefined; limit?: number | undefined };

export class WorkflowCalls {
  constructor(private readonly call: Call) {}

  /** Unwraps a `{ok:true,…} | {ok:false, reason}` result. */
  private async ok<S extends z.ZodType>(method: string, params: unknown, schema: S): Promise<Exclude<z.output<S>, { ok: false }>> {
    const result = await this.call(method, params, schema);
    const failure = w.workflowFailureSchema.safeParse(result);
    if (failure.success) throw workflowFailureError(method, failure.data);
    return result as Exclude<z.output<S>, { ok: false }>;
  }

  /** `workflows/list`. */
  list(workspace: WorkspaceRef, scope?: w.WorkflowScope) {
    return this.call('workflows/list', { workspace, ...(scope ? { scope } : {}) }, w.workflowsListResultSchema);
  }

  /** `workflows/get`. */
  get(workspace: WorkspaceRef, scope: w.WorkflowScope, name: string) {
    return this.ok('workflows/get', { workspace, name, scope }, w.workflowGetResultSchema);
  }

  /** `workflows/updateMeta`. */
  updateMeta(workspace: WorkspaceRef, scope: w.WorkflowScope, name: string, meta: w.WorkflowMeta) {
    return this.ok('workflows/updateMeta', { workspace, name, meta, scope }, w.workflowUpdateMetaResultSchema);
  }

  /** `workflows/delete`. */
  delete(workspace: WorkspaceRef, scope: w.WorkflowScope, name: string) {
    return this.ok('workflows/delete', { workspace, name, scope }, w.workflowDeleteResultSchema);
  }

  /** `workflows/move`: a global workflow copied into the project. */
  move(workspace: WorkspaceRef, name: string) {
    return this.ok('workflows/move', { workspace, name }, w.workflowMoveResultSchema);
  }

  /** `workflows/save`. */
  save(
    workspace: WorkspaceRef,
    input: { runId: string; name: string; meta: w.WorkflowMeta; scope?: w.WorkflowScope | undefined; overwrite?: boolean | undefined },
  ) {
    return this.ok('workflows/save', { workspace, ...defined(input) }, w.workflowSaveResultSchema);
  }

  /** `workflows/runs` (newest first). */
  runs(workspace: WorkspaceRef, q: { limit: number; name?: string | undefined; scope?: w.WorkflowScope | undefined }) {
    return this.call('workflows/runs', { workspace, ...defined(q) }, w.workflowRunsResultSchema);
  }

  /** `v4/conversation/workflowRuns`. */
  sessionRuns(sessionId: string, limit?: number) {
    return this.call('v4/conversation/workflowRuns', { sessionId, ...(limit ? { limit } : {}) }, w.sessionRunsResultSchema);
  }

  /** `v4/conversation/workflowRunEvents`. */
  runEvents(sessionId: string, runId: string, q: Window) {
    return this.call('v4/conversation/workflowRunEvents', { sessionId, runId, ...defined(q) }, w.runEventsResultSchema);
  }

  /** `v4/conversation/workflowRunArtifacts`. */
  runArtifacts(sessionId: string, runId: string) {
    return this.call('v4/conversation/workflowRunArtifacts', { sessionId, runId }, w.runArtifactsResultSchema);
  }

  /** `v4/conversation/workflowRunArtifactData`. */
  runArtifactData(sessionId: string, runId: string, artifactId: string, q: Window & { fields?: string[] | undefined }) {
    return this.call(
      'v4/conversation/workflowRunArtifactData',
      { sessionId, runId, artifactId, ...defined(q) },
      w.runArtifactDataResultSchema,
    );
  }

  /** `v4/conversation/workflowRunArtifactRead`. */
  runArtifactRead(sessionId: string, runId: string, artifactId: string, q: { version: number; offset: number; limit: number }) {
    return this.call('v4/conversation/workflowRunArtifactRead', { sessionId, runId, artifactId, ...q }, w.runArtifactReadResultSchema);
  }

  /** `v4/conversation/workflowRunWorkspace`. */
  runWorkspace(sessionId: string, runId: string) {
    return this.call('v4/conversation/workflowRunWorkspace', { sessionId, runId }, w.runWorkspaceResultSchema);
  }

  /** `v4/conversation/workflowRunNodeResult`. */
  runNodeResult(sessionId: string, runId: string, siteId: string, ordinal: number, maxBytes?: number) {
    return this.call(
      'v4/conversation/workflowRunNodeResult',
      { sessionId, runId, siteId, ordinal, ...defined({ maxBytes }) },
      w.runNodeResultSchema,
    );
  }
}

/** The object without its `undefined` fields (the child's schemas are strict on input). */
export function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
