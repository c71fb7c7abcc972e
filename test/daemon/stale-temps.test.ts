/**
 * A daemon killed between an atomic write's temp file and its rename leaves the temp file; the
 * next start removes them from every directory the hub writes atomically, and nothing else
 * (src/daemon/stale-temps.ts, ARCHITECTURE.md §9.1). Nothing is killed here: the files are
 * planted the way a kill leaves them (the writers' own temp names, 0600, changed before the
 * start), beside look-alikes that are not the hub's, and a real daemon is started on the dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHub } from '../helpers/hub-harness.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-stale-temps-'));
const stateDir = path.join(root, 'state');
const workspace = path.join(root, 'workspace');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Writes `file` 0600 and dates it an hour back (a kill of an earlier run). */
function plant(file: string, ageMs = 3_600_000): string {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, '{"half', { mode: 0o600 });
  const then = new Date(Date.now() - ageMs);
  fs.utimesSync(file, then, then);
  return file;
}

describe('temp files left by a daemon stopped mid-write', () => {
  it('are removed at start in the state dir, turns/, task-outputs/ and provider-backups/; nothing else is', async () => {
    fs.mkdirSync(workspace);
    const litter = [
      plant(path.join(stateDir, '.tokens.json.4242.0a1b2c3d.tmp')),
      plant(path.join(stateDir, '.session-marks.ndjson.17.ffffffff.tmp')),
      plant(path.join(stateDir, 'turns', '.c2Vzcw.ndjson.88.00000000.tmp')),
      plant(path.join(stateDir, 'task-outputs', '.c2Vzcw.json.123.abcdef01.tmp')),
      plant(path.join(stateDir, 'provider-backups', '.20250101T000000Z-abc.json.hub-tmp-55-0123456789ab')),
    ];
    const target = plant(path.join(root, 'elsewhere.txt'));
    const kept = [
      // Not the shape of the hub's temp names: a user's (or another tool's) file.
      plant(path.join(stateDir, '.notes.tmp')),
      plant(path.join(stateDir, 'tokens.json.4242.0a1b2c3d.tmp')),
      plant(path.join(stateDir, '.tokens.json.4242.0A1B2C3D.tmp')),
      plant(path.join(stateDir, 'task-outputs', '.x.json.123.ab.tmp')),
      // The right shape, but changed after this start (an hour ahead): not left by an earlier run.
      plant(path.join(stateDir, '.policy.json.99.12345678.tmp'), -3_600_000),
    ];
    // A link and a directory of the right shape are never removed (nor what the link points at).
    const link = path.join(stateDir, '.link.json.5.12345678.tmp');
    fs.symlinkSync(target, link);
    const dir = path.join(stateDir, '.dir.json.5.12345678.tmp');
    fs.mkdirSync(dir);
    // Elsewhere: the agent's own store is its business.
    const agents = plant(path.join(stateDir, 'sim', 'sessions', '.s.json.9.12345678.tmp'));

    const hub = await startHub({ config: { stateDir, workspace } });
    try {
      for (const file of litter) expect(fs.existsSync(file), file).toBe(false);
      for (const file of [...kept, target, agents, dir]) expect(fs.existsSync(file), file).toBe(true);
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
      // The daemon still started on the dir: its own files are there and nothing of its own is litter.
      expect(fs.existsSync(path.join(stateDir, 'hub.json'))).toBe(true);
    } finally {
      await hub.close();
    }
  });
});
