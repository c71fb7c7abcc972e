/**
 * The settings API against the real simulator child (the same spawn path as production):
 * a provider lifecycle whose models become selectable in a session, and a saved workflow
 * start → run events → stop. No key ever appears in a response or a log line.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackend } from '../../src/backend/index.js';
import { buildConfig } from '../../src/config/load.js';
import type { BackendPort } from '../../src/ports/backend-port.js';
import { createLogger } from '../../src/logger.js';
import { auth, buildSettingsApp, type SettingsApp } from './helpers.js';
import { until } from '../helpers/until.js';

const KEY = 'sk-sim-7d1c0a55e2f94b3e-LMNO';
const NEW_KEY = 'sk-sim-99ab00cd11ef22aa-PQRS';

describe('settings API against the simulator child', () => {
  let root: string;
  let workspace: string;
  let providerFile: string;
  let backend: BackendPort;
  let s: SettingsApp;
  const backendLog: string[] = [];
  const bodies: string[] = [];

  let base: string;

  /**
   * One request over a real socket (fetch keeps it alive): an injected request is a connection
   * that never closes, so polling with inject crosses limits.authConnectionsPerToken.
   */
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    scope: 'admin' | 'operate' | 'view' = 'admin',
  ) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...auth(scope), ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
    const body = await res.text();
    const headers = Object.fromEntries(res.headers);
    bodies.push(`${JSON.stringify(headers)} ${body}`);
    return { statusCode: res.status, headers, body, json: () => JSON.parse(body) as any };
  };

  beforeAll(async () => {
    process.umask(0o022);
    root = await mkdtemp(join(tmpdir(), 'hub-sim-settings-'));
    workspace = join(root, 'ws');
    providerFile = join(root, 'home', '.zcode', 'v2', 'provider_config.json');
    await mkdir(workspace, { recursive: true });
    const config = buildConfig({ backend: 'sim', stateDir: join(root, 'state'), workspace, providerFile });
    const destination = new Writable({
      write(chunk: Buffer, _e, done) {
        backendLog.push(chunk.toString());
        done();
      },
    });
    backend = createBackend(config, createLogger({ level: 'debug', destination }), { env: { ...process.env, HOME: join(root, 'home') } });
    await backend.start();
    s = await buildSettingsApp({ filePath: providerFile, workspace, backend });
    base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  }, 30_000);

  afterAll(async () => {
    await s?.app.close();
    await backend?.close();
    for (const text of [...bodies, ...backendLog, ...(s?.logLines ?? [])]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(NEW_KEY);
    }
    await rm(root, { recursive: true, force: true });
  });

  it('provider lifecycle: create with key → models selectable in a session → update key → delete; the key never leaves the file', async () => {
    const created = await call('POST', '/api/settings/providers', {
      providerId: 'acme',
      apiType: 'anthropic-messages',
      baseUrl: 'https://api.acme.example/anthropic',
      models: ['GLM-5.3', 'acme-small'],
      apiKey: KEY,
    });
    expect(created.statusCode).toBe(201);

    // The app-server picks the file up by polling (§9.3): the catalog shows the models.
    const models = await until(
      async () => {
        const list = (await call('GET', '/api/settings/models', undefined, 'view')).json() as {
          models: { ref: { providerId: string; modelId: string } }[];
        };
        const ours = list.models.filter((m) => m.ref.providerId === 'acme');
        return ours.length === 2 ? ours : undefined;
      },
      'the provider models in the catalog',
      10_000,
    );
    expect(models.map((m) => m.ref.modelId).sort()).toEqual(['GLM-5.3', 'acme-small']);

    // Selectable in a session.
    const snapshot = (await backend.request('session/create', {
      workspace: { workspacePath: workspace, workspaceKey: workspace },
      model: { providerId: 'acme', modelId: 'acme-small' },
    })) as { session: { sessionId: string } };
    await backend.request('session/setModel', {
      sessionId: snapshot.session.sessionId,
      model: { providerId: 'acme', modelId: 'GLM-5.3', options: { reasoningLevel: 'high' } },
    });

    const patched = await call('PATCH', '/api/settings/providers/acme', { apiKey: NEW_KEY });
    expect(patched.json()).toMatchObject({ hasKey: true, keyHint: 'PQRS' });
    expect(await readFile(providerFile, 'utf8')).toContain(NEW_KEY);
    expect((await call('POST', '/api/settings/providers/acme/test', { modelId: 'acme-small' })).statusCode).toBe(200);

    expect((await call('DELETE', '/api/settings/providers/acme')).statusCode).toBe(204);
    await until(
      async () => {
        const list = (await call('GET', '/api/settings/models', undefined, 'view')).json() as { models: { ref: { providerId: string } }[] };
        return list.models.some((m) => m.ref.providerId === 'acme') ? undefined : true;
      },
      'the provider models gone from the catalog',
      10_000,
    );
  }, 40_000);

  it('saved workflow: start on a new session → run events → stop', async () => {
    const dir = join(workspace, '.zcode', 'workflows');
    await mkdir(dir, { recursive: true });
    const meta = { description: 'A slow demo workflow' };
    await writeFile(join(dir, 'demo.js'), `/* @zcode-workflow\n${JSON.stringify(meta, null, 2)}\n*/\nawait step('one');\n`);

    const list = await call('GET', '/api/settings/workflows?scope=project', undefined, 'view');
    expect(list.json().workflows.map((w: { name: string }) => w.name)).toContain('demo');

    const started = await call('POST', '/api/settings/workflows/project/demo/start', {}, 'operate');
    expect(started.statusCode, started.body).toBe(201);
    const { sessionId, runId } = started.json() as { sessionId: string; runId: string };

    const events = await until(
      async () => {
        const res = await call('GET', `/api/settings/workflow-runs/${sessionId}/${runId}/events?afterSequence=0`, undefined, 'view');
        const body = res.json() as { events?: unknown[] };
        return res.statusCode === 200 && body.events && body.events.length > 0 ? body.events : undefined;
      },
      'run events',
      10_000,
    );
    expect(events.length).toBeGreaterThan(0);

    const stop = await call('POST', `/api/settings/workflow-runs/${sessionId}/${runId}/stop`, undefined, 'operate');
    // A run that already finished is `not_running` (409); a running one is stopped.
    expect([200, 409]).toContain(stop.statusCode);
    const detail = await until(
      async () => {
        const run = (await call('GET', `/api/settings/workflow-runs/${sessionId}/${runId}`, undefined, 'view')).json() as {
          status: string;
        };
        return run.status === 'running' || run.status === 'pending' ? undefined : run;
      },
      'a settled run',
      10_000,
    );
    expect(['stopped', 'completed']).toContain(detail.status);
  }, 40_000);
});
