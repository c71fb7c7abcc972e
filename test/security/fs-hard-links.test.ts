import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';
import { rawRequest } from './helpers/raw-http.js';

/**
 * Written as the attack: someone who can write in the workspace (as with `service install`, whose
 * workspace is $HOME and holds the state dir) hard-links files of the denied directories under
 * innocent names — `hub-id`, `daemon.lock`, a `.zcode/v2` config, files created after the hub
 * started — and reads them through the file routes. Every file under a denied directory is
 * refused by inode, not only the named secrets; ordinary hard links in the workspace are served.
 */
async function withHome(limits: Record<string, number> = {}) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-links-'));
  fs.mkdirSync(path.join(home, '.zcode', 'v2', 'sessions'), { recursive: true });
  fs.writeFileSync(path.join(home, '.zcode', 'v2', 'config.json'), JSON.stringify({ apiKey: 'sk-config-secret' }));
  fs.writeFileSync(path.join(home, 'notes.md'), '# ordinary file\n');
  fs.linkSync(path.join(home, 'notes.md'), path.join(home, 'notes-again.md'));
  const hub = await startHub({
    limits,
    config: {
      workspace: home,
      stateDir: path.join(home, '.zcode-hub'),
      providerFile: path.join(home, '.zcode', 'v2', 'provider_config.json'),
    },
  });
  const operate = await hub.token('operate', 'operator');
  const read = (p: string) =>
    rawRequest(hub.daemon.port, {
      path: `/api/instances/zcode-hub/fs/file?path=${encodeURIComponent(p)}`,
      headers: { host: `127.0.0.1:${hub.daemon.port}`, authorization: `Bearer ${operate}` },
    });
  return { home, hub, read };
}

describe('[SEC-10] no hard link gets a file of a denied directory out', () => {
  let h: Awaited<ReturnType<typeof withHome>>;
  beforeAll(async () => {
    h = await withHome();
  });
  afterAll(async () => {
    await h?.hub.close();
    fs.rmSync(h.home, { recursive: true, force: true });
  });

  it('hub-id, daemon.lock and a .zcode/v2 config linked into the workspace are refused; an ordinary link is served', async () => {
    const state = path.join(h.home, '.zcode-hub');
    await until(() => (fs.existsSync(path.join(state, 'hub-id')) ? true : undefined), 'hub-id written');
    const planted: string[] = [];
    for (const [target, name] of [
      [path.join(state, 'hub-id'), 'id.txt'],
      [path.join(state, 'daemon.lock'), 'lock.txt'],
      [path.join(h.home, '.zcode', 'v2', 'config.json'), 'config-copy.json'],
    ] as const) {
      if (!fs.existsSync(target)) continue;
      fs.linkSync(target, path.join(h.home, name));
      planted.push(name);
    }
    expect(planted).toContain('id.txt');
    expect(planted).toContain('config-copy.json');
    for (const name of planted) {
      const res = await h.read(name);
      expect(res.status, name).toBe(403);
      expect(res.body).not.toContain('sk-config-secret');
    }
    const ok = await h.read('notes-again.md');
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('# ordinary file\n');
  });

  it('a file created in a denied directory after the index was built, then linked, is refused too', async () => {
    expect((await h.read('notes-again.md')).status).toBe(200); // the index is built now
    const fresh = path.join(h.home, '.zcode', 'v2', 'sessions', 'later.json');
    fs.writeFileSync(fresh, '{"transcript":"private"}');
    fs.linkSync(fresh, path.join(h.home, 'later.json'));
    const res = await h.read('later.json');
    expect(res.status).toBe(403);
    expect(res.body).not.toContain('private');
    const stateFresh = path.join(h.home, '.zcode-hub', 'fresh-state.json');
    fs.writeFileSync(stateFresh, '{"x":1}', { mode: 0o600 });
    fs.linkSync(stateFresh, path.join(h.home, 'fresh.json'));
    expect((await h.read('fresh.json')).status).toBe(403);
  });
});

describe('past deniedInodesMax the index cannot clear a linked file (fail closed)', () => {
  let h: Awaited<ReturnType<typeof withHome>>;
  beforeAll(async () => {
    h = await withHome({ deniedInodesMax: 1 });
  });
  afterAll(async () => {
    await h?.hub.close();
    fs.rmSync(h.home, { recursive: true, force: true });
  });

  it('a workspace file with two names is refused; a file with one name is still served', async () => {
    expect((await h.read('notes-again.md')).status).toBe(403);
    fs.writeFileSync(path.join(h.home, 'single.md'), 'one name\n');
    expect((await h.read('single.md')).status).toBe(200);
  });
});
