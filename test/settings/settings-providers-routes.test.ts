import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDER_ID_RULE } from '../../src/settings/provider-resource.js';
import { until } from '../helpers/until.js';
import { auth, buildSettingsApp, type SettingsApp, type SimBackend, startSimBackend } from './helpers.js';

const KEY = 'sk-live-5f3a9c1e77b2-WXYZ';
const NEW_KEY = 'sk-live-0000aaaa1111-QRST';
const body = {
  providerId: 'acme',
  name: 'Acme',
  apiType: 'anthropic-messages',
  baseUrl: 'https://api.acme.example/anthropic',
  models: ['GLM-5.3', 'GLM-5.3-Flash'],
  apiKey: KEY,
};

describe('settings REST: providers', () => {
  let dir: string;
  let file: string;
  let backend: SimBackend;
  let s: SettingsApp;
  const responses: string[] = [];

  async function call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options: { payload?: unknown; headers?: Record<string, string>; scope?: 'admin' | 'view' | 'operate' | null } = {},
  ) {
    const scope = options.scope === undefined ? 'admin' : options.scope;
    const res = await s.app.inject({
      method,
      url,
      headers: { ...(scope ? auth(scope) : {}), ...(options.headers ?? {}) },
      ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
    });
    responses.push(`${JSON.stringify(res.headers)}\n${res.body}`);
    return res;
  }

  beforeEach(async () => {
    process.umask(0o022);
    dir = await mkdtemp(join(tmpdir(), 'hub-routes-'));
    file = join(dir, 'provider_config.json');
    backend = await startSimBackend({ dir, filePath: file });
    s = await buildSettingsApp({ filePath: file, workspace: dir, backend, bodyLimit: 8 * 1024 });
    responses.length = 0;
  });
  afterEach(async () => {
    // No response and no log line of any test ever carried a key (CFG-05, SEC-05).
    for (const text of [...responses, ...s.logLines]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(NEW_KEY);
    }
    await s.app.close();
    await backend.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lifecycle: create 201 with ETag, read, enable/disable, model rules, delete 204', async () => {
    const created = await call('POST', '/api/settings/providers', { payload: body });
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(created.json()).toEqual({
      providerId: 'acme',
      name: 'Acme',
      enabled: true,
      apiType: 'anthropic-messages',
      baseUrl: body.baseUrl,
      hasKey: true,
      keyHint: 'WXYZ',
      models: body.models,
      accessType: 'api-key',
      complete: true,
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const list = await call('GET', '/api/settings/providers', { scope: 'view' });
    expect(list.statusCode).toBe(200);
    expect(list.headers.etag).toBe(created.headers.etag);
    expect(list.json()).toMatchObject({
      health: { status: 'valid', issues: [] },
      etag: created.headers.etag,
      providers: [{ providerId: 'acme' }],
    });

    expect((await call('POST', '/api/settings/providers/acme/disable')).json()).toMatchObject({ enabled: false });
    expect((await call('POST', '/api/settings/providers/acme/enable')).json()).toMatchObject({ enabled: true });

    const rule = await call('PUT', '/api/settings/providers/acme/models/GLM-5.3/rule', {
      payload: { kind: 'smart', config: { properties: { contextWindow: 200000 } } },
    });
    expect(rule.statusCode).toBe(200);
    expect(rule.json()).toEqual({
      providerId: 'acme',
      modelId: 'GLM-5.3',
      kind: 'smart',
      config: { properties: { contextWindow: 200000 } },
    });
    expect((await call('GET', '/api/settings/providers')).json().modelRules).toHaveLength(1);
    expect((await call('DELETE', '/api/settings/providers/acme/models/GLM-5.3/rule')).statusCode).toBe(204);
    expect((await call('DELETE', '/api/settings/providers/acme/models/GLM-5.3/rule')).statusCode).toBe(404);

    const patched = await call('PATCH', '/api/settings/providers/acme', { payload: { apiKey: NEW_KEY } });
    expect(patched.json()).toMatchObject({ hasKey: true, keyHint: 'QRST' });
    expect(await readFile(file, 'utf8')).toContain(NEW_KEY);

    expect((await call('DELETE', '/api/settings/providers/acme')).statusCode).toBe(204);
    expect((await call('GET', '/api/settings/providers/acme')).statusCode).toBe(404);
    expect((await call('DELETE', '/api/settings/providers/acme')).json()).toMatchObject({ error: { code: 'HUB_ERR_NOT_FOUND' } });
    expect((await call('POST', '/api/settings/providers', { payload: body })).statusCode).toBe(201);
    expect((await call('POST', '/api/settings/providers', { payload: body })).json()).toMatchObject({
      error: { code: 'HUB_ERR_CONFLICT' },
    });
  });

  it('[CFG-02] two writers with the same If-Match: one 200, one 412', async () => {
    const { headers } = await call('POST', '/api/settings/providers', { payload: body });
    const etag = String(headers.etag);
    const [a, b] = await Promise.all([
      call('PATCH', '/api/settings/providers/acme', { payload: { name: 'first' }, headers: { 'if-match': etag } }),
      call('PATCH', '/api/settings/providers/acme', { payload: { name: 'second' }, headers: { 'if-match': etag } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 412]);
    const loser = a.statusCode === 412 ? a : b;
    const winner = a.statusCode === 200 ? a : b;
    expect(loser.json()).toMatchObject({ error: { code: 'HUB_ERR_PRECONDITION' } });
    expect((await call('GET', '/api/settings/providers/acme')).json().name).toBe(winner.json().name);
  });

  it('[CFG-03] schema-invalid body → 400 with field paths; unknown key → 400; oversize body → 413; file byte-identical', async () => {
    await call('POST', '/api/settings/providers', { payload: body });
    const before = await readFile(file);
    const invalid = await call('PATCH', '/api/settings/providers/acme', { payload: { baseUrl: 'not a url', enabled: 'yes' } });
    expect(invalid.statusCode).toBe(400);
    const paths = invalid.json().error.details.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['body.baseUrl', 'body.enabled']));
    const unknown = await call('PATCH', '/api/settings/providers/acme', { payload: { name: 'x', colour: 'red' } });
    expect(unknown.statusCode).toBe(400);
    expect(JSON.stringify(unknown.json())).toContain('colour');
    // An issue of the body as a whole is at `body`, not `body.`.
    expect(unknown.json().error.details.issues).toEqual([{ path: 'body', message: expect.stringContaining('colour') }]);
    // A URL the agent cannot call a provider at is refused by name, whatever the route.
    for (const [method, url, payload] of [
      ['PATCH', '/api/settings/providers/acme', { baseUrl: 'file:///etc/passwd' }],
      ['POST', '/api/settings/providers', { ...body, providerId: 'other', baseUrl: 'javascript:alert(1)' }],
    ] as const) {
      const bad = await call(method, url, { payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details.issues).toEqual([{ path: 'body.baseUrl', message: 'baseUrl must be an http:// or https:// URL' }]);
    }
    // A new provider's id is a name (PROVIDER_ID_RULE), refused by field, never a path or a sentence.
    for (const providerId of ['../../etc', 'has space', '-leading-dash', 'a/b', 'x'.repeat(65)]) {
      const bad = await call('POST', '/api/settings/providers', { payload: { ...body, providerId } });
      expect(bad.statusCode, providerId).toBe(400);
      expect(bad.json().error.details.issues).toEqual([{ path: 'body.providerId', message: PROVIDER_ID_RULE }]);
    }
    const oversize = await call('PATCH', '/api/settings/providers/acme', { payload: { name: 'x'.repeat(9 * 1024) } });
    expect(oversize.statusCode).toBe(413);
    expect(oversize.json()).toMatchObject({ error: { code: 'HUB_ERR_PAYLOAD_TOO_LARGE' } });
    // Valid body, invalid resulting document (§9.2 account rule): 400 with the document path.
    const account = await call('POST', '/api/settings/providers', { payload: { ...body, providerId: 'account:zai' } });
    expect(account.statusCode).toBe(400);
    expect(account.json().error.details.issues[0].path).toBe('config.providerConfigRules.providerRules.1.config.access');
    expect((await readFile(file)).equals(before)).toBe(true);
    for (const res of [invalid, unknown, oversize, account]) expect(res.body).not.toMatch(/at .+\.ts:\d+/); // no stack traces
  });

  it('a provider the file holds under an id outside the rule is still read, edited with its id echoed, and deleted', async () => {
    expect((await call('POST', '/api/settings/providers', { payload: body })).statusCode).toBe(201);
    const odd = 'Old provider/1';
    await writeFile(file, (await readFile(file, 'utf8')).replaceAll('"acme"', JSON.stringify(odd)));
    const url = `/api/settings/providers/${encodeURIComponent(odd)}`;
    await until(async () => ((await call('GET', url)).statusCode === 200 ? true : undefined), 'the edited file read');
    const patched = await call('PATCH', url, { payload: { providerId: odd, name: 'Renamed' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ providerId: odd, name: 'Renamed' });
    expect((await call('DELETE', url)).statusCode).toBe(204);
  });

  it('a provider id at the length limit and with every allowed character is created', async () => {
    for (const providerId of ['x'.repeat(64), 'My-provider_2.v1:eu']) {
      const res = await call('POST', '/api/settings/providers', { payload: { ...body, providerId } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().providerId).toBe(providerId);
      expect((await call('DELETE', `/api/settings/providers/${encodeURIComponent(providerId)}`)).statusCode).toBe(204);
    }
  });

  it('[CFG-04] a file broken by hand: reported, served, not overwritten blindly; a fixed file is picked up', async () => {
    await call('POST', '/api/settings/providers', { payload: body });
    const good = await readFile(file, 'utf8');
    const broken = good.replace('"schemaVersion": 1', '"schemaVersion": 1, "extra": true');
    await writeFile(file, broken);
    const list = await call('GET', '/api/settings/providers', { scope: 'view' });
    expect(list.statusCode).toBe(200);
    expect(list.json().health).toEqual({ status: 'invalid', issues: [{ path: '', message: expect.stringContaining('extra') }] });
    const refused = await call('PATCH', '/api/settings/providers/acme', { payload: { name: 'blind' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'HUB_ERR_CONFLICT', details: { reason: 'file_invalid' } } });
    expect(await readFile(file, 'utf8')).toBe(broken);
    await writeFile(file, good);
    expect((await call('GET', '/api/settings/providers')).json().health.status).toBe('valid');
    expect((await call('PATCH', '/api/settings/providers/acme', { payload: { name: 'fixed' } })).statusCode).toBe(200);
  });

  it('[CFG-05] GET providers, PUT back what GET returned: no raw key in any response, stored key unchanged byte for byte', async () => {
    await call('POST', '/api/settings/providers', { payload: body });
    const keyLine = (await readFile(file, 'utf8')).split('\n').find((l) => l.includes('"apiKey"'));
    const list = await call('GET', '/api/settings/providers', { scope: 'view' });
    for (const provider of list.json().providers) {
      const put = await call('PUT', `/api/settings/providers/${provider.providerId}`, {
        payload: provider,
        headers: { 'if-match': String(list.headers.etag) },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toEqual(provider);
    }
    expect((await readFile(file, 'utf8')).split('\n').find((l) => l.includes('"apiKey"'))).toBe(keyLine);
  });

  it('[SEC-08] a view token cannot write settings; no credentials → 401', async () => {
    const res = await call('POST', '/api/settings/providers', { payload: body, scope: 'view' });
    expect(res.statusCode).toBe(403);
    expect((await call('POST', '/api/settings/providers', { payload: body, scope: 'operate' })).statusCode).toBe(403);
    expect((await call('GET', '/api/settings/providers', { scope: null })).statusCode).toBe(401);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('connectivity test: success, and a provider error with the key scrubbed', async () => {
    await call('POST', '/api/settings/providers', { payload: body });
    expect(
      (await call('POST', '/api/settings/providers/acme/test', { payload: { modelId: 'GLM-5.3', reasoningLevel: 'high' } })).json(),
    ).toEqual({ success: true });
    expect(backend.calls.at(-1)).toEqual({
      method: 'provider/testModelConnectivity',
      params: {
        workspace: { workspacePath: dir, workspaceKey: dir },
        selection: { providerId: 'acme', modelId: 'GLM-5.3', options: { reasoningLevel: 'high' } },
      },
    });
    // The provider refuses the key and the CLI forwards its message, key and all: a simulator that fails the call so.
    await s.app.close();
    await backend.close();
    const refusal = `provider/testModelConnectivity=401 Unauthorized: invalid key ${KEY}`;
    backend = await startSimBackend({ dir, filePath: file, simArgs: ['--fail-method', refusal] });
    s = await buildSettingsApp({ filePath: file, workspace: dir, backend, bodyLimit: 8 * 1024 });
    const failed = await call('POST', '/api/settings/providers/acme/test', { payload: { modelId: 'GLM-5.3' } });
    expect(failed.json()).toEqual({ success: false, message: '401 Unauthorized: invalid key [redacted]' });
    expect((await call('POST', '/api/settings/providers/nope/test', { payload: { modelId: 'x' } })).statusCode).toBe(404);
  });

  it('GET /api/settings/models lists settings.model.available of a deferred draft session, then closes it', async () => {
    await call('POST', '/api/settings/providers', { payload: body });
    const listed = async () =>
      (await call('GET', '/api/settings/models', { scope: 'view' })).json().models.map((m: { ref: unknown }) => m.ref);
    const from = backend.calls.length;
    // The simulator picks up a changed provider file by watching it, like the CLI: wait until it has.
    await until(
      async () => ((await listed()).some((r: { providerId: string }) => r.providerId === 'acme') ? true : undefined),
      'acme listed',
    );
    const refs = await listed();
    expect(refs).toContainEqual({ providerId: 'acme', modelId: 'GLM-5.3' });
    expect(refs).toContainEqual({ providerId: 'sim', modelId: 'sim-fast' });
    expect(backend.calls[from]).toMatchObject({ method: 'session/create', params: { persistence: 'deferred' } });
    expect(backend.calls.slice(from).map((c) => c.method)).toContain('session/close');
    // A child whose model list holds an entry no schema allows (the real server forwards such): it is left out.
    await s.app.close();
    await backend.close();
    backend = await startSimBackend({ dir, filePath: file, simArgs: ['--payload-drift'] });
    s = await buildSettingsApp({ filePath: file, workspace: dir, backend, bodyLimit: 8 * 1024 });
    const drifted = (await call('GET', '/api/settings/models', { scope: 'view' })).json().models;
    expect(drifted.map((m: { ref: unknown }) => m.ref)).toEqual(refs);
  });

  it('backups: listed newest first and restorable with If-Match', async () => {
    await call('POST', '/api/settings/providers', { payload: body });
    await call('DELETE', '/api/settings/providers/acme');
    const { backups } = (await call('GET', '/api/settings/provider-backups', { scope: 'view' })).json();
    expect(backups).toHaveLength(1);
    const current = await call('GET', '/api/settings/providers');
    expect(
      (await call('POST', `/api/settings/provider-backups/${backups[0].id}/restore`, { headers: { 'if-match': '"stale"' } })).statusCode,
    ).toBe(412);
    const restored = await call('POST', `/api/settings/provider-backups/${backups[0].id}/restore`, {
      headers: { 'if-match': String(current.headers.etag) },
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().providers.map((p: { providerId: string }) => p.providerId)).toEqual(['acme']);
    expect((await call('POST', '/api/settings/provider-backups/nope/restore')).statusCode).toBe(404);
  });
});
