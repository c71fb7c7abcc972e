import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runStopCli } from '../../src/cli/stop.js';
import { readHubFile } from '../../src/daemon/state-files.js';
import { processAlive } from '../../src/fs/process-alive.js';
import { LIMITS } from '../../src/limits.js';
import { collector } from '../helpers/cli-io.js';
import { budget, cli, DAEMON, killStarted, ready, start, tempHome, until } from './process-helpers.js';

/** `zcode-hub stop` against real daemons: it stops the hub of the state dir and waits for it, within a bound. */

afterEach(() => killStarted());

describe('zcode-hub stop', () => {
  it('stops the running hub (exit 0, hub.json gone, the daemon exits 0); with none running says so, exit 0', {
    timeout: budget(DAEMON + 2),
  }, async () => {
    const { home, stateDir } = tempHome();
    const daemon = start(home, stateDir);
    const { pid, url } = await ready(stateDir);
    // The daemon is a child of this test, which is blocked in spawnSync meanwhile: once it exits it
    // stays a zombie until reaped, as under any parent that is busy; stop counts that as exited.
    const r = cli(home, ['stop', '--state-dir', stateDir]);
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
      status: 0,
      stdout: `stopped the hub on ${url} (pid ${pid})\n`,
      stderr: '',
    });
    expect(await daemon.exited).toBe(0);
    expect(readHubFile(stateDir)).toBeUndefined();
    const again = cli(home, ['stop', '--state-dir', stateDir]);
    expect({ status: again.status, stdout: again.stdout }).toEqual({
      status: 0,
      stdout: `no hub is running for state dir ${path.resolve(stateDir)}\n`,
    });
  });

  it('a hub still running when the wait (limits.stopWaitMs) runs out: exit 1 with what to do; it still stops', {
    timeout: budget(DAEMON + 1),
  }, async () => {
    const { home, stateDir } = tempHome();
    const daemon = start(home, stateDir);
    const { pid } = await ready(stateDir);
    const io = { ...collector(), env: { HOME: home } };
    // A wait of 0 is crossed at once: a graceful shutdown (sockets, the agent child) is never
    // done between the signal and the first look.
    expect(await runStopCli(['--state-dir', stateDir], io, 0)).toBe(1);
    expect(io.err()).toBe(
      `zcode-hub stop: the hub (pid ${pid}) was asked to stop but still runs after 0 s; ` +
        `its log says why (${path.join(path.resolve(stateDir), 'daemon.log')} when an editor started it); \`kill -9 ${pid}\` ends it at once.\n`,
    );
    expect(await daemon.exited).toBe(0);
  });

  it('a process hub.json names that does not answer as the hub is not signalled', { timeout: budget(DAEMON + 1) }, async () => {
    const { home, stateDir } = tempHome();
    const daemon = start(home, stateDir);
    const { pid } = await ready(stateDir);
    // Stopped (SIGSTOP), the hub is alive but answers nothing: stop must not guess.
    process.kill(pid, 'SIGSTOP');
    try {
      const io = { ...collector(), env: { HOME: home } };
      expect(await runStopCli(['--state-dir', stateDir], io)).toBe(1);
      expect(io.err()).toMatch(new RegExp(`^zcode-hub stop: process ${pid} named in .*hub\\.json does not answer as this hub`));
      // Why, once: the sentence already says where the hub was looked for.
      expect(io.err()).toContain(
        ` (no answer within ${LIMITS.cliDaemonCallTimeoutMs / 1000} s); not stopping it. If it is the hub, \`kill ${pid}\` stops it.`,
      );
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(processAlive(pid)).toBe(true);
    expect(fs.existsSync(path.join(stateDir, 'hub.json'))).toBe(true);
    daemon.child.kill('SIGTERM');
    expect(await until(async () => ((await daemon.exited) === 0 ? true : undefined), 'the daemon to exit')).toBe(true);
  });
});
