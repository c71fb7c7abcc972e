/**
 * Workflow runs (docs/APP-SERVER.md §7.3, §8), defined once: the run journal of
 * `workflows/runs`, the `startSavedWorkflow` ACK result and the answers of the read-only
 * `v4/conversation/workflowRun*` queries. The simulator builds them to the strict reading; the
 * hub reads them leniently and relays them, so it checks only the fields it relies on and
 * passes the rest through (`unread`).
 */
import { z } from 'zod';
import { drift, message, unread } from './message.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();
const count = z.number().int().nonnegative();
/** A time as the CLI sends it (epoch ms); the hub also reads an ISO string. */
const time = drift(z.number(), z.union([z.number(), z.string()]));

export const RUN_STATUSES = ['pending', 'running', 'completed', 'errored', 'stopped'] as const;
export const runStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatus>;

export const STOP_REASONS = ['user', 'model', 'provider', 'interrupted', 'superseded'] as const;
export type StopReason = (typeof STOP_REASONS)[number];
const stopReason = drift(z.enum(STOP_REASONS).optional(), optStr);

export const ARTIFACT_KINDS = ['file', 'markdown', 'chart', 'table', 'metrics', 'board'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];
const artifactKind = drift(z.enum(ARTIFACT_KINDS), z.string());

/** An artifact as a `Run` of the journal names it (at most 8 per run). */
const runArtifactRef = message({
  id: strPlus,
  kind: z.enum(ARTIFACT_KINDS),
  title: optStr,
  version: z.number().int().min(1).max(16),
  contentType: optStr,
});

/** `Run` of the run journal (`workflows/runs`); `stopReason` only when stopped. */
export const savedRun = message({
  runId: drift(strPlus, z.string()),
  name: optStr,
  status: runStatus,
  stopReason,
  createdAt: time,
  updatedAt: time,
  spentTokens: drift(count, z.number().optional()),
  parentSessionId: optStr,
  toolCallId: optStr,
  args: z.unknown().optional(),
  cwd: optStr,
  artifacts: drift(z.array(runArtifactRef.strict).max(8).optional(), z.array(z.record(z.string(), z.unknown())).optional()),
});
export type SavedRun = z.infer<typeof savedRun.strict>;

/** `workflows/runs`: newest first; `truncated` when more than `limit` matched. */
export const workflowRunsResult = message({ runs: savedRun.list(), truncated: z.literal(true).optional() });

/** The `result` of an accepted `startSavedWorkflow` ACK (§7.3). */
export const startSavedWorkflowResult = message({
  type: z.literal('startSavedWorkflow'),
  runId: drift(strPlus, z.string()),
  toolCallId: drift(z.string().startsWith('launch-'), optStr),
});

/** A run as `v4/conversation/workflowRuns` lists it (per session). */
export const sessionRun = message({
  runId: drift(strPlus, z.string()),
  toolCallId: optStr,
  label: drift(z.string().max(160).optional(), optStr),
  updatedAt: drift(z.number().optional(), z.union([z.number(), z.string()]).optional()),
  status: runStatus,
  stopReason,
  resumedFrom: optStr,
  supersededBy: optStr,
  failureCode: optStr,
  failureMessage: optStr,
  resumable: z.boolean(),
});

export const sessionRunsResult = message({ runs: sessionRun.list() });

/** One journal event of a run. */
export const runEvent = message({
  sequence: drift(z.number().int().positive(), z.number()),
  type: drift(z.string().max(64), z.string()),
  payload: z.record(z.string(), z.unknown()),
  truncated: z.boolean().optional(),
});
export type RunEvent = z.infer<typeof runEvent.strict>;

/** `v4/conversation/workflowRunEvents`: a page after `afterSequence`. */
export const runEventsResult = message({ events: runEvent.list(), hasMore: z.boolean() });

const artifactVersion = message({
  version: z.number().int().min(1).max(16),
  title: optStr,
  description: optStr,
  contentType: optStr,
  bytes: count.optional(),
  uri: optStr,
  sourcePath: optStr,
  spec: z.unknown().optional(),
  publishedAt: z.number(),
  primary: z.boolean().optional(),
});

/** An artifact of `v4/conversation/workflowRunArtifacts`, with its versions. */
export const runArtifact = message({
  id: drift(strPlus, z.string()),
  kind: artifactKind,
  title: unread(optStr),
  description: unread(optStr),
  contentType: unread(optStr),
  sourcePath: unread(optStr),
  spec: unread(z.unknown().optional()),
  version: drift(z.number().int().min(1).max(16), z.number()),
  versions: unread(z.array(artifactVersion.strict).min(1)),
  itemCount: unread(count),
  primary: unread(z.boolean().optional()),
});

/** `v4/conversation/workflowRunArtifacts` (an unknown run has none). */
export const runArtifactsResult = message({ artifacts: runArtifact.list() });

/** A row of an artifact's data: the whole `item`, or only the asked `fields`. */
const artifactDataItem = message({
  sequence: drift(z.number().int().positive(), z.number()),
  siteId: drift(strPlus, z.union([z.string(), z.number()])),
  ordinal: drift(count, z.number()),
  item: unread(z.unknown().optional()),
  fields: unread(z.record(z.string(), z.unknown()).optional()),
});

/** `v4/conversation/workflowRunArtifactData`. */
export const runArtifactDataResult = message({ items: artifactDataItem.list(), hasMore: z.boolean() });

/** `v4/conversation/workflowRunArtifactRead`: one window of an artifact's bytes. */
export const runArtifactReadResult = message({
  dataBase64: z.string(),
  mediaType: z.string(),
  totalBytes: drift(count.max(20 * 1024 * 1024), z.number()),
  nextOffset: drift(count.nullable(), z.number().nullable()),
});

/** A node of `v4/conversation/workflowRunWorkspace`; the hub relays it unread. */
const runNode = message({
  siteId: unread(strPlus),
  ordinal: unread(count),
  kind: unread(strPlus),
  op: unread(optStr),
  args: unread(z.unknown().optional()),
  inputTruncated: unread(z.boolean().optional()),
  status: unread(strPlus),
  error: unread(z.unknown().optional()),
  summary: unread(optStr),
  createdAt: unread(z.number()),
  updatedAt: unread(z.number()),
});

/** `v4/conversation/workflowRunWorkspace`. */
export const runWorkspaceResult = message({ nodes: runNode.list(), truncated: z.boolean().optional() });

/**
 * `v4/conversation/workflowRunNodeResult`: the contract says only "a bounded node body"; this
 * is the body the simulator sends, and the hub relays any object.
 */
export const runNodeResult = message({
  siteId: unread(strPlus),
  ordinal: unread(count),
  status: unread(strPlus),
  result: unread(z.string()),
  bytes: unread(count),
  truncated: unread(z.literal(true).optional()),
});
