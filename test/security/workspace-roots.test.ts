import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError, type AcpWsClient } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { buildConfig, ConfigError, loadConfig } from '../../src/config/load.js';

/**
 * Written as the attack: `session/new` accepted any cwd (`/etc`, `/root`, `/`,
 * relative paths, directories that do not exist). Sessions may now only be opened in an existing
 * directory inside a workspace root, after resolving symlinks — over ACP, the compat profile and
 * REST (a workflow started without a session opens one) — and the refusal names the roots.
 */
describe('[SEC-11] a session cwd must be an existing directory inside a workspace root', () => {
  let base: string;
  let rootA: string;
  let rootB: string;
  let outside: string;
  let hub: HubHarness;
  let operate: string;

  beforeAll(async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zch-roots-')));
    rootA = path.join(base, 'a');
    rootB = path.join(base, 'b');
    outside = path.join(base, 'outside');
    for (const d of [rootA, rootB, outside, path.join(rootA, 'sub')]) fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(rootA, 'file.txt'), 'x');
    fs.symlinkSync(outside, path.join(rootA, 'escape'));
    fs.symlinkSync(path.join(rootA, 'sub'), path.join(rootB, 'into-a'));
    hub = await startHub({ config: { workspace: rootA, workspaces: [rootA, rootB], stateDir: path.join(rootA, '.zcode-hub') } });
    operate = await hub.token('operate', 'operator');
  });
  afterAll(async () => {
    await hub?.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  async function refusal(c: AcpWsClient, cwd: string): Promise<RpcError> {
    const err = await c.request('session/new', { cwd, mcpServers: [] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, cwd).toBeInstanceOf(RpcError);
    return err as RpcError;
  }

  const attacks = () => [
    '/etc',
    '/root',
    '/',
    'relative/dir',
    '.',
    path.join(rootA, 'missing'),
    path.join(rootA, 'escape'),
    path.join(rootA, 'file.txt'),
    path.join(rootA, 'sub', '..', '..', 'outside'),
    outside,
    path.join(rootA, '.zcode-hub'),
    `${rootA}-sibling`,
  ];

  it('ACP session/new refuses every cwd outside the roots with an error that names them', async () => {
    fs.mkdirSync(`${rootA}-sibling`, { recursive: true });
    const c = await hub.initializedClient({ token: operate });
    for (const cwd of attacks()) {
      const err = await refusal(c, cwd);
      expect(err.message, cwd).toContain(rootA);
      expect(err.message, cwd).toContain(rootB);
      expect(['HUB_ERR_FORBIDDEN', 'HUB_ERR_BAD_REQUEST'], cwd).toContain(err.hubCode);
    }
  });

  it('ACP session/new opens sessions in a root, below one, and through a symlink that stays inside', async () => {
    const c = await hub.initializedClient({ token: operate });
    for (const cwd of [rootA, path.join(rootA, 'sub'), rootB, path.join(rootB, 'into-a')]) {
      const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd, mcpServers: [] });
      expect(sessionId).toBeTruthy();
    }
  });

  it('the compat profile (zcode-acp-remote) is refused the same way', async () => {
    const legacy = await hub.client({ query: { instance: 'zcode-hub', token: operate } });
    await legacy.initialize({ name: 'zcode-acp-remote' });
    for (const cwd of ['/etc', outside, path.join(rootA, 'escape')]) {
      const err = await refusal(legacy, cwd);
      expect(err.message).toContain(rootA);
    }
  });

  it('REST: a workflow started without a session cannot open one outside the roots, and workflow reads stay inside them', async () => {
    for (const workspace of ['/etc', outside, path.join(rootA, 'escape')]) {
      const res = await hub.api('/api/settings/workflows/project/any/start', {
        method: 'POST',
        token: operate,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workspace }),
      });
      expect(res.status, workspace).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(rootA);
      const list = await hub.api(`/api/settings/workflows?workspace=${encodeURIComponent(workspace)}`, { token: operate });
      expect(list.status, workspace).toBe(403);
    }
  });

  it('the roots are readable by operate clients: initialize _meta and GET /api/workspaces', async () => {
    const c = await hub.initializedClient({ token: operate });
    const init = c.messages.find((m) => m.id !== undefined && (m.result as { _meta?: unknown } | undefined)?._meta !== undefined)
      ?.result as { _meta: { zcode: { workspaces?: string[]; defaultWorkspace?: string } } };
    expect(init._meta.zcode.workspaces).toEqual([rootA, rootB]);
    expect(init._meta.zcode.defaultWorkspace).toBe(rootA);
    const res = await hub.api('/api/workspaces', { token: operate });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ defaultWorkspace: rootA, workspaces: [rootA, rootB] });
    const view = await hub.token('view');
    expect((await hub.api('/api/workspaces', { token: view })).status).toBe(403);
  });
});

