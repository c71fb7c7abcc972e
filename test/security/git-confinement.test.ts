import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { git } from '../helpers/git.js';

/**
 * Written as the attack: the workspace is a git repository that holds the hub's state directory
 * (as with `service install` in $HOME). Someone who can write there plants a hard link and a
 * symlink to the secrets, even commits them, and asks the git routes for their diffs.
 */
describe("[SEC-10] the git routes never show the hub's secrets", () => {
  let hub: HubHarness;
  let home: string;
  let sid: string;

  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-githome-'));
    git(home, 'init', '-q');
    fs.writeFileSync(path.join(home, 'notes.md'), '# notes\n');
    hub = await startHub({
      config: {
        workspace: home,
        stateDir: path.join(home, '.zcode-hub'),
        providerFile: path.join(home, '.zcode', 'v2', 'provider_config.json'),
      },
    });
    // The provider file with a key, and a backup of it in the state dir.
    fs.mkdirSync(path.join(home, '.zcode', 'v2'), { recursive: true });
    fs.writeFileSync(path.join(home, '.zcode', 'v2', 'provider_config.json'), JSON.stringify({ apiKey: 'sk-provider-git-0123' }));
    const backups = path.join(home, '.zcode-hub', 'provider-backups');
    fs.mkdirSync(backups, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(backups, '1700000000000-cafe.json'), '{"apiKey":"sk-old-git"}', { mode: 0o600 });
    fs.linkSync(path.join(home, '.zcode-hub', 'jwt.secret'), path.join(home, 'hardlink.txt'));
    fs.symlinkSync(path.join(home, '.zcode-hub', 'admin.token'), path.join(home, 'innocent.txt'));
    fs.writeFileSync(path.join(home, 'tracked-link.txt'), 'before\n');
    git(home, 'add', 'notes.md', 'tracked-link.txt');
    git(home, 'commit', '-q', '-m', 'base');
    // A tracked file replaced by a hard link to a secret: git would diff the secret's bytes.
    fs.rmSync(path.join(home, 'tracked-link.txt'));
    fs.linkSync(path.join(home, '.zcode-hub', 'admin.token'), path.join(home, 'tracked-link.txt'));
    const c = await hub.initializedClient();
    sid = ((await c.request('session/new', { cwd: home, mcpServers: [] })) as { sessionId: string }).sessionId;
  });
  afterAll(async () => {
    await hub?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const jwt = () => fs.readFileSync(path.join(home, '.zcode-hub', 'jwt.secret'), 'utf8');

  it('the changed-file list leaves the state directory out', async () => {
    const res = await hub.api(`/api/sessions/${sid}/git`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { files: Array<{ path: string }> };
    expect(body.files.some((f) => f.path.startsWith('.zcode-hub') || f.path.startsWith('.zcode/'))).toBe(false);
    expect(body.files.some((f) => f.path === 'notes.md' || f.path === 'hardlink.txt')).toBe(true);
  });

  it('diffs of the secrets, a symlink, a hard link (untracked or tracked) to them are refused 403', async () => {
    for (const p of [
      '.zcode-hub/admin.token',
      '.zcode-hub/jwt.secret',
      'innocent.txt',
      'hardlink.txt',
      'tracked-link.txt',
      '.zcode-hub/missing',
      '.zcode/v2/provider_config.json',
      '.zcode-hub/provider-backups/1700000000000-cafe.json',
      path.join(home, '.zcode-hub', 'admin.token'),
    ]) {
      const res = await hub.api(`/api/sessions/${sid}/git/diff?path=${encodeURIComponent(p)}`);
      const text = await res.text();
      expect(res.status, p).toBe(403);
      expect(text).not.toContain(hub.adminToken);
      expect(text).not.toContain(jwt().trim());
      expect(text).not.toContain('sk-');
    }
  });

  it('every git read, served or refused, is in the audit log', async () => {
    await hub.api(`/api/sessions/${sid}/git`);
    await hub.api(`/api/sessions/${sid}/git/diff?path=notes.md`);
    await hub.api(`/api/sessions/${sid}/git/diff?path=${encodeURIComponent('.zcode-hub/admin.token')}`);
    const entries = (
      (await (await hub.api('/api/audit?limit=500')).json()) as {
        entries: Array<{ action: string; sessionId?: string; detail?: { path?: string; outcome?: string } }>;
      }
    ).entries.filter((e) => e.sessionId === sid);
    expect(entries.some((e) => e.action === 'git.status' && e.detail?.outcome === 'served')).toBe(true);
    expect(entries.some((e) => e.action === 'git.diff' && e.detail?.path === 'notes.md' && e.detail.outcome === 'served')).toBe(true);
    expect(
      entries.some((e) => e.action === 'git.diff' && e.detail?.path === '.zcode-hub/admin.token' && e.detail.outcome === 'refused'),
    ).toBe(true);
  });
});
