/**
 * The simulator's saved workflows and workflow runs speak the contract (§8): every answer of
 * the real child (over stdio) to `workflows/*`, `startSavedWorkflow` and the
 * `v4/conversation/workflowRun*` queries — successes and each failure it can give — parses with
 * the strict readings of src/wire/workflows.ts and src/wire/workflow-runs.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { encodeWorkflow } from '../../src/simulator/workflows/store.js';
import * as runs from '../../src/wire/workflow-runs.js';
import * as saved from '../../src/wire/workflows.js';
import { SimClient } from '../simulator/sim-client.js';

let sim: SimClient;
let ws: { workspacePath: string; workspaceKey: string };
beforeAll(async () => {
  sim = await SimClient.start({ args: ['--turn-delay-scale', '0.05'] });
  const dir = path.join(sim.home, 'ws');
  ws = { workspacePath: dir, workspaceKey: dir };
  const project = path.join(dir, '.zcode', 'workflows');
  const global = path.join(sim.home, '.zcode', 'workflows');
  fs.mkdirSync(project, { recursive: true });
  fs.mkdirSync(global, { recursive: true });
  const meta = {
    description: 'Audit the code',
    whenToUse: 'Before a release',
    args: { target: { type: 'string', required: true } },
  } as const;
  fs.writeFileSync(path.join(project, 'audit.js'), encodeWorkflow(meta, 'export default async function run() {}\n'));
  fs.writeFileSync(path.join(project, 'broken.js'), 'no header here');
  fs.writeFileSync(path.join(global, 'shared.js'), encodeWorkflow({ description: 'Shared' }, 'run()\n'));
  fs.writeFileSync(path.join(global, 'twice.js'), encodeWorkflow({ description: 'In both' }, 'run()\n'));
  fs.writeFileSync(path.join(project, 'twice.js'), encodeWorkflow({ description: 'In both' }, 'run()\n'));
});
afterAll(async () => sim.close());

const cmd = (sessionId: string, type: string, payload: object): Promise<any> =>
  sim.call('v4/command', { commandId: `c-${Math.random()}`, clientId: 'test', sessionId, type, payload, issuedAt: Date.now() });

/** Each answer with the strict reading it must pass, and what it was. */
const answers: { what: string; value: unknown; schema: z.ZodType }[] = [];
async function answer(what: string, schema: z.ZodType, method: string, params: object): Promise<any> {
  const value = await sim.call(method, params);
  answers.push({ what, value, schema });
  return value;
}
const refused = () =>
  answers.flatMap(({ what, value, schema }) =>
    (schema.safeParse(value).error?.issues ?? []).map((i) => `${what}: ${i.message} at ${i.path.map(String).join('.')}`),
  );

