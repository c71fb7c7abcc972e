import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readHubFile } from '../../src/daemon/state-files.js';
import { processAlive } from '../../src/fs/process-alive.js';
import { budget, cli, DAEMON, killStarted, ready, start, tempHome, until } from './process-helpers.js';

/** `zcode-hub start` as a user runs it: a real process, signals, files in its state dir. */

afterEach(killStarted);

describe('zcode-hub start as a process', () => {
  it('port 0 works and hub.json (0600) names it; a second daemon on the same state dir refuses, naming the first', {
    timeout: budget(DAEMON + 1),
  }, async () => {
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

  it('a port another program holds: a one-line error with the fix, exit 1, nothing left in the state dir', {
    timeout: budget(1),
  }, async () => {
    const { home, stateDir } = tempHome();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const d = start(home, stateDir, ['--port', String(port)]);
      expect(await d.exited).toBe(1);
      expect(d.output()).toContain(
        `zcode-hub: cannot listen on 127.0.0.1:${port}: another program uses that port. Stop it, or choose another port with --port N (--port 0 picks a free one).`,
      );
      expect(fs.existsSync(path.join(stateDir, 'hub.json'))).toBe(false);
      expect(fs.existsSync(path.join(stateDir, 'daemon.lock'))).toBe(false);
    } finally {
      holder.close();
    }
  });

  it('[CHD-06] SIGTERM, then more SIGTERMs until exit, while the child ignores SIGTERM: the stop ladder ends it, the hub exits cleanly, no orphan, hub.json removed', {
    timeout: budget(DAEMON),
  }, async () => {
    const { home, stateDir } = tempHome();
    const d = start(home, stateDir, ['--sim-arg=--ignore-sigterm']);
    const { backendPid } = await ready(stateDir);
    expect(processAlive(backendPid)).toBe(true);
    const t0 = Date.now();
    d.child.kill('SIGTERM');
    // Further signals while stopping are harmless, up to the last moment of the process (sent
    // once the first is handled, since identical pending signals coalesce; then every few ms
    // until exit, so one lands in the process's own teardown). The full SIGTERM→SIGKILL rungs
    // are proved on the link itself (test/backend), where the child can ignore stdin EOF too.
    await new Promise<void>((resolve) => {
      const handled = () => d.output().includes('"msg":"stopping"') && (d.child.stdout!.off('data', handled), resolve());
      d.child.stdout!.on('data', handled);
    });
    let exited = false;
    void d.exited.then(() => (exited = true));
    while (!exited) {
      d.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(await d.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(d.output()).toContain('"msg":"stopped"');
    expect(processAlive(backendPid)).toBe(false);
    expect(fs.existsSync(path.join(stateDir, 'hub.json'))).toBe(false);
    expect(fs.existsSync(path.join(stateDir, 'daemon.lock'))).toBe(false);
  });

  it('a daemon killed with SIGKILL leaves a stale lock that the next start reclaims, cleaning up the orphaned child', {
    timeout: budget(2 * DAEMON),
  }, async () => {
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
  });
});

describe('a workspace root the hub could never use', () => {
  it('--workspace equal to or inside the state dir: start refuses at once naming the fix (exit 2), nothing left running', {
    timeout: budget(2),
  }, async () => {
    const { home, stateDir } = tempHome();
    fs.mkdirSync(path.join(stateDir, 'inner'), { recursive: true });
    for (const workspace of [stateDir, path.join(stateDir, 'inner')]) {
      const d = start(home, stateDir, ['--workspace', home, '--workspace', workspace]);
      expect(await d.exited).toBe(2);
      expect(d.output()).toContain(`zcode-hub: workspace root ${workspace} is inside the hub's private files (state dir ${stateDir})`);
      expect(d.output()).toContain('--workspace DIR');
      expect(fs.existsSync(path.join(stateDir, 'hub.json'))).toBe(false);
      expect(fs.existsSync(path.join(stateDir, 'daemon.lock'))).toBe(false);
    }
  });

  it('doctor, asked about the same flags, fails the workspace check with the same fix (exit 1)', { timeout: budget(2) }, () => {
    const { home, stateDir } = tempHome();
    const inner = path.join(stateDir, 'inner');
    fs.mkdirSync(inner, { recursive: true, mode: 0o700 });
    const flags = ['--state-dir', stateDir, '--backend', 'sim', '--provider-file', path.join(home, 'p.json')];
    const sick = cli(home, ['doctor', ...flags, '--workspace', home, '--workspace', inner]);
    expect(sick.status).toBe(1);
    expect(sick.stdout).toMatch(
      new RegExp(
        `^FAIL workspace root ${inner} is inside the hub's private files \\(state dir ${stateDir}\\).*\\n\\s+fix: .*--workspace DIR`,
        'm',
      ),
    );
    const healthy = cli(home, ['doctor', ...flags, '--workspace', home]);
    expect(healthy.stdout).not.toMatch(/^FAIL/m);
  });
});
