/**
 * The `workflows/*` calls and the v4 workflow-run reads of the app-server (APP-SERVER.md §8),
 * each parsed by its schema (workflow-schemas.ts). `{ok:false, reason}` results are failures
 * in a result's clothing (§8): `ok` calls turn them into the catalog error.
 */
import type { z } from 'zod';
import { workflowFailureError } from '../backend-errors.js';
import type { BackendRequestOptions } from '../ports/backend-port.js';
import type * as p from '../wire/workflow-params.js';
import * as w from './workflow-schemas.js';

/** What the CLI reads, as the hub builds it: the strict params' input type (src/wire/workflow-params.ts). */
type Params<S extends z.ZodType> = z.input<S>;

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

  /** Unwraps a `{ok:true,…} | {ok:false, reason}` result; a failure names the workflow it was about. */
  private async ok<S extends z.ZodType, P extends { name: string }>(
    method: string,
    params: P,
    schema: S,
  ): Promise<Exclude<z.output<S>, { ok: false }>> {
    const result = await this.call(method, params, schema);
    const failure = w.workflowFailureSchema.safeParse(result);
    if (failure.success) throw workflowFailureError(method, failure.data, params.name);
    return result as Exclude<z.output<S>, { ok: false }>;
  }

  /** `workflows/list`. */
  list(workspace: WorkspaceRef, scope?: w.WorkflowScope) {
    return this.call(
      'workflows/list',
      { workspace, ...(scope ? { scope } : {}) } satisfies Params<typeof p.ListParams>,
      w.workflowsListResultSchema,
    );
  }

  /** `workflows/get`. */
  get(workspace: WorkspaceRef, scope: w.WorkflowScope, name: string) {
    return this.ok('workflows/get', { workspace, name, scope } satisfies Params<typeof p.NameParams>, w.workflowGetResultSchema);
  }

  /** `workflows/updateMeta`. */
  updateMeta(workspace: WorkspaceRef, scope: w.WorkflowScope, name: string, meta: w.WorkflowMeta) {
    return this.ok(
      'workflows/updateMeta',
      { workspace, name, meta, scope } satisfies Params<typeof p.UpdateMetaParams>,
      w.workflowUpdateMetaResultSchema,
    );
  }

  /** `workflows/delete`. */
  delete(workspace: WorkspaceRef, scope: w.WorkflowScope, name: string) {
    return this.ok('workflows/delete', { workspace, name, scope } satisfies Params<typeof p.NameParams>, w.workflowDeleteResultSchema);
  }

  /** `workflows/move`: a global workflow copied into the project. */
  move(workspace: WorkspaceRef, name: string) {
    return this.ok('workflows/move', { workspace, name } satisfies Params<typeof p.MoveParams>, w.workflowMoveResultSchema);
  }

  /** `workflows/save`. */
  save(
    workspace: WorkspaceRef,
    input: { runId: string; name: string; meta: w.WorkflowMeta; scope?: w.WorkflowScope | undefined; overwrite?: boolean | undefined },
  ) {
    return this.ok('workflows/save', { workspace, ...defined(input) } satisfies Params<typeof p.SaveParams>, w.workflowSaveResultSchema);
  }

  /** `workflows/runs` (newest first). */
  runs(workspace: WorkspaceRef, q: { limit: number; name?: string | undefined; scope?: w.WorkflowScope | undefined }) {
    return this.call('workflows/runs', { workspace, ...defined(q) } satisfies Params<typeof p.RunsParams>, w.workflowRunsResultSchema);
  }

  /** `v4/conversation/workflowRuns`. */
  sessionRuns(sessionId: string, limit?: number) {
    return this.call(
      'v4/conversation/workflowRuns',
      { sessionId, ...(limit ? { limit } : {}) } satisfies Params<typeof p.WorkflowRunsQuery>,
      w.sessionRunsResultSchema,
    );
  }

  /** `v4/conversation/workflowRunEvents`. */
  runEvents(sessionId: string, runId: string, q: Window) {
    return this.call(
      'v4/conversation/workflowRunEvents',
      { sessionId, runId, ...defined(q) } satisfies Params<typeof p.RunEventsQuery>,
      w.runEventsResultSchema,
    );
  }

  /** `v4/conversation/workflowRunArtifacts`. */
  runArtifacts(sessionId: string, runId: string) {
    return this.call(
      'v4/conversation/workflowRunArtifacts',
      { sessionId, runId } satisfies Params<typeof p.RunArtifactsQuery>,
      w.runArtifactsResultSchema,
    );
  }

  /** `v4/conversation/workflowRunArtifactData`. */
  runArtifactData(sessionId: string, runId: string, artifactId: string, q: Window & { fields?: string[] | undefined }) {
    return this.call(
      'v4/conversation/workflowRunArtifactData',
      { sessionId, runId, artifactId, ...defined(q) } satisfies Params<typeof p.RunArtifactDataQuery>,
      w.runArtifactDataResultSchema,
    );
  }

  /** `v4/conversation/workflowRunArtifactRead`. */
  runArtifactRead(sessionId: string, runId: string, artifactId: string, q: { version: number; offset: number; limit: number }) {
    return this.call(
      'v4/conversation/workflowRunArtifactRead',
      { sessionId, runId, artifactId, ...q } satisfies Params<typeof p.RunArtifactReadQuery>,
      w.runArtifactReadResultSchema,
    );
  }

  /** `v4/conversation/workflowRunWorkspace`. */
  runWorkspace(sessionId: string, runId: string) {
    return this.call(
      'v4/conversation/workflowRunWorkspace',
      { sessionId, runId } satisfies Params<typeof p.RunWorkspaceQuery>,
      w.runWorkspaceResultSchema,
    );
  }

  /** `v4/conversation/workflowRunNodeResult`. */
  runNodeResult(sessionId: string, runId: string, siteId: string, ordinal: number, maxBytes?: number) {
    return this.call(
      'v4/conversation/workflowRunNodeResult',
      { sessionId, runId, siteId, ordinal, ...defined({ maxBytes }) } satisfies Params<typeof p.RunNodeResultQuery>,
      w.runNodeResultSchema,
    );
  }
}

/** `T` with every field that may be `undefined` made optional instead (and never `undefined`). */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** The object without its `undefined` fields (the child's schemas are strict on input). */
export function defined<T extends Record<string, unknown>>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;
}
