import { randomUUID } from 'node:crypto';
import { emitTask } from '../background-tasks.js';
import type { BackgroundTask, SessionRuntime } from '../session-runtime.js';
import type { SimulatorCore } from '../simulator-core.js';
import { WorkflowRunRegistry, type RunNode, type WorkflowRun } from './run-registry.js';

const STEPS = [
  { siteId: 'collect', kind: 'agent', op: 'Collect inputs', at: 500 },
  { siteId: 'analyze', kind: 'agent', op: 'Analyze', at: 1300 },
  { siteId: 'report', kind: 'tool', op: 'Write report', at: 2200 },
];
const FINISH_AT_MS = 3000;

function runTask(run: WorkflowRun, status: BackgroundTask['status']): BackgroundTask {
  return {
    taskId: run.runId,
    status,
    toolCallId: run.toolCallId,
    taskKind: 'workflow',
    description: `Workflow ${run.name}`,
    cancellable: true,
    startedAt: new Date(run.createdAt).toISOString(),
    ...(status !== 'running' ? { completedAt: new Date().toISOString() } : {}),
  };
}

function lifecycle(sim: SimulatorCore, run: WorkflowRun, phase: string): void {
  sim.notify('v4/telemetry/event', {
    version: 1,
    eventId: randomUUID(),
    eventSeq: run.events.length,
    occurredAt: Date.now(),
    sessionId: run.sessionId,
    kind: 'workflow.lifecycle',
    phase,
    runId: run.runId,
  });
}

/**
 * Drives a saved-workflow run: three nodes, one markdown artifact (with table rows), journal
 * events, finishing after ~3 s (× `--turn-delay-scale`) unless stopped. Progress reaches the
 * parent session as background-task `session.updated` events with `taskKind:"workflow"` (§8).
 */
export function driveRun(sim: SimulatorCore, rt: SessionRuntime, run: WorkflowRun): void {
  const scale = sim.options.turnDelayScale;
  run.status = 'running';
  WorkflowRunRegistry.record(run, 'run.started', {
    name: run.name,
    args: run.args,
    ...(run.resumedFrom ? { resumedFrom: run.resumedFrom } : {}),
  });
  const task = runTask(run, 'running');
  rt.backgroundJobs.set(run.runId, task);
  emitTask(rt, task);
  lifecycle(sim, run, 'actor-spawned');
  let prev: RunNode | undefined;
  STEPS.forEach((step, i) => {
    run.timers.push(
      setTimeout(() => {
        const now = Date.now();
        if (prev) {
          prev.status = 'completed';
          prev.updatedAt = now;
          prev.summary = `${prev.op} done`;
          prev.result = `Result of ${prev.op}`;
          WorkflowRunRegistry.record(run, 'node.completed', { siteId: prev.siteId, ordinal: prev.ordinal });
        }
        const node: RunNode = {
          siteId: step.siteId,
          ordinal: i,
          kind: step.kind,
          op: step.op,
          status: 'running',
          createdAt: now,
          updatedAt: now,
        };
        run.nodes.push(node);
        prev = node;
        WorkflowRunRegistry.record(run, 'node.started', { siteId: node.siteId, ordinal: i, op: step.op });
        run.spentTokens += 250;
        if (step.siteId === 'analyze') {
          const content = `# ${run.name} report\n\nArgs: \`${JSON.stringify(run.args)}\`\n\n| file | lines |\n| --- | --- |\n| a.ts | 120 |\n| b.ts | 80 |\n`;
          run.artifacts.push({
            id: 'report',
            kind: 'markdown',
            title: `${run.name} report`,
            contentType: 'text/markdown',
            content,
            rows: [
              { file: 'a.ts', lines: 120 },
              { file: 'b.ts', lines: 80 },
            ],
            publishedAt: now,
          });
          WorkflowRunRegistry.record(run, 'artifact.published', { artifactId: 'report', version: 1, kind: 'markdown' });
        }
      }, step.at * scale),
    );
  });
  run.timers.push(
    setTimeout(() => {
      if (prev) {
        prev.status = 'completed';
        prev.updatedAt = Date.now();
        prev.summary = `${prev.op} done`;
        prev.result = `Result of ${prev.op}`;
        WorkflowRunRegistry.record(run, 'node.completed', { siteId: prev.siteId, ordinal: prev.ordinal });
      }
      settle(sim, rt, run, 'completed');
    }, FINISH_AT_MS * scale),
  );
}

/** Ends a run (completed, or stopped by the user) and reports it to the parent session. */
export function settle(sim: SimulatorCore, rt: SessionRuntime | undefined, run: WorkflowRun, status: 'completed' | 'stopped'): void {
  for (const t of run.timers) clearTimeout(t);
  run.timers = [];
  run.status = status;
  if (status === 'stopped') {
    run.stopReason = 'user';
    for (const n of run.nodes) if (n.status === 'running') n.status = 'cancelled';
  }
  WorkflowRunRegistry.record(
    run,
    status === 'completed' ? 'run.completed' : 'run.stopped',
    status === 'stopped' ? { stopReason: 'user' } : { spentTokens: run.spentTokens },
  );
  lifecycle(sim, run, 'run-settled');
  if (rt && !rt.closed) {
    const task = runTask(run, status === 'completed' ? 'completed' : 'cancelled');
    rt.backgroundJobs.set(run.runId, task);
    emitTask(rt, task);
  }
}
