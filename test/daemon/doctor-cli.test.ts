import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAdminToken } from '../../src/auth/admin-token.js';
import { readHubFile } from '../../src/daemon/state-files.js';
import { budget, cli, DAEMON, killStarted, ready, start, tempHome, until } from './process-helpers.js';

/** `zcode-hub doctor` against a live daemon and offline, healthy and with injected problems. */

afterEach(killStarted);

const flags = (home: string, stateDir: string) => [
  '--state-dir',
  stateDir,
  '--provider-file',
  path.join(home, 'p.json'),
  '--backend',
  'sim',
];

describe('zcode-hub doctor', () => {
  it('reports a healthy default daemon as healthy, then flags a world-readable secret and an invalid provider file', {
    timeout: budget(DAEMON + 2),
  }, async () => {
    const { home, stateDir } = tempHome();
    const d = start(home, stateDir);
    await ready(stateDir);
    const healthy = cli(home, ['doctor', ...flags(home, stateDir)]);
    expect(healthy.stdout).toMatch(/^ok {3}daemon running on 127\.0\.0\.1:\d+$/m);
    expect(healthy.stdout).toMatch(/^ok {3}backend sim ready/m);
    expect(healthy.stdout).not.toMatch(/^FAIL/m);
    expect(healthy.status).toBe(0);

    fs.chmodSync(path.join(stateDir, 'admin.token'), 0o644);
    fs.writeFileSync(path.join(home, 'p.json'), JSON.stringify({ schemaVersion: 1, config: { unknownKey: true } }));
    const sick = cli(home, ['doctor', ...flags(home, stateDir)]);
    expect(sick.status).toBe(1);
    expect(sick.stdout).toMatch(/^FAIL .*admin\.token is 0644: readable by other users\n\s+fix: chmod 600 .*admin\.token$/m);
    expect(sick.stdout).toMatch(/^FAIL provider file .* is invalid/m);
    // The same report over REST for admins.
    const hub = readHubFile(stateDir)!;
    const res = await fetch(`${hub.url}/api/doctor`, { headers: { authorization: `Bearer ${readAdminToken(stateDir)!}` } });
    expect(((await res.json()) as { healthy: boolean }).healthy).toBe(false);
    d.child.kill('SIGTERM');
    await d.exited;
  });

  it('flags a backend in failed', { timeout: budget(2 * DAEMON + 1) }, async () => {
    const { home, stateDir } = tempHome();
    const config = path.join(home, 'hub.json.config');
    fs.writeFileSync(config, JSON.stringify({ limits: { restartBackoffBaseMs: 20, restartBackoffMaxMs: 50, crashLoopCount: 3 } }));
    start(home, stateDir, ['--config', config, '--sim-arg=--exit-immediately']);
    const hub = await until(() => readHubFile(stateDir), 'hub.json');
    await until(
      async () => {
        const body = (await (await fetch(`${hub.url}/api/health`, { headers: { accept: 'application/json' } })).json()) as {
          backend: { state: string };
        };
        return body.backend.state === 'failed' ? true : undefined;
      },
      'the backend to fail',
      budget(DAEMON),
    );
    const report = cli(home, ['doctor', ...flags(home, stateDir)]);
    expect(report.status).toBe(1);
    expect(report.stdout).toMatch(/^FAIL backend sim is in 'failed' after \d+ restarts/m);
  });

  it('offline: flags a non-loopback bind without TLS or an https public URL', { timeout: budget(2) }, () => {
    const { home, stateDir } = tempHome();
    const report = cli(home, ['doctor', ...flags(home, stateDir), '--host', '0.0.0.0']);
    expect(report.status).toBe(1);
    expect(report.stdout).toMatch(/^WARN no daemon is running/m);
    expect(report.stdout).toMatch(/^FAIL bound to 0\.0\.0\.0 without TLS/m);
    const tunnelled = cli(home, ['doctor', ...flags(home, stateDir), '--host', '0.0.0.0', '--public-url', 'https://hub.example.com']);
    expect(tunnelled.stdout).not.toMatch(/^FAIL bound/m);
  });
});