describe('[SEC-11] a session left outside the roots (the roots changed) can be watched, not prompted', () => {
  let base: string;
  let keep: string;
  let dropped: string;
  let stateDir: string;

  beforeAll(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'zch-roots2-')));
    keep = path.join(base, 'keep');
    dropped = path.join(base, 'dropped');
    stateDir = path.join(base, 'state');
    for (const d of [keep, dropped]) fs.mkdirSync(d, { recursive: true });
  });
  afterAll(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('load works, prompt is refused naming the roots, the file routes refuse it', async () => {
    let sessionId: string;
    const first = await startHub({ config: { workspace: keep, workspaces: [keep, dropped], stateDir } });
    try {
      const c = await first.initializedClient();
      ({ sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: dropped, mcpServers: [] }));
      await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    } finally {
      await first.close();
    }
    const second = await startHub({ config: { workspace: keep, workspaces: [keep], stateDir } });
    try {
      const c = await second.initializedClient();
      const loaded = await c.request<{ sessionId?: string }>('session/load', { sessionId, cwd: dropped, mcpServers: [] });
      expect(loaded).toBeDefined();
      const err = await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }).then(
        () => undefined,
        (e: unknown) => e as RpcError,
      );
      expect(err).toBeInstanceOf(RpcError);
      expect(err!.hubCode).toBe('HUB_ERR_FORBIDDEN');
      expect(err!.message).toContain(keep);
      const file = await second.api(`/api/instances/zcode-hub/fs/list?sessionId=${sessionId}`);
      expect(file.status).toBe(403);
    } finally {
      await second.close();
    }
  });
});

describe('[SEC-11] configuring the roots', () => {
  it('--workspace may be given more than once (the first is the default); a config file may list workspaces', () => {
    const cfg = loadConfig(['--workspace', '/srv/a', '--workspace', '/srv/b'], {});
    expect(cfg.workspaces).toEqual(['/srv/a', '/srv/b']);
    expect(cfg.workspace).toBe('/srv/a');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-cfg-'));
    try {
      const file = path.join(dir, 'hub.json');
      fs.writeFileSync(file, JSON.stringify({ workspaces: ['/srv/x', '/srv/y'], workspace: '/srv/y/proj' }));
      const fromFile = loadConfig(['--config', file], {});
      expect(fromFile.workspaces).toEqual(['/srv/x', '/srv/y']);
      expect(fromFile.workspace).toBe('/srv/y/proj');
      // Flags replace the file's list.
      expect(loadConfig(['--config', file, '--workspace', '/srv/z'], {}).workspaces).toEqual(['/srv/z']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(loadConfig([], { ZCODE_HUB_WORKSPACE: '/srv/env' }).workspaces).toEqual(['/srv/env']);
    expect(loadConfig([], {}).workspaces).toEqual([process.cwd()]);
  });

  it('a default workspace outside every root is a configuration error that names the roots', () => {
    expect(() => buildConfig({ workspace: '/elsewhere', workspaces: ['/srv/a', '/srv/b'] })).toThrow(
      /\/elsewhere is not inside any of the workspace roots \(\/srv\/a, \/srv\/b\)/,
    );
    expect(() => buildConfig({ workspaces: [] })).toThrow(ConfigError);
  });
});
