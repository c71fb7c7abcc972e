/**
 * Workflow runs of this process (§8): their status, event journal, artifacts and nodes. Runs
 * live in memory like runtimes do; `workflows/runs` and the v4 queries read them from here.
 */
import type { ArtifactKind, RunEvent, RunStatus, SavedRun, StopReason } from '../../wire/workflow-runs.js';

export interface RunArtifact {
  id: string;
  kind: ArtifactKind;
  title: string;
  contentType: string;
  content: string;
  rows: Record<string, unknown>[];
  publishedAt: number;
}

export interface RunNode {
  siteId: string;
  ordinal: number;
  kind: string;
  op?: string;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  summary?: string;
  result?: string;
  createdAt: number;
  updatedAt: number;
}

export interface WorkflowRun {
  runId: string;
  name: string;
  scope: 'project' | 'global';
  sessionId: string;
  cwd: string;
  toolCallId: string;
  status: RunStatus;
  stopReason?: StopReason;
  createdAt: number;
  updatedAt: number;
  spentTokens: number;
  args: Record<string, unknown>;
  script: string;
  resumedFrom?: string;
  events: RunEvent[];
  artifacts: RunArtifact[];
  nodes: RunNode[];
  timers: NodeJS.Timeout[];
}

export class WorkflowRunRegistry {
  private readonly runs = new Map<string, WorkflowRun>();

  add(run: WorkflowRun): void {
    this.runs.set(run.runId, run);
  }

  get(runId: string): WorkflowRun | undefined {
    return this.runs.get(runId);
  }

  /** Newest first. */
  list(filter: (r: WorkflowRun) => boolean = () => true): WorkflowRun[] {
    return [...this.runs.values()].filter(filter).sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Forgets every run (restart switch). */
  clear(): void {
    for (const r of this.runs.values()) for (const t of r.timers) clearTimeout(t);
    this.runs.clear();
  }

  /** Appends a journal event with the next sequence number. */
  static record(run: WorkflowRun, type: string, payload: Record<string, unknown>): void {
    run.events.push({ sequence: run.events.length + 1, type, payload });
    run.updatedAt = Date.now();
  }

  /** The `Run` of `workflows/runs` (§8). */
  static toRun(r: WorkflowRun): SavedRun {
    return {
      runId: r.runId,
      name: r.name,
      status: r.status,
      ...(r.status === 'stopped' && r.stopReason ? { stopReason: r.stopReason } : {}),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      spentTokens: r.spentTokens,
      parentSessionId: r.sessionId,
      toolCallId: r.toolCallId,
      args: r.args,
      cwd: r.cwd,
      artifacts: r.artifacts.slice(0, 8).map((a) => ({ id: a.id, kind: a.kind, title: a.title, version: 1, contentType: a.contentType })),
    };
  }
}
