import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackendFailure, BackendRpcError } from '../../src/ports/backend-port.js';
import { auth, buildSettingsApp, FakeBackend, type SettingsApp } from './helpers.js';

type Params = Record<string, unknown>;
const ack = (commandId: unknown, status: string, extra: Params = {}) => ({ commandId, status, revisionAtDecision: 1, ...extra });

describe('settings REST: saved workflows and runs (fake backend)', () => {
  let dir: string;
  let backend: FakeBackend;
  let s: SettingsApp;

  const inject = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    scope: 'admin' | 'operate' | 'view' = 'admin',
  ) => s.app.inject({ method, url, headers: auth(scope), ...(payload ? { payload } : {}) });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hub-wf-'));
    backend = new FakeBackend();
    s = await buildSettingsApp({ filePath: join(dir, 'provider_config.json'), workspace: dir, backend });
  });
  afterEach(async () => {
    await s.app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists, gets, updates meta, deletes and moves through workflows/* with a WorkspaceRef', async () => {
    const ws = { workspacePath: dir, workspaceKey: dir };
    backend.handler = (method, params) => {
      const p = params as Params;
      switch (method) {
        case 'workflows/list':
          return {
            workflows: [{ name: 'review', description: 'd', scope: p.scope ?? 'project', path: '/x/review.js' }],
            invalid: [],
            dir: '/x',
          };
        case 'workflows/get':
          return p.name === 'review'
            ? { ok: true, name: 'review', path: '/x/review.js', scope: 'project', meta: { description: 'd' }, script: 'run()' }
            : { ok: false, reason: 'not_found' };
        case 'workflows/updateMeta':
        case 'workflows/delete':
          return { ok: true, path: '/x/review.js' };
        case 'workflows/move':
          return { ok: false, reason: 'target_exists', path: '/x/review.js' };
        default:
          throw new BackendRpcError(method, -32601, 'no');
      }
    };
    const list = await inject('GET', '/api/settings/workflows?scope=global', undefined, 'view');
    expect(list.statusCode).toBe(200);
    expect(backend.calls.at(-1)).toEqual({ method: 'workflows/list', params: { workspace: ws, scope: 'global' } });
    expect((await inject('GET', '/api/settings/workflows/project/review', undefined, 'view')).json()).toMatchObject({
      ok: true,
      script: 'run()',
    });
    const missing = await inject('GET', '/api/settings/workflows/project/nope', undefined, 'view');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'HUB_ERR_NOT_FOUND', details: { reason: 'not_found' } } });
    expect((await inject('PATCH', '/api/settings/workflows/project/review/meta', { meta: { description: 'new' } })).json()).toEqual({
      path: '/x/review.js',
    });
    expect((await inject('PATCH', '/api/settings/workflows/project/review/meta', { meta: { description: '' } })).statusCode).toBe(400);
    expect((await inject('PATCH', '/api/settings/workflows/project/review/meta', { meta: { description: 'x' } }, 'view')).statusCode).toBe(
      403,
    );
    expect((await inject('DELETE', '/api/settings/workflows/project/review')).statusCode).toBe(204);
    const move = await inject('POST', '/api/settings/workflows/global/review/move', {});
    expect(move.statusCode).toBe(409);
    expect(move.json()).toMatchObject({ error: { details: { reason: 'target_exists' } } });
    expect((await inject('GET', '/api/settings/workflows?workspace=relative/path', undefined, 'view')).statusCode).toBe(400);
  });

  it('start on a new session: session/create with the workflow runtime, then startSavedWorkflow; returns session and run ids', async () => {
    backend.handler = (method, params) => {
      const p = params as Params;
      if (method === 'session/create') return { session: { sessionId: 'sess-new' } };
      if (method === 'v4/command')
        return ack(p.commandId, 'accepted', { result: { type: 'startSavedWorkflow', runId: 'run-1', toolCallId: 'launch-1' } });
      throw new BackendRpcError(method, -32601, 'no');
    };
    const res = await inject('POST', '/api/settings/workflows/project/review/start', { args: { pr: 42 } }, 'operate');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ sessionId: 'sess-new', runId: 'run-1', toolCallId: 'launch-1', created: true });
    expect(backend.calls[0]).toMatchObject({ method: 'session/create', params: { dynamicWorkflowEnabled: true } });
    expect(backend.calls[1]).toMatchObject({
      method: 'v4/command',
      params: {
        sessionId: 'sess-new',
        type: 'startSavedWorkflow',
        payload: { name: 'review', scope: 'project', args: { pr: 42 } },
        clientId: 'zcode-hub',
      },
    });
    expect((await inject('POST', '/api/settings/workflows/project/review/start', {}, 'view')).statusCode).toBe(403);
  });

  it('start on a cold existing session: resumes and retries once with the same commandId', async () => {
    const commandIds: unknown[] = [];
    backend.handler = (method, params) => {
      const p = params as Params;
      if (method === 'session/resume') return { session: { sessionId: 'sess-old' } };
      if (method === 'v4/command') {
        commandIds.push(p.commandId);
        return commandIds.length === 1
          ? ack(p.commandId, 'rejected', { reasonCode: 'proto.sessionNotFound' })
          : ack(p.commandId, 'accepted', { result: { type: 'startSavedWorkflow', runId: 'run-2' } });
      }
      throw new BackendRpcError(method, -32601, 'no');
    };
    const res = await inject('POST', '/api/settings/workflows/global/review/start', { sessionId: 'sess-old' }, 'operate');
    expect(res.json()).toEqual({ sessionId: 'sess-old', runId: 'run-2', toolCallId: null, created: false });
    expect(commandIds).toHaveLength(2);
    expect(commandIds[0]).toBe(commandIds[1]);
  });

  it('start refusals map to 400 / 404 / 409 / 422 / 502 with the ZCode reason', async () => {
    const cases: [string, number][] = [
      ['invalid_name', 400],
      ['invalid_args', 400],
      ['not_found', 404],
      ['session_busy', 409],
      ['compile_failed', 422],
      ['start_failed', 502],
    ];
    for (const [reason, status] of cases) {
      backend.handler = (_m, params) =>
        ack((params as Params).commandId, 'failed', {
          reasonCode: `fault.command.savedWorkflowStartRejected.${reason}`,
          message: `diagnostics for ${reason}`,
        });
      const res = await inject('POST', '/api/settings/workflows/project/review/start', { sessionId: 's1' }, 'operate');
      expect(res.statusCode, reason).toBe(status);
      expect(res.json().error.details).toMatchObject({ reason, reasonCode: `fault.command.savedWorkflowStartRejected.${reason}` });
      expect(res.json().error.message).toContain(`diagnostics for ${reason}`);
    }
    backend.handler = (method) => {
      throw new BackendFailure('gone', method, 'child exited');
    };
    expect((await inject('POST', '/api/settings/workflows/project/review/start', { sessionId: 's1' }, 'operate')).statusCode).toBe(503);
    backend.handler = (method) => {
      throw new BackendFailure('timeout', method, 'slow');
    };
    expect((await inject('POST', '/api/settings/workflows/project/review/start', { sessionId: 's1' }, 'operate')).statusCode).toBe(504);
  });

  it('resume refusals: not_found 404, not_resumable / superseded / already_running 409, compile_failed 422', async () => {
    for (const [reason, status] of [
      ['not_found', 404],
      ['not_resumable', 409],
      ['superseded', 409],
      ['already_running', 409],
      ['compile_failed', 422],
    ] as const) {
      backend.handler = (_m, params) =>
        ack((params as Params).commandId, 'failed', { reasonCode: `fault.command.workflowRunResumeRejected.${reason}` });
      expect((await inject('POST', '/api/settings/workflow-runs/s1/run-1/resume', {}, 'operate')).statusCode, reason).toBe(status);
    }
    backend.handler = (_m, params) => ack((params as Params).commandId, 'accepted');
    expect((await inject('POST', '/api/settings/workflow-runs/s1/run-1/resume', { name: 'review' }, 'operate')).json()).toEqual({
      sessionId: 's1',
      runId: 'run-1',
      status: 'accepted',
    });
    expect(backend.calls.at(-1)).toMatchObject({ params: { type: 'resumeWorkflowRun', payload: { workId: 'run-1', name: 'review' } } });
  });

  it('stop: cancelBackgroundWork on the run; falls back to v4 stop when the runtime cannot cancel; not_running 409', async () => {
    backend.handler = (_m, params) => ack((params as Params).commandId, 'accepted');
    expect((await inject('POST', '/api/settings/workflow-runs/s1/run-1/stop', undefined, 'operate')).json()).toEqual({
      sessionId: 's1',
      runId: 'run-1',
      via: 'cancelBackgroundWork',
      status: 'accepted',
    });
    expect(backend.calls.at(-1)).toMatchObject({ params: { type: 'cancelBackgroundWork', payload: { workId: 'run-1' } } });
    backend.handler = (_m, params) => {
      const p = params as Params;
      return p.type === 'stop'
        ? ack(p.commandId, 'accepted')
        : ack(p.commandId, 'failed', { reasonCode: 'fault.command.capabilityUnsupported' });
    };
    expect((await inject('POST', '/api/settings/workflow-runs/s1/run-1/stop', undefined, 'operate')).json()).toMatchObject({ via: 'stop' });
    backend.handler = (_m, params) =>
      ack((params as Params).commandId, 'failed', { reasonCode: 'fault.command.backgroundWorkCancelRejected.not_running' });
    expect((await inject('POST', '/api/settings/workflow-runs/s1/run-1/stop', undefined, 'operate')).statusCode).toBe(409);
  });

  it('run queries pass strict params through: detail, events with afterSequence, artifacts, data, read, workspace, node result', async () => {
    backend.handler = (method, params) => {
      const p = params as Params;
      switch (method) {
        case 'v4/conversation/workflowRuns':
          return { runs: [{ runId: 'run-1', status: 'running', resumable: false }] };
        case 'v4/conversation/workflowRunEvents':
          return { events: [{ sequence: Number(p.afterSequence ?? 0) + 1, type: 'node.started', payload: {} }], hasMore: false };
        case 'v4/conversation/workflowRunArtifacts':
          return { artifacts: [{ id: 'a1', kind: 'table', version: 1, versions: [], itemCount: 0 }] };
        case 'v4/conversation/workflowRunArtifactData':
          return { items: [], hasMore: false };
        case 'v4/conversation/workflowRunArtifactRead':
          return { dataBase64: 'aGk=', mediaType: 'text/plain', totalBytes: 2, nextOffset: null };
        case 'v4/conversation/workflowRunWorkspace':
          return { nodes: [] };
        case 'v4/conversation/workflowRunNodeResult':
          throw new BackendRpcError(method, -32603, 'fault.workflowRunNodeResult.notFound: no node');
        default:
          throw new BackendRpcError(method, -32601, 'no');
      }
    };
    const get = (url: string) => inject('GET', url, undefined, 'view');
    expect((await get('/api/settings/workflow-runs/s1/run-1')).json()).toMatchObject({ runId: 'run-1', status: 'running' });
    expect((await get('/api/settings/workflow-runs/s1/run-9')).statusCode).toBe(404);
    expect((await get('/api/settings/workflow-runs/s1/run-1/events?afterSequence=41&limit=10')).json().events[0].sequence).toBe(42);
    expect(backend.calls.at(-1)).toEqual({
      method: 'v4/conversation/workflowRunEvents',
      params: { sessionId: 's1', runId: 'run-1', afterSequence: 41, limit: 10 },
    });
    expect((await get('/api/settings/workflow-runs/s1/run-1/events?limit=501')).statusCode).toBe(400);
    expect((await get('/api/settings/workflow-runs/s1/run-1/artifacts')).statusCode).toBe(200);
    expect((await get('/api/settings/workflow-runs/s1/run-1/artifacts/a1/data?fields=a,b')).statusCode).toBe(200);
    expect(backend.calls.at(-1)!.params).toEqual({ sessionId: 's1', runId: 'run-1', artifactId: 'a1', fields: ['a', 'b'] });
    expect((await get('/api/settings/workflow-runs/s1/run-1/artifacts/a1/read?version=1')).json()).toMatchObject({ dataBase64: 'aGk=' });
    expect((await get('/api/settings/workflow-runs/s1/run-1/workspace')).statusCode).toBe(200);
    expect((await get('/api/settings/workflow-runs/s1/run-1/nodes/site-a/0')).statusCode).toBe(404);
    expect(backend.calls.at(-1)!.params).toEqual({ sessionId: 's1', runId: 'run-1', siteId: 'site-a', ordinal: 0 });
  });
});
