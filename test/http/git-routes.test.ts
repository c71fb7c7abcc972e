import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGit } from '../../src/git/run.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { git } from '../helpers/git.js';

/**
 * `GET /api/sessions/:id/git` and `…/git/diff` against real repositories made with `git init` in
 * the hub's workspace, a local bare upstream for ahead/behind, the real daemon on port 0.
 */
describe('the git routes', () => {
  let hub: HubHarness;
  let repo: string;
  let plain: string;
  let sid: string;
  let plainSid: string;
  let operate: string;
  let view: string;
  const SPACED = 'dir with space/naïve café ✓.txt';

  beforeAll(async () => {
    hub = await startHub({ limits: { gitDiffMaxBytes: 4_096 } });
    repo = path.join(hub.workspace, 'repo');
    plain = path.join(hub.workspace, 'plain');
    fs.mkdirSync(plain);
    const upstream = path.join(hub.workspace, 'upstream.git');
    git(hub.workspace, 'init', '--bare', upstream);
    git(hub.workspace, 'clone', '-q', upstream, repo);
    fs.writeFileSync(path.join(repo, 'keep.txt'), 'one\ntwo\nthree\n');
    fs.writeFileSync(path.join(repo, 'gone.txt'), 'bye\n');
    fs.writeFileSync(path.join(repo, 'old-name.txt'), 'moving file content that is long enough to be found as a rename\n');
    fs.writeFileSync(path.join(repo, 'staged.txt'), 'first\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-m', 'base');
    git(repo, 'push', '-q', 'origin', 'main');
    git(repo, 'branch', '--set-upstream-to=origin/main');
    // One commit ahead of the upstream, then one commit behind (pushed from another clone).
    fs.writeFileSync(path.join(repo, 'local.txt'), 'local\n');
    git(repo, 'add', 'local.txt');
    git(repo, 'commit', '-m', 'local');
    const other = path.join(hub.workspace, 'other');
    git(hub.workspace, 'clone', '-q', upstream, other);
    fs.writeFileSync(path.join(other, 'remote.txt'), 'remote\n');
    git(other, 'add', 'remote.txt');
    git(other, 'commit', '-m', 'remote');
    git(other, 'push', '-q', 'origin', 'main');
    git(repo, 'fetch', '-q', 'origin');
    // The working changes.
    fs.writeFileSync(path.join(repo, 'keep.txt'), 'one\nTWO\nthree\n');
    fs.rmSync(path.join(repo, 'gone.txt'));
    git(repo, 'mv', 'old-name.txt', 'new-name.txt');
    fs.writeFileSync(path.join(repo, 'staged.txt'), 'second\n');
    git(repo, 'add', 'staged.txt');
    fs.writeFileSync(path.join(repo, 'added.txt'), 'brand new\n');
    git(repo, 'add', 'added.txt');
    fs.mkdirSync(path.join(repo, 'dir with space'));
    fs.writeFileSync(path.join(repo, SPACED), 'héllo\nwörld\n');
    fs.writeFileSync(path.join(repo, 'huge.txt'), `${'x'.repeat(100)}\n`.repeat(200));
    const c = await hub.initializedClient();
    sid = ((await c.request('session/new', { cwd: repo, mcpServers: [] })) as { sessionId: string }).sessionId;
    plainSid = ((await c.request('session/new', { cwd: plain, mcpServers: [] })) as { sessionId: string }).sessionId;
    operate = await hub.token('operate', 'operator');
    view = await hub.token('view', 'viewer');
  });
  afterAll(async () => {
    await hub?.close();
  });

  const state = async (id: string, token = operate) => {
    const res = await hub.api(`/api/sessions/${encodeURIComponent(id)}/git`, { token });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const diff = async (p: string, token = operate) => {
    const res = await hub.api(`/api/sessions/${encodeURIComponent(sid)}/git/diff?path=${encodeURIComponent(p)}`, { token });
    return { status: res.status, body: (await res.json()) as { path: string; diff: string; truncated: boolean; error?: { code: string } } };
  };

  it('reports branch, upstream, ahead/behind and every kind of change with workspace-relative paths', async () => {
    const { status, body } = await state(sid);
    expect(status).toBe(200);
    expect(body).toMatchObject({ isRepo: true, branch: 'main', upstream: 'origin/main', ahead: 1, behind: 1, truncated: false });
    const files = body.files as Array<{ path: string; status: string; staged: boolean; from?: string }>;
    const by = Object.fromEntries(files.map((f) => [f.path, f]));
    expect(by['keep.txt']).toEqual({ path: 'keep.txt', status: 'modified', staged: false });
    expect(by['gone.txt']).toEqual({ path: 'gone.txt', status: 'deleted', staged: false });
    expect(by['new-name.txt']).toEqual({ path: 'new-name.txt', status: 'renamed', staged: true, from: 'old-name.txt' });
    expect(by['staged.txt']).toEqual({ path: 'staged.txt', status: 'modified', staged: true });
    expect(by['added.txt']).toEqual({ path: 'added.txt', status: 'added', staged: true });
    expect(by[SPACED]).toEqual({ path: SPACED, status: 'untracked', staged: false });
    expect(by['huge.txt']?.status).toBe('untracked');
  });

  it('a workspace that is no repository answers isRepo: false, not an error', async () => {
    expect(await state(plainSid)).toEqual({ status: 200, body: { isRepo: false, files: [], truncated: false } });
  });

  it('a sub-folder session sees only its files, relative to itself', async () => {
    const c = await hub.initializedClient();
    const sub = ((await c.request('session/new', { cwd: path.join(repo, 'dir with space'), mcpServers: [] })) as { sessionId: string })
      .sessionId;
    const { body } = await state(sub);
    expect(body.files).toEqual([{ path: 'naïve café ✓.txt', status: 'untracked', staged: false }]);
  });

  it('diffs modified, staged, deleted and untracked files against HEAD, names with spaces and unicode included', async () => {
    const m = await diff('keep.txt');
    expect(m.status).toBe(200);
    expect(m.body.diff).toContain('-two\n+TWO\n');
    expect((await diff('staged.txt')).body.diff).toContain('-first\n+second\n');
    expect((await diff('gone.txt')).body.diff).toContain('deleted file mode');
    const u = await diff(SPACED);
    expect(u.status).toBe(200);
    expect(u.body).toEqual({
      path: SPACED,
      truncated: false,
      diff: `diff --git a/${SPACED} b/${SPACED}\nnew file mode 100644\n--- /dev/null\n+++ b/${SPACED}\n@@ -0,0 +1,2 @@\n+héllo\n+wörld\n`,
    });
    expect((await diff('added.txt')).body.diff).toContain('+brand new');
  });

  it('a diff past gitDiffMaxBytes is cut and says so (untracked and tracked)', async () => {
    const big = await diff('huge.txt');
    expect(big.status).toBe(200);
    expect(big.body.truncated).toBe(true);
    expect(Buffer.byteLength(big.body.diff)).toBeLessThanOrEqual(4_096);
    git(repo, 'add', 'huge.txt');
    const tracked = await diff('huge.txt');
    expect(tracked.body.truncated).toBe(true);
    expect(Buffer.byteLength(tracked.body.diff)).toBeLessThanOrEqual(4_096);
    git(repo, 'rm', '--cached', '-q', 'huge.txt');
  });

  it('a path that leaves the workspace is refused 403, through .. or a symlink; nothing is read', async () => {
    const outside = path.join(path.dirname(hub.workspace), 'outside.txt');
    fs.writeFileSync(outside, 'secret outside\n');
    fs.symlinkSync(outside, path.join(repo, 'link-out.txt'));
    for (const p of ['../plain', '../../outside.txt', 'link-out.txt', '/etc/passwd', '../no-such-dir/x']) {
      const res = await diff(p);
      expect(res.status, p).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('secret outside');
    }
    fs.rmSync(path.join(repo, 'link-out.txt'));
    expect((await diff('a\0b')).status).toBe(400);
  });

  it('needs operate like the file routes: no token 401, view 403, unknown session 403', async () => {
    const none = await fetch(`${hub.url}/api/sessions/${sid}/git`);
    expect(none.status).toBe(401);
    expect((await state(sid, view)).status).toBe(403);
    expect((await diff('keep.txt', view)).status).toBe(403);
    expect((await state('no-such-session')).status).toBe(403);
  });

  it('the git child ignores GIT_DIR and friends of the daemon, and git missing is a typed error', async () => {
    process.env.GIT_DIR = path.join(plain, 'nowhere');
    try {
      expect((await state(sid)).body.branch).toBe('main');
    } finally {
      delete process.env.GIT_DIR;
    }
    await expect(runGit(repo, ['status'], { timeoutMs: 5_000, maxBytes: 1024 }, path.join(plain, 'no-git-here'))).rejects.toMatchObject({
      code: 'HUB_ERR_NOT_SUPPORTED',
    });
  });
});
