/**
 * The saved workflows' and runs' REST routes over the real backend link, with the simulator in
 * this process: every answer (and every refusal) comes from the simulator's own workflow
 * store, run engine and v4 command handlers. Refusals it cannot reach on its own come from its
 * fault flags (`--fail-command`, `--never-answer`), a child gone mid-request from a restart.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Limits } from '../../src/limits.js';
import { encodeWorkflow } from '../../src/simulator/workflows/store.js';
import { until } from '../helpers/until.js';
import { auth, buildSettingsApp, type SettingsApp, type SimBackend, startSimBackend } from './helpers.js';

type Scope = 'admin' | 'operate' | 'view';
type Params = Record<string, unknown>;
const START_REJECTED = 'fault.command.savedWorkflowStartRejected.';
const RESUME_REJECTED = 'fault.command.workflowRunResumeRejected.';

/** Runs finish in ~150 ms (`--turn-delay-scale` 0.05 of the simulator's ~3 s). */
const FAST = ['--turn-delay-scale', '0.05'];
/**
 * Runs take ~5 minutes and a legacy prompt's turn starts 10 minutes after its ACK (its -32010
 * lock held all along): a run still running, a session busy, for as long as a test needs.
 */
const SLOW = ['--turn-delay-scale', '100', '--turn-start-ms', '600000'];

