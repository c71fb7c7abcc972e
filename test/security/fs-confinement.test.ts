import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { rawRequest } from './helpers/raw-http.js';

/**
 * Written as the attack: the workspace (as with `service install`, whose
 * WorkingDirectory is $HOME) contains the state directory and the provider file. A `view`
 * token asks the compat file routes for the hub's secrets, directly, through a symlink, a hard
 * link and a session whose cwd is the state directory itself.
 */
describe("[SEC-10] the compat file routes never serve the hub's secrets", () => {
  let hub: HubHarness;
  let home: string;
  let view: string;
  let operate: string;
  let stateSessionError: unknown;
  const secrets = [
    '.zcode-hub/admin.token',
    '.zcode-hub/jwt.secret',
    '.zcode-hub/tokens.json',
    '.zcode/v2/provider_config.json',
    '.zcode/v2/config.json',
    '.zcode-hub/provider-backups/1700000000000-deadbeef.json',
  ];

  const get = (what: 'file' | 'list', query: string, token: string) =>
    rawRequest(hub.daemon.port, {
      path: `/api/instances/zcode-hub/fs/${what}?${query}`,
      headers: { host: `127.0.0.1:${hub.daemon.port}`, authorization: `Bearer ${token}` },
    });
  const q = (p: string, sessionId?: string) =>
    `${sessionId ? `sessionId=${encodeURIComponent(sessionId)}&` : ''}path=${encodeURIComponent(p)}`;

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-home-'));
    fs.mkdirSync(path.join(home, '.zcode', 'v2'), { recursive: true });
    fs.writeFileSync(
      path.join(home, '.zcode', 'v2', 'provider_config.json'),
      JSON.stringify({ providers: [{ id: 'p', apiKey: 'sk-provider-secret-0123456789' }] }),
    );
    fs.writeFileSync(path.join(home, '.zcode', 'v2', 'config.json'), JSON.stringify({ apiKey: 'sk-legacy-secret' }));
    fs.writeFileSync(path.join(home, 'notes.md'), '# ordinary file\n');
    hub = await startHub({
      config: {
        workspace: home,
        stateDir: path.join(home, '.zcode-hub'),
        providerFile: path.join(home, '.zcode', 'v2', 'provider_config.json'),
      },
    });
    const backups = path.join(home, '.zcode-hub', 'provider-backups');
    fs.mkdirSync(backups, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(backups, '1700000000000-deadbeef.json'), '{"apiKey":"sk-old"}', { mode: 0o600 });
    // Planted by someone who can write in the workspace: links that point at the secrets.
    fs.symlinkSync(path.join(home, '.zcode-hub', 'admin.token'), path.join(home, 'innocent.txt'));
    fs.symlinkSync(path.join(home, '.zcode-hub'), path.join(home, 'state-link'));
    fs.linkSync(path.join(home, '.zcode-hub', 'jwt.secret'), path.join(home, 'hardlink.txt'));
    view = await hub.token('view', 'viewer');
    operate = await hub.token('operate', 'operator');
    const c = await hub.initializedClient();
    stateSessionError = await c.request('session/new', { cwd: path.join(home, '.zcode-hub'), mcpServers: [] }).then(
      () => undefined,
      (e: unknown) => e,
    );
  });
  afterAll(async () => {
    await hub?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('a view token cannot read workspace files at all (reading files is more than watching)', async () => {
    for (const target of [...secrets, 'notes.md']) {
      const res = await get('file', q(target), view);
      expect(res.status, target).toBe(403);
      expect(res.body).not.toContain(hub.adminToken);
      expect(res.body).not.toContain('sk-');
    }
    expect((await get('list', q(''), view)).status).toBe(403);
  });

  it('an operate token reads ordinary workspace files but never the state dir or the provider files', async () => {
    const ok = await get('file', q('notes.md'), operate);
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('# ordinary file\n');
    for (const target of [...secrets, 'innocent.txt', 'state-link/admin.token', 'hardlink.txt', '.zcode-hub/../.zcode-hub/admin.token']) {
      for (const token of [operate, hub.adminToken]) {
        const res = await get('file', q(target), token);
        expect(res.status, target).toBe(403);
        expect(res.body).not.toContain(hub.adminToken);
        expect(res.body).not.toContain('sk-');
      }
    }
  });

  it('absolute paths and a session whose cwd is above the state dir get no secret either', async () => {
    const c = await hub.initializedClient();
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: home, mcpServers: [] });
    const absolute = [...secrets.map((s) => path.join(home, s)), path.join(home, 'state-link', 'admin.token')];
    for (const target of [...absolute, ...secrets]) {
      for (const query of [q(target), q(target, sessionId)]) {
        const res = await get('file', query, hub.adminToken);
        expect(res.status, `${target} ${query.startsWith('sessionId') ? 'in the session' : ''}`).toBe(403);
        expect(res.body).not.toContain(hub.adminToken);
        expect(res.body).not.toContain('sk-');
      }
    }
    // The same session reads an ordinary file by its absolute path: the refusals above are about what is asked for.
    const ok = await get('file', q(path.join(home, 'notes.md'), sessionId), operate);
    expect([ok.status, ok.body]).toEqual([200, '# ordinary file\n']);
  });

  it('a missing path under a denied directory or outside the root answers exactly as an existing one (no existence oracle)', async () => {
    const pairs: Array<[existing: string, missing: string]> = [
      ['.zcode-hub/admin.token', '.zcode-hub/no-such-file'],
      ['.zcode-hub/provider-backups/1700000000000-deadbeef.json', '.zcode-hub/provider-backups/0-missing.json'],
      ['.zcode/v2/config.json', '.zcode/v2/no-such-config.json'],
      ['.zcode/v2/config.json', '.zcode/v2/no-such-dir/deeper.json'],
      ['state-link/jwt.secret', 'state-link/no-such-file'],
      [`../${path.basename(os.tmpdir())}`, '../no-such-dir-outside-the-root/file'],
    ];
    for (const what of ['file', 'list'] as const) {
      for (const [existing, missing] of pairs) {
        const a = await get(what, q(existing), operate);
        const b = await get(what, q(missing), operate);
        expect(a.status, `${what} ${existing}`).toBe(403);
        expect({ status: b.status, body: b.body }, `${what} ${missing}`).toEqual({ status: a.status, body: a.body });
      }
    }
    // An ordinary missing file in the workspace is still a plain 404.
    expect((await get('file', q('no-such-note.md'), operate)).status).toBe(404);
  });

  it('listings hide the state dir and refuse to enter it or the provider directory', async () => {
    const res = await get('list', q(''), operate);
    expect(res.status).toBe(200);
    const names = (JSON.parse(res.body) as { entries: Array<{ name: string }> }).entries.map((e) => e.name);
    expect(names).toContain('notes.md');
    expect(names).not.toContain('.zcode-hub');
    for (const dir of ['.zcode-hub', '.zcode-hub/provider-backups', '.zcode/v2', 'state-link']) {
      expect((await get('list', q(dir), operate)).status, dir).toBe(403);
    }
  });

  it('no session can be opened in the state dir, and an unknown session is no way in either', async () => {
    // Workspace roots (item 2) refuse the state dir as a cwd, so it can never become a file root.
    expect(String(stateSessionError)).toMatch(/private files/);
    for (const target of ['admin.token', 'jwt.secret', '']) {
      const file = await get('file', q(target, 'sess_unknown'), hub.adminToken);
      expect(file.status, target).toBe(403);
      expect(file.body).not.toContain(hub.adminToken);
    }
  });

  it('every file read and listing, allowed or refused, is in the audit log with its path', async () => {
    await get('file', q('notes.md'), operate);
    await get('file', q('.zcode-hub/admin.token'), operate);
    const res = await hub.api('/api/audit?limit=500');
    const entries = (
      (await res.json()) as { entries: Array<{ action: string; who: { name: string }; detail?: { path?: string; outcome?: string } }> }
    ).entries;
    const reads = entries.filter((e) => e.action === 'fs.read' && e.who.name === 'operator');
    expect(reads.some((e) => e.detail?.path === 'notes.md' && e.detail.outcome === 'served')).toBe(true);
    expect(reads.some((e) => e.detail?.path === '.zcode-hub/admin.token' && e.detail.outcome === 'refused')).toBe(true);
    expect(entries.some((e) => e.action === 'fs.list' && e.who.name === 'operator')).toBe(true);
  });
});
