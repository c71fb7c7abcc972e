import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readHubFile } from '../../src/daemon/state-files.js';
import { processAlive } from '../../src/fs/process-alive.js';
import { killStarted, ready, start, tempHome, until } from './process-helpers.js';

/** `zcode-hub start` as a user runs it: a real process, signals, files in its state dir. */

afterEach(killStarted);

describe('zcode-hub start as a process', () => {
  it('port 0 works and hub.json (0600) names it; a second daemon on the same state dir refuses, naming the first', async () => {
    const { home, stateDir } = tempHome();
    const first = start(home, stateDir);
    const hub = await ready(stateDir);
    expect(hub.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fs.statSync(path.join(stateDir, 'hub.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(await (await fetch(`${hub.url}/api/health`)).text()).toBe('ok');

    const second = start(home, stateDir);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`already running on ${stateDir} (pid ${hub.pid}, ${hub.url})`);
    // The refused start touched nothing of the running one.
    expect(readHubFile(stateDir)?.pid).toBe(hub.pid);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  it('[CHD-06] SIGTERM (twice) while the child ignores SIGTERM: the stop ladder ends it, the hub exits cleanly, no orphan, hub.json removed', async () => {
    const { home, stateDir } = tempHome();
    const d = start(home, stateDir, ['--sim-arg=--ignore-sigterm']);
    const { backendPid } = await ready(stateDir);
    expect(processAlive(backendPid)).toBe(true);
    const t0 = Date.now();
    d.child.kill('SIGTERM');
    // A second signal while stopping is harmless (sent once the first is handled: identical
    // pending signals coalesce). The full SIGTERM→SIGKILL rungs are proved on the link itself
    // (test/backend), where the child can be made to ignore stdin EOF too.
    await until(() => (d.output().includes('"msg":"stopping"') ? true : undefined), 'the first signal to be handled');
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(processAlive(backendPid)).toBe(false);
    expect(fs.existsSync(path.join(stateDir, 'hub.json'))).toBe(false);
    expect(fs.existsSync(path.join(stateDir, 'daemon.lock'))).toBe(false);
  }, 30_000);

  it('a daemon killed with SIGKILL leaves a stale lock that the next start reclaims, cleaning up the orphaned child', async () => {
    const { home, stateDir } = tempHome();
    const d = start(home, stateDir);
    const { backendPid } = await ready(stateDir);
    d.child.kill('SIGKILL');
    await d.exited;
    const next = start(home, stateDir);
    const again = await ready(stateDir);
    expect(again.pid).toBe(next.child.pid);
    await until(() => (processAlive(backendPid) ? undefined : true), 'the orphaned child to be gone', 15_000);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  }, 60_000);
});
