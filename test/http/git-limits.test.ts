import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitState, parseStatus } from '../../src/git/status.js';
import { trackedDiff } from '../../src/git/diff.js';
import { git } from '../helpers/git.js';

/** The git limits crossed against a real repository: gitStatusMaxFiles, gitStatusMaxBytes, gitTimeoutMs. */
describe('git limits', () => {
  let repo: string;
  beforeAll(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-git-'));
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'slow.txt'), 'a\n');
    git(repo, 'add', 'slow.txt');
    git(repo, 'commit', '-q', '-m', 'base');
    for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(repo, `f${String(i).padStart(2, '0')}.txt`), 'x\n');
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  it('gitStatusMaxFiles: one file over the cap is cut off and truncated: true', async () => {
    const at = await gitState(repo, { timeoutMs: 10_000, maxBytes: 1 << 20, maxFiles: 30 });
    expect(at).toMatchObject({ truncated: false });
    expect(at.files).toHaveLength(30);
    const over = await gitState(repo, { timeoutMs: 10_000, maxBytes: 1 << 20, maxFiles: 29 });
    expect(over.truncated).toBe(true);
    expect(over.files).toHaveLength(29);
  });

  it('gitStatusMaxBytes: output cut mid-record drops the partial record and says truncated', async () => {
    const full = await gitState(repo, { timeoutMs: 10_000, maxBytes: 1 << 20, maxFiles: 100 });
    const cut = await gitState(repo, { timeoutMs: 10_000, maxBytes: 200, maxFiles: 100 });
    expect(cut.truncated).toBe(true);
    expect(cut.files.length).toBeGreaterThan(0);
    expect(cut.files.length).toBeLessThan(full.files.length);
    for (const f of cut.files) expect(full.files).toContainEqual(f);
  });

  it('a cut rename pair is not reported with a half path', () => {
    const text = '# branch.head main\u00002 R. N... 100644 100644 100644 aaa bbb R100 new name.txt\0';
    expect(parseStatus(text, '', true, 10)).toEqual({ isRepo: true, branch: 'main', files: [], truncated: true });
  });

  it('gitTimeoutMs: a git that does not answer in time is killed and answers a typed 504 error', async () => {
    // A real clean filter of the repository's own config that takes long: git runs it to diff the worktree file.
    git(repo, 'config', 'filter.slow.clean', 'sleep 3; cat');
    fs.writeFileSync(path.join(repo, '.gitattributes'), 'slow.txt filter=slow\n');
    fs.writeFileSync(path.join(repo, 'slow.txt'), 'b\n');
    await expect(trackedDiff(repo, 'slow.txt', { timeoutMs: 300, maxBytes: 1 << 20 })).rejects.toMatchObject({
      code: 'HUB_ERR_BACKEND_TIMEOUT',
    });
  });
});
