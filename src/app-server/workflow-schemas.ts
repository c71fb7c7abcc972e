/**
 * Wire shapes of saved workflows and workflow-run queries (APP-SERVER.md §8), parsed at
 * the boundary by the app-server client (client-workflows.ts). Results are *loose* objects: the hub relays
 * them, so a newer CLI adding a field must not turn a read into a 500; only the fields the
 * hub relies on are checked.
 */
import { z } from 'zod';
import { workflowMeta, workflowScope } from '../wire/workflows.js';

/** `Meta` and the scope (§8), defined once with the simulator's reading (src/wire/workflows.ts); strict: the hub sends them. */
export const workflowScopeSchema = workflowScope;
export type { WorkflowMeta, WorkflowScope } from '../wire/workflows.js';
export const workflowMetaSchema = workflowMeta.strict;

export const workflowEntrySchema = z.looseObject({
  name: z.string(),
  description: z.string(),
  whenToUse: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  scope: workflowScopeSchema,
  path: z.string(),
});

export const workflowsListResultSchema = z.looseObject({
  workflows: z.array(workflowEntrySchema),
  invalid: z.array(z.looseObject({ path: z.string(), reason: z.string() })),
  dir: z.string(),
});

/** `{ok:false, reason, detail?, path?}` of every workflows/* method (failures are results, §8). */
export const workflowFailureSchema = z.looseObject({
  ok: z.literal(false),
  reason: z.string(),
  detail: z.string().optional(),
  path: z.string().optional(),
});

export const workflowGetResultSchema = z.union([
  z.looseObject({
    ok: z.literal(true),
    name: z.string(),
    path: z.string(),
    scope: workflowScopeSchema,
    meta: z.record(z.string(), z.unknown()),
    script: z.string(),
  }),
  workflowFailureSchema,
]);
export const workflowPathResultSchema = z.union([z.looseObject({ ok: z.literal(true), path: z.string() }), workflowFailureSchema]);
export const workflowMoveResultSchema = z.union([
  z.looseObject({ ok: z.literal(true), from: z.string(), to: z.string() }),
  workflowFailureSchema,
]);
export const workflowSaveResultSchema = z.union([
  z.looseObject({
    ok: z.literal(true),
    name: z.string(),
    scope: workflowScopeSchema,
    path: z.string(),
    overwritten: z.boolean(),
    shadowing: z.enum(['hides_global', 'hidden_by_project']).optional(),
  }),
  workflowFailureSchema,
]);

export const runStatusSchema = z.enum(['pending', 'running', 'completed', 'errored', 'stopped']);

/** `Run` of the run journal (`workflows/runs`). */
export const savedRunSchema = z.looseObject({
  runId: z.string(),
  name: z.string().optional(),
  status: runStatusSchema,
  stopReason: z.string().optional(),
  createdAt: z.union([z.number(), z.string()]),
  updatedAt: z.union([z.number(), z.string()]),
  spentTokens: z.number().optional(),
  parentSessionId: z.string().optional(),
  toolCallId: z.string().optional(),
  args: z.unknown().optional(),
  cwd: z.string().optional(),
  artifacts: z.array(z.record(z.string(), z.unknown())).optional(),
});
export const workflowRunsResultSchema = z.looseObject({ runs: z.array(savedRunSchema), truncated: z.literal(true).optional() });

/** A run as `v4/conversation/workflowRuns` lists it (per session). */
export const sessionRunSchema = z.looseObject({
  runId: z.string(),
  toolCallId: z.string().optional(),
  label: z.string().optional(),
  updatedAt: z.union([z.number(), z.string()]).optional(),
  status: runStatusSchema,
  stopReason: z.string().optional(),
  resumedFrom: z.string().optional(),
  supersededBy: z.string().optional(),
  failureCode: z.string().optional(),
  failureMessage: z.string().optional(),
  resumable: z.boolean(),
});
export const sessionRunsResultSchema = z.looseObject({ runs: z.array(sessionRunSchema) });

export const runEventsResultSchema = z.looseObject({
  events: z.array(
    z.looseObject({
      sequence: z.number(),
      type: z.string(),
      payload: z.record(z.string(), z.unknown()),
      truncated: z.boolean().optional(),
    }),
  ),
  hasMore: z.boolean(),
});
export const runArtifactsResultSchema = z.looseObject({
  artifacts: z.array(z.looseObject({ id: z.string(), kind: z.string(), version: z.number() })),
});
export const runArtifactDataResultSchema = z.looseObject({
  items: z.array(z.looseObject({ sequence: z.number(), siteId: z.union([z.string(), z.number()]), ordinal: z.number() })),
  hasMore: z.boolean(),
});
export const runArtifactReadResultSchema = z.looseObject({
  dataBase64: z.string(),
  mediaType: z.string(),
  totalBytes: z.number(),
  nextOffset: z.number().nullable(),
});
export const runWorkspaceResultSchema = z.looseObject({
  nodes: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean().optional(),
});
export const runNodeResultSchema = z.record(z.string(), z.unknown());

export const startSavedWorkflowResultSchema = z.looseObject({
  type: z.literal('startSavedWorkflow'),
  runId: z.string(),
  toolCallId: z.string().optional(),
});
