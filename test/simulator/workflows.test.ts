import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWorkflow } from '../../src/simulator/workflows/store.js';
import { SimClient } from './sim-client.js';

let sim: SimClient;
let ws: { workspacePath: string; workspaceKey: string };
beforeAll(async () => {
  sim = await SimClient.start({ args: ['--turn-delay-scale', '0.2'] });
  const dir = path.join(sim.home, 'ws');
  ws = { workspacePath: dir, workspaceKey: dir };
  fs.mkdirSync(path.join(dir, '.zcode', 'workflows'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, '.zcode', 'workflows', 'audit.js'),
    encodeWorkflow(
      { description: 'Audit the code', args: { target: { type: 'string', required: true } } },
      'export default async function run(ctx) { /* … */ }\n',
    ),
  );
  fs.writeFileSync(path.join(dir, '.zcode', 'workflows', 'broken.js'), 'no header here');
});
afterAll(async () => sim.close());

const cmd = (sessionId: string | null, type: string, payload: object, commandId = `c-${Math.random()}`): Promise<any> =>
  sim.call('v4/command', { commandId, clientId: 'test', sessionId, type, payload, issuedAt: Date.now() });

describe('§8 saved workflows and runs', () => {
  it('list / get / updateMeta / delete with results, not errors', async () => {
    const list = await sim.call('workflows/list', { workspace: ws, scope: 'project' });
    expect(list.workflows.map((w: any) => w.name)).toEqual(['audit']);
    expect(list.invalid).toHaveLength(1);
    expect(list.dir).toBe(path.join(ws.workspacePath, '.zcode', 'workflows'));
    const got = await sim.call('workflows/get', { workspace: ws, name: 'audit' });
    expect(got).toMatchObject({ ok: true, name: 'audit', scope: 'project', meta: { description: 'Audit the code' } });
    expect(got.script).toContain('export default');
    expect(await sim.call('workflows/get', { workspace: ws, name: 'missing' })).toEqual({ ok: false, reason: 'not_found' });
    expect(await sim.call('workflows/get', { workspace: ws, name: '../x' })).toEqual({ ok: false, reason: 'invalid_name' });
    const up = await sim.call('workflows/updateMeta', {
      workspace: ws,
      name: 'audit',
      meta: { description: 'Audit everything', args: { target: { type: 'string', required: true } } },
    });
    expect(up.ok).toBe(true);
    expect((await sim.call('workflows/get', { workspace: ws, name: 'audit' })).meta.description).toBe('Audit everything');
    expect((await sim.request('workflows/updateMeta', { workspace: ws, name: 'audit', meta: { nope: 1 } })).error.code).toBe(-32603);
    expect(await sim.call('workflows/delete', { workspace: ws, name: 'broken' })).toMatchObject({ ok: true });
  });

  it('v4 ACK shapes: unknown session → rejected proto.sessionNotFound; empty sendText → failed proto.invalidPayload', async () => {
    expect(await cmd('sess_nope', 'sendText', { text: 'x' }, 'a1')).toEqual({
      commandId: 'a1',
      status: 'rejected',
      revisionAtDecision: 0,
      reasonCode: 'proto.sessionNotFound',
      message: 'Session is not active: sess_nope',
    });
    const sessionId = await sim.openSession({ workspace: ws });
    expect(await cmd(sessionId, 'sendText', { text: '  ' }, 'a2')).toMatchObject({
      status: 'failed',
      reasonCode: 'proto.invalidPayload',
      message: 'input must not be empty',
    });
    expect(await cmd(sessionId, 'sendText', { nope: 1 }, 'a3')).toMatchObject({
      status: 'rejected',
      reasonCode: 'proto.invalidPayload',
      revisionAtDecision: 0,
    });
    const bad = await sim.call('v4/command', { commandId: 'a4', type: 'stop' });
    expect(bad).toMatchObject({ commandId: 'a4', status: 'rejected', reasonCode: 'proto.invalidPayload' });
    expect(await cmd(sessionId, 'stop', {}, 'a5')).toMatchObject({ status: 'accepted' });
    expect(await cmd(sessionId, 'stop', {}, 'a5')).toMatchObject({ status: 'duplicate' });
    const q = await sim.call('v4/commands/query', {
      commands: [
        { sessionId, commandId: 'a5' },
        { sessionId, commandId: 'zz' },
      ],
    });
    expect(q.results[0].result.status).toBe('accepted');
    expect(q.results[1].result).toBe('unknown');
    expect(await cmd(sessionId, 'switchCollaborationMode', { mode: 'yolo' }, 'a6')).toMatchObject({
      status: 'rejected',
      reasonCode: 'proto.invalidPayload',
    });
    const rename = await cmd(sessionId, 'renameSession', { title: 'Renamed' });
    expect(rename.status).toBe('accepted');
    expect((await sim.call('session/read', { sessionId })).session).toMatchObject({ title: 'Renamed', titleSource: 'custom' });
  });

  it('sendText on idle starts a turn; v4 stop cancels it', async () => {
    const sessionId = await sim.openSession({ workspace: ws });
    const ack = await cmd(sessionId, 'sendText', { text: 'slow please' }, 's1');
    expect(ack.result).toEqual({ type: 'inputAccepted', delivery: 'startNow', inputId: 's1' });
    const started = await sim.waitFor(
      (m) => m.method === 'session/event' && m.params.sessionId === sessionId && m.params.type === 'turn.started',
    );
    expect(started.params.payload.inputId).toBe('s1');
    const queued = await cmd(sessionId, 'sendText', { text: 'then this', requestedDelivery: 'queue' }, 's2');
    expect(queued.result.delivery).toBe('queue');
    expect(sim.events(sessionId, 'turn.steerQueued')[0]!.payload).toMatchObject({ pendingInputId: 'queue_s2', delivery: 'queue' });
    expect(await cmd(sessionId, 'stop', { expectedForegroundExecutionId: 'fx_other' })).toMatchObject({
      status: 'noop',
      reasonCode: 'guard.stopTargetChanged',
    });
    expect(await cmd(sessionId, 'stop', { expectedForegroundExecutionId: started.params.payload.foregroundExecutionId })).toMatchObject({
      status: 'accepted',
    });
    const done = await sim.waitFor(
      (m) => m.method === 'session/event' && m.params.sessionId === sessionId && m.params.type === 'turn.completed',
    );
    expect(done.params.payload.resultType).toBe('cancelled');
    // the queued input then runs, drained
    await sim.waitFor((m) => m.method === 'session/event' && m.params.sessionId === sessionId && m.params.type === 'turn.steerDrained');
  });

  it('startSavedWorkflow → run with events, artifact, nodes; runs listed; save/forRun; stop via cancelBackgroundWork', async () => {
    const sessionId = await sim.openSession({ workspace: ws });
    expect(await cmd(sessionId, 'startSavedWorkflow', { name: 'missing' })).toMatchObject({
      status: 'failed',
      reasonCode: 'fault.command.savedWorkflowStartRejected.not_found',
    });
    expect(await cmd(sessionId, 'startSavedWorkflow', { name: 'audit' })).toMatchObject({
      status: 'failed',
      reasonCode: 'fault.command.savedWorkflowStartRejected.invalid_args',
    });
    const ack = await cmd(sessionId, 'startSavedWorkflow', { name: 'audit', args: { target: 'src' } });
    expect(ack.status).toBe('accepted');
    const { runId, toolCallId } = ack.result;
    expect(toolCallId).toMatch(/^launch-/);
    const launch = await sim.waitFor(
      (m) =>
        m.method === 'session/event' &&
        m.params.sessionId === sessionId &&
        m.params.type === 'turn.started' &&
        m.params.payload.inputSource === 'workflow_launch',
    );
    expect(launch).toBeTruthy();
    await sim.waitFor(
      (m) => m.method === 'session/event' && m.params.payload?.taskId === runId && m.params.payload?.status === 'completed',
      20_000,
      'run completed',
    );
    const events = await sim.call('v4/conversation/workflowRunEvents', { sessionId, runId });
    expect(events.events.map((e: any) => e.type)).toEqual(
      expect.arrayContaining(['run.started', 'node.started', 'artifact.published', 'run.completed']),
    );
    expect(events.hasMore).toBe(false);
    const arts = await sim.call('v4/conversation/workflowRunArtifacts', { sessionId, runId });
    expect(arts.artifacts).toHaveLength(1);
    const read = await sim.call('v4/conversation/workflowRunArtifactRead', {
      sessionId,
      runId,
      artifactId: 'report',
      version: 1,
      offset: 0,
      limit: 1000,
    });
    expect(Buffer.from(read.dataBase64, 'base64').toString()).toContain('# audit report');
    expect((await sim.call('v4/conversation/workflowRunArtifactData', { sessionId, runId, artifactId: 'report' })).items).toHaveLength(2);
    const nodes = await sim.call('v4/conversation/workflowRunWorkspace', { sessionId, runId });
    expect(nodes.nodes.map((n: any) => n.status)).toEqual(['completed', 'completed', 'completed']);
    expect((await sim.call('v4/conversation/workflowRunNodeResult', { sessionId, runId, siteId: 'report', ordinal: 2 })).result).toContain(
      'Write report',
    );
    expect(
      (await sim.request('v4/conversation/workflowRunNodeResult', { sessionId, runId, siteId: 'x', ordinal: 9 })).error.message,
    ).toMatch(/^fault\.workflowRunNodeResult\.notFound/);
    const runs = await sim.call('v4/conversation/workflowRuns', { sessionId });
    expect(runs.runs[0]).toMatchObject({ runId, status: 'completed', resumable: false });
    const journal = await sim.call('workflows/runs', { workspace: ws, limit: 5 });
    expect(journal.runs[0]).toMatchObject({ runId, name: 'audit', status: 'completed', args: { target: 'src' } });
    const saved = await sim.call('workflows/save', { workspace: ws, runId, name: 'audit-copy', meta: { description: 'copy' } });
    expect(saved).toMatchObject({ ok: true, name: 'audit-copy', scope: 'project', overwritten: false });
    expect(await sim.call('workflows/save', { workspace: ws, runId, name: 'audit-copy', meta: { description: 'copy' } })).toMatchObject({
      ok: false,
      reason: 'target_exists',
    });
    expect(await sim.call('workflows/forRun', { workspace: ws, runId })).toMatchObject({ entry: { name: 'audit' }, match: 'script' });
    // a second run, stopped
    const ack2 = await cmd(sessionId, 'startSavedWorkflow', { name: 'audit', args: { target: 'lib' } });
    const stopped = await cmd(sessionId, 'cancelBackgroundWork', { workId: ack2.result.runId });
    expect(stopped.status).toBe('accepted');
    const runs2 = await sim.call('v4/conversation/workflowRuns', { sessionId });
    expect(runs2.runs.find((r: any) => r.runId === ack2.result.runId)).toMatchObject({
      status: 'stopped',
      stopReason: 'user',
      resumable: true,
    });
    expect(await cmd(sessionId, 'cancelBackgroundWork', { workId: ack2.result.runId })).toMatchObject({
      status: 'failed',
      reasonCode: 'fault.command.backgroundWorkCancelRejected.not_running',
    });
    expect(await cmd(sessionId, 'resumeWorkflowRun', { workId: ack2.result.runId })).toMatchObject({ status: 'accepted' });
    expect(await cmd(sessionId, 'resumeWorkflowRun', { workId: ack2.result.runId })).toMatchObject({
      status: 'failed',
      reasonCode: 'fault.command.workflowRunResumeRejected.already_running',
    });
  });

  it('global scope, move to project, deleteSession', async () => {
    const globalDir = path.join(sim.home, '.zcode', 'workflows');
    fs.mkdirSync(globalDir, { recursive: true });
    fs.writeFileSync(path.join(globalDir, 'shared.js'), encodeWorkflow({ description: 'Shared' }, 'run()\n'));
    expect((await sim.call('workflows/list', { workspace: ws, scope: 'global' })).workflows.map((w: any) => w.name)).toEqual(['shared']);
    const moved = await sim.call('workflows/move', { workspace: ws, name: 'shared' });
    expect(moved).toMatchObject({ ok: true, to: path.join(ws.workspacePath, '.zcode', 'workflows', 'shared.js') });
    expect(await sim.call('workflows/move', { workspace: ws, name: 'shared' })).toMatchObject({ ok: false, reason: 'not_found' });
    const sessionId = await sim.openSession({ workspace: ws });
    expect(await cmd(sessionId, 'deleteSession', {})).toMatchObject({ status: 'accepted' });
    expect((await sim.call('session/list', { sessionIds: [sessionId] })).sessions).toEqual([]);
  });
});