describe('settings REST: saved workflows and runs (real link, simulator in-process)', () => {
  let dir: string;
  let workspace: string;
  let ws: { workspacePath: string; workspaceKey: string };
  const open: { backend: SimBackend; s: SettingsApp }[] = [];

  /** A hub app over its own simulator started with `simArgs`. */
  async function hub(simArgs: string[], limits?: Partial<Limits>) {
    const filePath = join(dir, `provider_config-${open.length}.json`);
    const backend = await startSimBackend({ dir, filePath, simArgs, ...(limits ? { limits } : {}) });
    const s = await buildSettingsApp({ filePath, workspace, backend });
    const h = {
      backend,
      s,
      inject: (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, scope: Scope = 'admin') =>
        s.app.inject({ method, url, headers: auth(scope), ...(payload ? { payload } : {}) }),
      get: (url: string) => h.inject('GET', url, undefined, 'view'),
      /** v4 command calls the routes made, in order. */
      commands: () => backend.calls.filter((c) => c.method === 'v4/command').map((c) => c.params as Params),
      /** Starts `name` on a new session: its session and run ids. */
      start: async (name = 'review', body: object = { args: { pr: 42 } }) => {
        const res = await h.inject('POST', `/api/settings/workflows/project/${name}/start`, body, 'operate');
        expect(res.statusCode, res.body).toBe(201);
        return res.json() as { sessionId: string; runId: string; toolCallId: string | null };
      },
      /** An active session of the workspace, opened directly on the link. */
      session: async () => {
        const created = (await backend.request('session/create', { workspace: ws })) as { session: { sessionId: string } };
        return created.session.sessionId;
      },
      /** Waits until the simulator reports the run in `status`. */
      runIs: (sessionId: string, runId: string, status: string) =>
        until(
          async () => ((await h.get(`/api/settings/workflow-runs/${sessionId}/${runId}`)).json().status === status ? true : undefined),
          `run ${status}`,
        ),
    };
    open.push({ backend, s });
    return h;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hub-wf-'));
    workspace = join(dir, 'project');
    ws = { workspacePath: workspace, workspaceKey: workspace };
    const project = join(workspace, '.zcode', 'workflows');
    const global = join(dir, '.zcode', 'workflows'); // the simulator's HOME is `dir`
    await mkdir(project, { recursive: true });
    await mkdir(global, { recursive: true });
    await writeFile(join(project, 'review.js'), encodeWorkflow({ description: 'd' }, 'run()'));
    await writeFile(
      join(project, 'audit.js'),
      encodeWorkflow({ description: 'Audit', args: { target: { type: 'string', required: true } } }, 'audit()'),
    );
    await writeFile(join(project, 'broken.js'), 'no header here');
    await writeFile(join(global, 'review.js'), encodeWorkflow({ description: 'global d' }, 'run()'));
    await writeFile(join(global, 'shared.js'), encodeWorkflow({ description: 'Shared' }, 'shared()'));
  });
  afterEach(async () => {
    for (const { backend, s } of open.splice(0)) {
      await s.app.close();
      await backend.close();
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('lists, gets, updates meta, deletes and moves through workflows/* with a WorkspaceRef', async () => {
    const h = await hub(FAST);
    const list = await h.get('/api/settings/workflows?scope=global');
    expect(list.statusCode).toBe(200);
    expect(h.backend.calls.at(-1)).toEqual({ method: 'workflows/list', params: { workspace: ws, scope: 'global' } });
    expect(list.json().workflows.map((w: { name: string }) => w.name)).toEqual(['review', 'shared']);
    const project = (await h.get('/api/settings/workflows')).json();
    expect(project.invalid).toEqual([expect.objectContaining({ path: join(workspace, '.zcode', 'workflows', 'broken.js') })]);
    expect((await h.get('/api/settings/workflows/project/review')).json()).toMatchObject({ ok: true, script: 'run()' });
    const missing = await h.get('/api/settings/workflows/project/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'HUB_ERR_NOT_FOUND', details: { reason: 'not_found' } } });
    expect(missing.json().error.message).toBe('Workflow "nope" could not be read: there is no workflow of that name in this scope.');
    const badName = await h.get('/api/settings/workflows/project/-x');
    expect(badName.statusCode).toBe(400);
    expect(badName.json().error).toMatchObject({ code: 'HUB_ERR_BAD_REQUEST', details: { reason: 'invalid_name' } });
    expect(badName.json().error.message).toMatch(/^Workflow "-x" could not be read: the agent does not accept that name/);
    const path = join(workspace, '.zcode', 'workflows', 'review.js');
    expect((await h.inject('PATCH', '/api/settings/workflows/project/review/meta', { meta: { description: 'new' } })).json()).toEqual({
      path,
    });
    expect((await h.get('/api/settings/workflows/project/review')).json().meta).toEqual({ description: 'new' });
    expect((await h.inject('PATCH', '/api/settings/workflows/project/review/meta', { meta: { description: '' } })).statusCode).toBe(400);
    expect(
      (await h.inject('PATCH', '/api/settings/workflows/project/review/meta', { meta: { description: 'x' } }, 'view')).statusCode,
    ).toBe(403);
    expect((await h.inject('DELETE', '/api/settings/workflows/project/review')).statusCode).toBe(204);
    expect((await h.get('/api/settings/workflows/project/review')).statusCode).toBe(404);
    // `shared` moves into the project once; a second move finds the project's copy in the way.
    await writeFile(join(dir, '.zcode', 'workflows', 'again.js'), encodeWorkflow({ description: 'again' }, 'x()'));
    await writeFile(join(workspace, '.zcode', 'workflows', 'again.js'), encodeWorkflow({ description: 'again' }, 'x()'));
    expect((await h.inject('POST', '/api/settings/workflows/global/shared/move', {})).statusCode).toBe(200);
    const move = await h.inject('POST', '/api/settings/workflows/global/again/move', {});
    expect(move.statusCode).toBe(409);
    expect(move.json()).toMatchObject({ error: { details: { reason: 'target_exists' } } });
    expect(move.json().error.message).toBe(
      'Workflow "again" could not be copied into the project: a workflow of that name is already there and is never overwritten.',
    );
    expect((await h.get('/api/settings/workflows?workspace=relative/path')).statusCode).toBe(400);
  });

  it('start on a new session: session/create with the workflow runtime, then startSavedWorkflow; returns session and run ids', async () => {
    const h = await hub(FAST);
    const res = await h.inject('POST', '/api/settings/workflows/project/review/start', { args: { pr: 42 } }, 'operate');
    expect(res.statusCode).toBe(201);
    const started = res.json();
    expect(started).toEqual({
      sessionId: expect.any(String),
      runId: expect.any(String),
      toolCallId: expect.stringMatching(/^launch-/),
      created: true,
    });
    expect(h.backend.calls[0]).toMatchObject({ method: 'session/create', params: { dynamicWorkflowEnabled: true } });
    expect(h.backend.calls[1]).toMatchObject({
      method: 'v4/command',
      params: {
        sessionId: started.sessionId,
        type: 'startSavedWorkflow',
        payload: { name: 'review', scope: 'project', args: { pr: 42 } },
        clientId: 'zcode-hub',
      },
    });
    // The run is the simulator's: its journal names it with the args it was given.
    const journal = await h.get('/api/settings/workflows/runs?name=review');
    expect(journal.statusCode, journal.body).toBe(200);
    expect(journal.json().runs).toEqual([
      expect.objectContaining({ runId: started.runId, args: { pr: 42 }, parentSessionId: started.sessionId }),
    ]);
    expect((await h.inject('POST', '/api/settings/workflows/project/review/start', {}, 'view')).statusCode).toBe(403);
  });

  it('start on a cold existing session: resumes and retries once with the same commandId', async () => {
    const h = await hub(FAST);
    const { sessionId } = await h.start();
    await h.backend.request('session/close', { sessionId });
    h.backend.calls.length = 0;
    const res = await h.inject('POST', '/api/settings/workflows/global/review/start', { sessionId }, 'operate');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ sessionId, runId: expect.any(String), toolCallId: expect.stringMatching(/^launch-/), created: false });
    expect(h.backend.calls.map((c) => c.method)).toEqual(['v4/command', 'session/resume', 'v4/command']);
    const [first, retry] = h.commands();
    expect(first?.commandId).toBe(retry?.commandId);
  });

  it('start refusals map to 400 / 404 / 409 / 422 / 502 with the ZCode reason', async () => {
    const h = await hub(SLOW, undefined);
    const faults = await hub(['--fail-command', `startSavedWorkflow=${START_REJECTED}start_failed`]);
    const sessionId = await h.session();
    const busy = await h.session();
    await h.backend.request('session/send', { sessionId: busy, content: 'hello' });
    const cases: [name: string, reason: string, status: number, diagnostics: string, on?: string][] = [
      ['-x', 'invalid_name', 400, 'Invalid workflow name: -x'],
      ['audit', 'invalid_args', 400, 'Missing required args: target'],
      ['nope', 'not_found', 404, 'Saved workflow not found: nope'],
      ['review', 'session_busy', 409, 'A prompt is already running', busy],
      ['broken', 'compile_failed', 422, 'missing /* @zcode-workflow header'],
    ];
    for (const [name, reason, status, diagnostics, on] of cases) {
      const res = await h.inject('POST', `/api/settings/workflows/project/${name}/start`, { sessionId: on ?? sessionId }, 'operate');
      expect(res.statusCode, reason).toBe(status);
      expect(res.json().error.details).toMatchObject({ reason, reasonCode: `${START_REJECTED}${reason}` });
      expect(res.json().error.message).toContain(diagnostics);
    }
    const failed = await faults.inject(
      'POST',
      '/api/settings/workflows/project/review/start',
      { sessionId: await faults.session() },
      'operate',
    );
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.details).toMatchObject({ reason: 'start_failed', reasonCode: `${START_REJECTED}start_failed` });
    expect(failed.json().error.message).toContain(`Simulated refusal (--fail-command): ${START_REJECTED}start_failed`);

    // The child restarted while the start waited for its answer: 503, the request failed `gone`.
    const unanswered = await hub(['--never-answer', 'v4/command']);
    const pending = unanswered.inject('POST', '/api/settings/workflows/project/review/start', { sessionId }, 'operate');
    await until(() => (unanswered.commands().length === 1 ? true : undefined), 'the start sent');
    await unanswered.backend.restart();
    const gone = await pending;
    expect(gone.statusCode).toBe(503);
    expect(gone.json().error.details).toMatchObject({ reason: 'gone' });
    // No answer within the forward timeout: 504.
    const silent = await hub(['--never-answer', 'v4/command'], { forwardRequestTimeoutMs: 200 });
    const timedOut = await silent.inject('POST', '/api/settings/workflows/project/review/start', { sessionId }, 'operate');
    expect(timedOut.statusCode).toBe(504);
    expect(timedOut.json().error.details).toMatchObject({ reason: 'timeout' });
  });

  it('resume refusals: not_found 404, not_resumable / superseded / already_running 409, compile_failed 422', async () => {
    const fast = await hub(FAST);
    const done = await fast.start();
    await fast.runIs(done.sessionId, done.runId, 'completed');
    const slow = await hub(SLOW);
    const running = await slow.start();
    const faults = await hub([
      '--fail-command',
      `resumeWorkflowRun=${RESUME_REJECTED}superseded`,
      '--fail-command',
      `resumeWorkflowRun=${RESUME_REJECTED}compile_failed`,
    ]);
    const faultSession = await faults.session();
    const resume = (h: typeof fast, sessionId: string, runId: string, body: object = {}) =>
      h.inject('POST', `/api/settings/workflow-runs/${sessionId}/${runId}/resume`, body, 'operate');
    for (const [h, sessionId, runId, reason, status] of [
      [fast, done.sessionId, 'wfrun_nope', 'not_found', 404],
      [fast, done.sessionId, done.runId, 'not_resumable', 409],
      [faults, faultSession, 'run-1', 'superseded', 409],
      [slow, running.sessionId, running.runId, 'already_running', 409],
      [faults, faultSession, 'run-1', 'compile_failed', 422],
    ] as const) {
      const res = await resume(h, sessionId, runId);
      expect(res.statusCode, reason).toBe(status);
      expect(res.json().error.details, reason).toMatchObject({ reason, reasonCode: `${RESUME_REJECTED}${reason}` });
    }
    // A stopped run resumes.
    expect(
      (await slow.inject('POST', `/api/settings/workflow-runs/${running.sessionId}/${running.runId}/stop`, undefined, 'operate'))
        .statusCode,
    ).toBe(200);
    expect((await resume(slow, running.sessionId, running.runId, { name: 'review' })).json()).toEqual({
      sessionId: running.sessionId,
      runId: running.runId,
      status: 'accepted',
    });
    expect(slow.backend.calls.at(-1)).toMatchObject({
      params: { type: 'resumeWorkflowRun', payload: { workId: running.runId, name: 'review' } },
    });
    await slow.runIs(running.sessionId, running.runId, 'running');
  });

  it('stop: cancelBackgroundWork on the run; falls back to v4 stop when the runtime cannot cancel; not_running 409', async () => {
    const slow = await hub(SLOW);
    const { sessionId, runId } = await slow.start();
    const stop = (h: typeof slow, s: string, r: string) =>
      h.inject('POST', `/api/settings/workflow-runs/${s}/${r}/stop`, undefined, 'operate');
    expect((await stop(slow, sessionId, runId)).json()).toEqual({ sessionId, runId, via: 'cancelBackgroundWork', status: 'accepted' });
    expect(slow.backend.calls.at(-1)).toMatchObject({ params: { type: 'cancelBackgroundWork', payload: { workId: runId } } });
    expect((await slow.get(`/api/settings/workflow-runs/${sessionId}/${runId}`)).json()).toMatchObject({
      status: 'stopped',
      stopReason: 'user',
    });
    const again = await stop(slow, sessionId, runId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.details).toMatchObject({ reason: 'not_running' });

    const faults = await hub(['--fail-command', 'cancelBackgroundWork=fault.command.capabilityUnsupported']);
    const other = await faults.session();
    expect((await stop(faults, other, 'run-1')).json()).toMatchObject({ via: 'stop', status: 'accepted' });
    expect(faults.commands().map((c) => c.type)).toEqual(['cancelBackgroundWork', 'stop']);
  });

  it('run queries pass strict params through: detail, events with afterSequence, artifacts, data, read, workspace, node result', async () => {
    const h = await hub(FAST);
    const { sessionId, runId } = await h.start();
    await h.runIs(sessionId, runId, 'completed');
    const run = `/api/settings/workflow-runs/${sessionId}/${runId}`;
    expect((await h.get(run)).json()).toMatchObject({ runId, status: 'completed' });
    expect((await h.get(`/api/settings/workflow-runs/${sessionId}/wfrun_nope`)).statusCode).toBe(404);
    const page = (await h.get(`${run}/events?afterSequence=1&limit=2`)).json();
    expect(page.events.map((e: { sequence: number }) => e.sequence)).toEqual([2, 3]);
    expect(page.hasMore).toBe(true);
    expect(h.backend.calls.at(-1)).toEqual({
      method: 'v4/conversation/workflowRunEvents',
      params: { sessionId, runId, afterSequence: 1, limit: 2 },
    });
    expect((await h.get(`${run}/events?limit=501`)).statusCode).toBe(400);
    const artifacts = await h.get(`${run}/artifacts`);
    expect(artifacts.statusCode).toBe(200);
    expect(artifacts.json().artifacts).toEqual([expect.objectContaining({ id: 'report', kind: 'markdown', version: 1 })]);
    const data = await h.get(`${run}/artifacts/report/data?fields=file,lines`);
    expect(data.statusCode).toBe(200);
    expect(data.json().items[0]).toMatchObject({ fields: { file: 'a.ts', lines: 120 } });
    expect(h.backend.calls.at(-1)!.params).toEqual({ sessionId, runId, artifactId: 'report', fields: ['file', 'lines'] });
    const read = (await h.get(`${run}/artifacts/report/read?version=1`)).json();
    expect(Buffer.from(read.dataBase64, 'base64').toString()).toContain('# review report');
    expect(read).toMatchObject({ mediaType: 'text/markdown', nextOffset: null });
    const nodes = await h.get(`${run}/workspace`);
    expect(nodes.statusCode).toBe(200);
    expect(nodes.json().nodes).toHaveLength(3);
    expect((await h.get(`${run}/nodes/site-a/0`)).statusCode).toBe(404);
    expect(h.backend.calls.at(-1)!.params).toEqual({ sessionId, runId, siteId: 'site-a', ordinal: 0 });
    expect((await h.get(`${run}/nodes/report/2`)).json()).toMatchObject({ result: 'Result of Write report' });
  });
});
