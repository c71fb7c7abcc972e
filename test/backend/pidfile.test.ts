import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupOrphan, readPidfile, removePidfile, sameCommand, writePidfile, type ProcessInspector } from '../../src/backend/pidfile.js';
import { quietLogger } from './helpers.js';

const tmpDirs: string[] = [];
function pidPath(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-pid-'));
  tmpDirs.push(d);
  return path.join(d, 'backend.pid');
}
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const command = ['/usr/bin/node', '/opt/ZCode/resources/glm/zcode.cjs', 'app-server'];

function inspector(over: Partial<ProcessInspector> & { aliveAfterSignals?: number } = {}): ProcessInspector & { signals: string[] } {
  const signals: string[] = [];
  let alive = true;
  const needed = over.aliveAfterSignals ?? 1;
  return {
    signals,
    alive: over.alive ?? (() => alive),
    commandLine: over.commandLine ?? (() => command),
    startTime: over.startTime ?? (() => 1_000_000),
    kill:
      over.kill ??
      ((_pid, signal) => {
        signals.push(signal);
        if (signals.length >= needed) alive = false;
      }),
  };
}

describe('backend pidfile and orphan cleanup', () => {
  it('writes 0600, reads back, removes only when the pid matches', () => {
    const file = pidPath();
    writePidfile(file, { pid: 999_999, startedAt: 1, command });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readPidfile(file)).toEqual({ pid: 999_999, startedAt: 1, command });
    removePidfile(file, 1);
    expect(fs.existsSync(file)).toBe(true);
    removePidfile(file, 999_999);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('kills a verified orphan with SIGTERM and removes the pidfile', async () => {
    const file = pidPath();
    writePidfile(file, { pid: 999_999, startedAt: 1_000_500, command });
    const insp = inspector();
    expect(await cleanupOrphan(file, insp, 200, quietLogger())).toBe('killed');
    expect(insp.signals).toEqual(['SIGTERM']);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const file = pidPath();
    writePidfile(file, { pid: 999_999, startedAt: 1_000_000, command });
    const insp = inspector({ aliveAfterSignals: 2 });
    expect(await cleanupOrphan(file, insp, 100, quietLogger())).toBe('killed');
    expect(insp.signals).toEqual(['SIGTERM', 'SIGKILL']);
  });

  it('leaves alone a reused pid running another command, or started at another time', async () => {
    const file = pidPath();
    writePidfile(file, { pid: 999_999, startedAt: 1_000_000, command });
    const other = inspector({ commandLine: () => ['/usr/bin/vim', 'notes.txt'] });
    expect(await cleanupOrphan(file, other, 100, quietLogger())).toBe('not-ours');
    expect(other.signals).toEqual([]);
    writePidfile(file, { pid: 999_999, startedAt: 1_000_000, command });
    const later = inspector({ startTime: () => 9_000_000 });
    expect(await cleanupOrphan(file, later, 100, quietLogger())).toBe('not-ours');
    expect(later.signals).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('does nothing when the process is gone, cannot be verified, or there is no pidfile', async () => {
    const file = pidPath();
    expect(await cleanupOrphan(file, inspector(), 100, quietLogger())).toBe('no-pidfile');
    writePidfile(file, { pid: 999_999, startedAt: 1, command });
    expect(await cleanupOrphan(file, inspector({ alive: () => false }), 100, quietLogger())).toBe('not-running');
    writePidfile(file, { pid: 999_999, startedAt: 1, command });
    const unverifiable = inspector({ commandLine: () => undefined });
    expect(await cleanupOrphan(file, unverifiable, 100, quietLogger())).toBe('unverifiable');
    expect(unverifiable.signals).toEqual([]);
    fs.writeFileSync(file, 'garbage');
    expect(await cleanupOrphan(file, inspector(), 100, quietLogger())).toBe('no-pidfile');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('compares commands as argv or as one ps string', () => {
    expect(sameCommand(command, [...command])).toBe(true);
    expect(sameCommand(command, [command.join(' ')])).toBe(true);
    expect(sameCommand(command, [...command, 'extra'])).toBe(false);
  });
});