describe('the simulator’s workflow answers pass the strict readings', () => {
  it('workflows/*: list, get, updateMeta, delete, move, save, forRun, runs — successes and failures', async () => {
    const list = await answer('list', saved.workflowsListResult.strict, 'workflows/list', { workspace: ws });
    expect(list.invalid).toHaveLength(1);
    await answer('list global', saved.workflowsListResult.strict, 'workflows/list', { workspace: ws, scope: 'global' });
    const get = saved.workflowGetResult.strict;
    expect(await answer('get', get, 'workflows/get', { workspace: ws, name: 'audit' })).toMatchObject({ ok: true });
    expect(await answer('get missing', get, 'workflows/get', { workspace: ws, name: 'nope' })).toMatchObject({ reason: 'not_found' });
    expect(await answer('get bad name', get, 'workflows/get', { workspace: ws, name: '../x' })).toMatchObject({ reason: 'invalid_name' });
    expect(await answer('get broken', get, 'workflows/get', { workspace: ws, name: 'broken' })).toMatchObject({ reason: 'parse_error' });
    const update = saved.workflowUpdateMetaResult.strict;
    const meta = { description: 'Audit everything', args: { target: { type: 'string', required: true } } };
    expect(await answer('updateMeta', update, 'workflows/updateMeta', { workspace: ws, name: 'audit', meta })).toMatchObject({ ok: true });
    expect(await answer('updateMeta missing', update, 'workflows/updateMeta', { workspace: ws, name: 'nope', meta })).toMatchObject({
      ok: false,
    });
    const del = saved.workflowDeleteResult.strict;
    expect(await answer('delete broken', del, 'workflows/delete', { workspace: ws, name: 'broken' })).toMatchObject({ ok: true });
    expect(await answer('delete missing', del, 'workflows/delete', { workspace: ws, name: 'broken' })).toMatchObject({ ok: false });
    const move = saved.workflowMoveResult.strict;
    expect(await answer('move', move, 'workflows/move', { workspace: ws, name: 'shared' })).toMatchObject({ ok: true });
    expect(await answer('move again', move, 'workflows/move', { workspace: ws, name: 'shared' })).toMatchObject({ reason: 'not_found' });
    expect(await answer('move over', move, 'workflows/move', { workspace: ws, name: 'twice' })).toMatchObject({ reason: 'target_exists' });

    // A run to save and look up, and one stopped by the user (a Run with a stopReason).
    const sessionId = await sim.openSession({ workspace: ws });
    const ack = await cmd(sessionId, 'startSavedWorkflow', { name: 'audit', args: { target: 'src' } });
    answers.push({ what: 'startSavedWorkflow', value: ack.result, schema: runs.startSavedWorkflowResult.strict });
    const { runId } = ack.result;
    await sim.waitFor((m) => m.params?.payload?.taskId === runId && m.params.payload.status === 'completed', 20_000, 'run completed');
    const second = await cmd(sessionId, 'startSavedWorkflow', { name: 'audit', args: { target: 'lib' } });
    expect(await cmd(sessionId, 'cancelBackgroundWork', { workId: second.result.runId })).toMatchObject({ status: 'accepted' });

    const save = saved.workflowSaveResult.strict;
    const copy = { workspace: ws, runId, name: 'audit-copy', meta: { description: 'copy' } };
    expect(await answer('save', save, 'workflows/save', copy)).toMatchObject({ ok: true, overwritten: false });
    expect(await answer('save over', save, 'workflows/save', copy)).toMatchObject({ reason: 'target_exists' });
    expect(await answer('save overwrite', save, 'workflows/save', { ...copy, overwrite: true })).toMatchObject({ overwritten: true });
    expect(
      await answer('save shadowing', save, 'workflows/save', { ...copy, name: 'shared', overwrite: true, scope: 'global' }),
    ).toMatchObject({
      shadowing: 'hidden_by_project',
    });
    expect(await answer('save no run', save, 'workflows/save', { ...copy, runId: 'wfrun_nope' })).toMatchObject({
      reason: 'run_not_found',
    });
    expect(await answer('save bad name', save, 'workflows/save', { ...copy, name: '-x' })).toMatchObject({ reason: 'invalid_name' });
    const forRun = saved.workflowForRunResult.strict;
    expect(await answer('forRun', forRun, 'workflows/forRun', { workspace: ws, runId })).toMatchObject({ match: 'script' });
    expect(
      await answer('forRun candidate', forRun, 'workflows/forRun', { workspace: ws, runId, candidates: [{ name: 'audit-copy' }] }),
    ).toMatchObject({
      match: 'candidate',
    });
    expect(await answer('forRun none', forRun, 'workflows/forRun', { workspace: ws, runId: 'wfrun_nope' })).toEqual({});
    const journal = await answer('runs', runs.workflowRunsResult.strict, 'workflows/runs', { workspace: ws, limit: 1 });
    expect(journal).toMatchObject({ truncated: true });
    const all = await answer('runs all', runs.workflowRunsResult.strict, 'workflows/runs', { workspace: ws, limit: 50, scope: 'global' });
    expect(all.runs.map((r: { status: string }) => r.status).sort()).toEqual(['completed', 'stopped']);

    // The v4 run queries of the completed run, and the session's run list with the stopped one.
    const q = { sessionId, runId };
    await answer('workflowRuns', runs.sessionRunsResult.strict, 'v4/conversation/workflowRuns', { sessionId });
    const events = await answer('events', runs.runEventsResult.strict, 'v4/conversation/workflowRunEvents', { ...q, limit: 2 });
    expect(events.hasMore).toBe(true);
    const arts = await answer('artifacts', runs.runArtifactsResult.strict, 'v4/conversation/workflowRunArtifacts', q);
    expect(arts.artifacts).toHaveLength(1);
    const data = runs.runArtifactDataResult.strict;
    await answer('data', data, 'v4/conversation/workflowRunArtifactData', { ...q, artifactId: 'report' });
    await answer('data fields', data, 'v4/conversation/workflowRunArtifactData', {
      ...q,
      artifactId: 'report',
      fields: ['file'],
      limit: 1,
    });
    const read = runs.runArtifactReadResult.strict;
    const window = { ...q, artifactId: 'report', version: 1, offset: 0 };
    expect(await answer('read part', read, 'v4/conversation/workflowRunArtifactRead', { ...window, limit: 10 })).toMatchObject({
      nextOffset: 10,
    });
    expect(await answer('read all', read, 'v4/conversation/workflowRunArtifactRead', { ...window, limit: 4096 })).toMatchObject({
      nextOffset: null,
    });
    await answer('workspace', runs.runWorkspaceResult.strict, 'v4/conversation/workflowRunWorkspace', q);
    const node = runs.runNodeResult.strict;
    await answer('node result', node, 'v4/conversation/workflowRunNodeResult', { ...q, siteId: 'report', ordinal: 2 });
    expect(
      await answer('node result cut', node, 'v4/conversation/workflowRunNodeResult', { ...q, siteId: 'report', ordinal: 2, maxBytes: 3 }),
    ).toMatchObject({
      truncated: true,
    });

    expect(answers.length).toBeGreaterThan(30);
    expect(refused()).toEqual([]);
  });
});
