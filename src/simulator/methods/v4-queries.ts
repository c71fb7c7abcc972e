import { notFound, parseParams, ProtocolError, RPC } from '../protocol-error.js';
import {
  RunArtifactDataQuery,
  RunArtifactReadQuery,
  RunArtifactsQuery,
  RunEventsQuery,
  RunNodeResultQuery,
  RunWorkspaceQuery,
  WorkflowRunsQuery,
} from '../../wire/workflow-params.js';
import type { SimulatorCore } from '../simulator-core.js';
import type { WorkflowRun } from '../workflows/run-registry.js';
import type { Sent } from '../../wire/message.js';
import type * as wire from '../../wire/workflow-runs.js';

type Handler = (sim: SimulatorCore, params: unknown) => unknown;

/** The session must be known (active or persisted); cold sessions are read without a runtime (§8). */
function knownSession(sim: SimulatorCore, sessionId: string): void {
  if (!sim.runtimes.has(sessionId) && !sim.store.load(sessionId)) throw notFound(sessionId);
}

function runOf(sim: SimulatorCore, sessionId: string, runId: string): WorkflowRun | undefined {
  knownSession(sim, sessionId);
  const r = sim.runs.get(runId);
  return r && r.sessionId === sessionId ? r : undefined;
}

/** v4 workflow-run queries (§8), read-only and idempotent. */
export const v4QueryMethods: Record<string, Handler> = {
  'v4/conversation/workflowRuns': (sim, params): Sent<typeof wire.sessionRunsResult> => {
    const p = parseParams(WorkflowRunsQuery, params);
    knownSession(sim, p.sessionId);
    const runs = sim.runs.list((r) => r.sessionId === p.sessionId).slice(0, p.limit ?? 64);
    return {
      runs: runs.map((r) => ({
        runId: r.runId,
        toolCallId: r.toolCallId,
        label: r.name.slice(0, 160),
        updatedAt: r.updatedAt,
        status: r.status,
        ...(r.stopReason ? { stopReason: r.stopReason } : {}),
        ...(r.resumedFrom ? { resumedFrom: r.resumedFrom } : {}),
        resumable: r.status === 'stopped' || r.status === 'errored',
      })),
    };
  },

  'v4/conversation/workflowRunEvents': (sim, params): Sent<typeof wire.runEventsResult> => {
    const p = parseParams(RunEventsQuery, params);
    const events = (runOf(sim, p.sessionId, p.runId)?.events ?? []).filter((e) => e.sequence > (p.afterSequence ?? 0));
    const limit = p.limit ?? 100;
    return { events: events.slice(0, limit), hasMore: events.length > limit };
  },

  'v4/conversation/workflowRunArtifacts': (sim, params): Sent<typeof wire.runArtifactsResult> => {
    const p = parseParams(RunArtifactsQuery, params);
    const run = runOf(sim, p.sessionId, p.runId);
    return {
      artifacts: (run?.artifacts ?? []).map((a) => ({
        id: a.id,
        kind: a.kind,
        title: a.title,
        contentType: a.contentType,
        version: 1,
        versions: [
          {
            version: 1,
            title: a.title,
            contentType: a.contentType,
            bytes: Buffer.byteLength(a.content),
            publishedAt: a.publishedAt,
            primary: true,
          },
        ],
        itemCount: a.rows.length,
        primary: true,
      })),
    };
  },

  'v4/conversation/workflowRunArtifactData': (sim, params): Sent<typeof wire.runArtifactDataResult> => {
    const p = parseParams(RunArtifactDataQuery, params);
    const a = runOf(sim, p.sessionId, p.runId)?.artifacts.find((x) => x.id === p.artifactId);
    const items = (a?.rows ?? [])
      .map((row, i) => ({
        sequence: i + 1,
        siteId: 'analyze',
        ordinal: 1,
        ...(p.fields ? { fields: Object.fromEntries(p.fields.map((f) => [f, row[f]])) } : { item: row }),
      }))
      .filter((x) => x.sequence > (p.afterSequence ?? 0));
    const limit = p.limit ?? 200;
    return { items: items.slice(0, limit), hasMore: items.length > limit };
  },

  'v4/conversation/workflowRunArtifactRead': (sim, params): Sent<typeof wire.runArtifactReadResult> => {
    const p = parseParams(RunArtifactReadQuery, params);
    const a = runOf(sim, p.sessionId, p.runId)?.artifacts.find((x) => x.id === p.artifactId);
    if (!a || p.version !== 1)
      throw new ProtocolError(RPC.internal, `fault.workflowRunArtifactRead.notFound: ${p.runId}/${p.artifactId}@${p.version}`);
    const bytes = Buffer.from(a.content);
    const end = Math.min(bytes.length, p.offset + p.limit);
    return {
      dataBase64: bytes.subarray(Math.min(p.offset, bytes.length), end).toString('base64'),
      mediaType: a.contentType,
      totalBytes: bytes.length,
      nextOffset: end < bytes.length ? end : null,
    };
  },

  'v4/conversation/workflowRunWorkspace': (sim, params): Sent<typeof wire.runWorkspaceResult> => {
    const p = parseParams(RunWorkspaceQuery, params);
    const nodes = runOf(sim, p.sessionId, p.runId)?.nodes ?? [];
    return {
      nodes: nodes.map((n) => ({
        siteId: n.siteId,
        ordinal: n.ordinal,
        kind: n.kind,
        ...(n.op ? { op: n.op } : {}),
        status: n.status,
        ...(n.summary ? { summary: n.summary } : {}),
        createdAt: n.createdAt,
        updatedAt: n.updatedAt,
      })),
    };
  },

  'v4/conversation/workflowRunNodeResult': (sim, params): Sent<typeof wire.runNodeResult> => {
    const p = parseParams(RunNodeResultQuery, params);
    const n = runOf(sim, p.sessionId, p.runId)?.nodes.find((x) => x.siteId === p.siteId && x.ordinal === p.ordinal);
    if (!n || n.result === undefined)
      throw new ProtocolError(RPC.internal, `fault.workflowRunNodeResult.notFound: ${p.runId}/${p.siteId}#${p.ordinal}`);
    const max = p.maxBytes ?? 65_536;
    const body = Buffer.from(n.result);
    return {
      siteId: n.siteId,
      ordinal: n.ordinal,
      status: n.status,
      result: body.subarray(0, max).toString('utf8'),
      bytes: body.length,
      ...(body.length > max ? { truncated: true } : {}),
    };
  },
};
