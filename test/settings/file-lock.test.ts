import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock, FileLockTimeoutError, withFileLock } from '../../src/settings/file-lock.js';

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('cross-process file lock (<file>.lock directory, desktop-compatible)', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hub-lock-'));
    file = join(dir, 'provider_config.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one owner record {pid, hostname, createdAt} and removes the directory on release', async () => {
    const release = await acquireFileLock(file);
    const entries = await readdir(`${file}.lock`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatch(/^owner-.+\.json$/);
    const owner: unknown = JSON.parse(await readFile(join(`${file}.lock`, entries[0]!), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, hostname: hostname(), createdAt: expect.any(Number) });
    await release();
    await expect(readdir(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('serializes holders', async () => {
    const order: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        withFileLock(file, async () => {
          order.push(`${name}+`);
          await new Promise((r) => setTimeout(r, 20));
          order.push(`${name}-`);
        }),
      ),
    );
    for (let i = 0; i < order.length; i += 2) expect(order[i]!.slice(0, 1)).toBe(order[i + 1]!.slice(0, 1));
  });

  it('reclaims a lock whose owner is dead (ours and the desktop app format without hostname)', async () => {
    for (const record of [
      { pid: deadPid(), hostname: hostname(), createdAt: Date.now() },
      { pid: deadPid(), createdAt: Date.now(), token: 'x' },
    ]) {
      await mkdir(`${file}.lock`);
      await writeFile(join(`${file}.lock`, 'owner-dead.json'), JSON.stringify(record));
      const release = await acquireFileLock(file, { timeoutMs: 2_000 });
      await release();
    }
  });

  it('never steals a lock whose owner is alive', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await mkdir(`${file}.lock`);
      await writeFile(join(`${file}.lock`, 'owner-live.json'), JSON.stringify({ pid: sleeper.pid, hostname: hostname(), createdAt: 0 }));
      await expect(acquireFileLock(file, { timeoutMs: 300 })).rejects.toBeInstanceOf(FileLockTimeoutError);
      expect(await readdir(`${file}.lock`)).toEqual(['owner-live.json']);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('does not judge an owner on another host', async () => {
    await mkdir(`${file}.lock`);
    await writeFile(
      join(`${file}.lock`, 'owner-remote.json'),
      JSON.stringify({ pid: deadPid(), hostname: `not-${hostname()}`, createdAt: 0 }),
    );
    await expect(acquireFileLock(file, { timeoutMs: 300 })).rejects.toBeInstanceOf(FileLockTimeoutError);
  });

  it('reclaims an owner-less directory only after the grace period', async () => {
    await mkdir(`${file}.lock`);
    await expect(acquireFileLock(file, { timeoutMs: 200, ownerlessGraceMs: 60_000 })).rejects.toBeInstanceOf(FileLockTimeoutError);
    const old = new Date(Date.now() - 120_000);
    await utimes(`${file}.lock`, old, old);
    const release = await acquireFileLock(file, { timeoutMs: 1_000, ownerlessGraceMs: 60_000 });
    await release();
  });

  it('reclaims an unreadable owner record after the grace period', async () => {
    await mkdir(`${file}.lock`);
    const owner = join(`${file}.lock`, 'owner-garbage.json');
    await writeFile(owner, '{not json');
    const old = new Date(Date.now() - 120_000);
    await utimes(owner, old, old);
    const release = await acquireFileLock(file, { timeoutMs: 1_000, ownerlessGraceMs: 60_000 });
    await release();
  });
});
