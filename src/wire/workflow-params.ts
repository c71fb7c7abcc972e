/**
 * The params of `workflows/*` and of the v4 workflow-run queries (docs/APP-SERVER.md §8), strict
 * as the CLI reads them, defined once: the simulator parses what arrives with them and the
 * hub's client (src/app-server/client-workflows.ts) builds what it sends typed by them.
 */
import { z } from 'zod';
import { workspaceRef } from './session-info.js';
import { strPlus } from './text.js';
import { workflowMeta, workflowScope } from './workflows.js';

const WorkspaceRefSchema = workspaceRef.strict;
const ScopeSchema = workflowScope;

export const ListParams = z.strictObject({ workspace: WorkspaceRefSchema, scope: ScopeSchema.optional() });
export const NameParams = z.strictObject({ workspace: WorkspaceRefSchema, name: strPlus, scope: ScopeSchema.optional() });
export const UpdateMetaParams = z.strictObject({
  workspace: WorkspaceRefSchema,
  name: strPlus,
  meta: z.unknown(),
  scope: ScopeSchema.optional(),
});
export const RunsParams = z.strictObject({
  workspace: WorkspaceRefSchema,
  name: strPlus.optional(),
  limit: z.number().int().min(1).max(50),
  scope: ScopeSchema.optional(),
});
export const MoveParams = z.strictObject({ workspace: WorkspaceRefSchema, name: strPlus });
export const SaveParams = z.strictObject({
  workspace: WorkspaceRefSchema,
  runId: strPlus,
  name: strPlus,
  meta: workflowMeta.strict,
  scope: ScopeSchema.optional(),
  overwrite: z.boolean().optional(),
});
export const ForRunParams = z.strictObject({
  workspace: WorkspaceRefSchema,
  runId: strPlus,
  candidates: z
    .array(z.strictObject({ name: strPlus, scope: ScopeSchema.optional() }))
    .max(8)
    .optional(),
});

/** The v4 read-only run queries (§8). */
const sid = { sessionId: strPlus, runId: strPlus };
export const WorkflowRunsQuery = z.strictObject({ sessionId: strPlus, limit: z.number().int().min(1).max(64).optional() });
export const RunEventsQuery = z.strictObject({
  ...sid,
  afterSequence: z.number().int().nonnegative().optional(),
  limit: z.number().int().min(1).max(500).optional(),
});
export const RunArtifactsQuery = z.strictObject(sid);
export const RunArtifactDataQuery = z.strictObject({
  ...sid,
  artifactId: strPlus.max(64),
  afterSequence: z.number().int().nonnegative().optional(),
  limit: z.number().int().min(1).max(500).optional(),
  fields: z.array(z.string()).min(1).max(32).optional(),
});
export const RunArtifactReadQuery = z.strictObject({
  ...sid,
  artifactId: strPlus.max(64),
  version: z.number().int().min(1).max(16),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().min(1).max(524_288),
});
export const RunWorkspaceQuery = z.strictObject(sid);
export const RunNodeResultQuery = z.strictObject({
  ...sid,
  siteId: strPlus,
  ordinal: z.number().int().nonnegative(),
  maxBytes: z.number().int().positive().optional(),
});
