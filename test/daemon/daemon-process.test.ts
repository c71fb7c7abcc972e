import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readHubFile } from '../../src/daemon/state-files.js';
import { processAlive } from '../../src/fs/process-alive.js';

/** `zcode-hub start` as a user runs it: a real process, signals, files in its state dir. */

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, 'bin', 'zcode-hub.js');
const started: ChildProcess[] = [];
const dirs: string[] = [];

function tempHome(): { home: string; stateDir: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-daemon-'));
  dirs.push(home);
  return { home, stateDir: path.join(home, 'state') };
}

function start(home: string, stateDir: string, extra: string[] = []): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [bin, 'start', '--backend', 'sim', '--port', '0', '--state-dir', stateDir, '--workspace', home, '--provider-file', path.join(home, 'p.json'), ...extra], {
    env: { ...process.env, HOME: home, ZCODE_HUB_FROM_SOURCE: '1', ZCODE_HUB_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function ready(stateDir: string): Promise<{ pid: number; url: string; backendPid: number }> {
  return until(async () => {
    const hub = readHubFile(stateDir);
    if (!hub) return undefined;
    const token = fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim();
    try {
      const status = (await (await fetch(`${hub.url}/api/status`, { headers: { authorization: `Bearer ${token}` } })).json()) as { backend: { state: string; pid?: number } };
      return status.backend.state === 'ready' && status.backend.pid ? { pid: hub.pid, url: hub.url, backendPid: status.backend.pid } : undefined;
    } catch {
      return undefined;
    }
  }, 'the daemon to be ready');
}

afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

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
