/**
 * The hub's readings of saved workflows and workflow runs (APP-SERVER.md §8), parsed at the
 * boundary by the app-server client (client-workflows.ts) and relayed by the REST routes. Each
 * is the lenient reading of the one definition in src/wire/ (workflows.ts, workflow-runs.ts):
 * the hub relays these results, so a newer CLI adding a field must not turn a read into a 500.
 * `Meta` and the scope are the strict readings: the hub sends them.
 */
import * as runs from '../wire/workflow-runs.js';
import * as saved from '../wire/workflows.js';

export type { WorkflowMeta, WorkflowScope } from '../wire/workflows.js';
export const workflowScopeSchema = saved.workflowScope;
export const workflowMetaSchema = saved.workflowMeta.strict;

export const workflowsListResultSchema = saved.workflowsListResult.lenient;
/** `{ok:false, reason, detail?, path?}` of every workflows/* method (failures are results, §8). */
export const workflowFailureSchema = saved.workflowFailure.lenient;
export const workflowGetResultSchema = saved.workflowGetResult.lenient;
export const workflowUpdateMetaResultSchema = saved.workflowUpdateMetaResult.lenient;
export const workflowDeleteResultSchema = saved.workflowDeleteResult.lenient;
export const workflowMoveResultSchema = saved.workflowMoveResult.lenient;
export const workflowSaveResultSchema = saved.workflowSaveResult.lenient;

export const workflowRunsResultSchema = runs.workflowRunsResult.lenient;
export const startSavedWorkflowResultSchema = runs.startSavedWorkflowResult.lenient;
export const sessionRunSchema = runs.sessionRun.lenient;
export const sessionRunsResultSchema = runs.sessionRunsResult.lenient;
export const runEventsResultSchema = runs.runEventsResult.lenient;
export const runArtifactsResultSchema = runs.runArtifactsResult.lenient;
export const runArtifactDataResultSchema = runs.runArtifactDataResult.lenient;
export const runArtifactReadResultSchema = runs.runArtifactReadResult.lenient;
export const runWorkspaceResultSchema = runs.runWorkspaceResult.lenient;
export const runNodeResultSchema = runs.runNodeResult.lenient;
