/**
 * The ZCode CLI's version, read at start from the package.json beside zcode.cjs and checked
 * against the table of versions the hub was verified against (docs/APP-SERVER.md §16): a
 * daemon on a stand-in CLI of another version warns once in its log, in `doctor` and in
 * `/api/health`; on a verified one it says so and warns nowhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliVersionStanding, readCliVersion, VERIFIED_CLI_VERSIONS } from '../../src/backend/cli-version.js';
import { fakeInstall } from '../fixtures/fake-install.js';
import { budget, cli, DAEMON, killStarted, ready, start, tempHome } from './process-helpers.js';

afterEach(killStarted);

async function health(
  url: string,
): Promise<{ backend: { kind: string; cliVersion?: { version?: string; verified: boolean; warning?: string } } }> {
  return (await (await fetch(`${url}/api/health`, { headers: { accept: 'application/json' } })).json()) as never;
}

describe('the ZCode CLI version', () => {
  it('a version outside the table: one warning in the log, a WARN in doctor, and the version in /api/health', {
    timeout: budget(DAEMON + 2), // the daemon and its child, doctor, the child restarted
  }, async () => {
    const { home, stateDir } = tempHome();
    const flags = fakeInstall(home, {}, '0.99.0');
    const d = start(home, stateDir, flags);
    const { url } = await ready(stateDir);
    const body = await health(url);
    expect(body.backend.kind).toBe('zcode');
    expect(body.backend.cliVersion).toMatchObject({
      version: '0.99.0',
      verified: false,
      warning: expect.stringMatching(/0\.99\.0, which this hub was not verified against \(verified: 0\.16\.9\)/),
    });
    const doctor = cli(home, ['doctor', '--state-dir', stateDir, '--provider-file', path.join(home, 'p.json'), ...flags]);
    expect(doctor.stdout).toMatch(
      /^WARN the ZCode CLI is 0\.99\.0, which this hub was not verified against.*\n\s+fix: run `zcode-hub doctor --probe/m,
    );
    // A restart of the child does not repeat it: the version is read once per start.
    const token = fs.readFileSync(path.join(stateDir, 'admin.token'), 'utf8').trim();
    expect((await fetch(`${url}/api/backend/restart`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).ok).toBe(true);
    await ready(stateDir);
    expect(d.output().match(/"msg":"backend spawned"/g)?.length).toBeGreaterThanOrEqual(2);
    expect(d.output().match(/which this hub was not verified against/g)).toHaveLength(1);
  });

  it('a verified version: ok in doctor, verified in /api/health, no warning', { timeout: budget(DAEMON + 1) }, async () => {
    const { home, stateDir } = tempHome();
    const flags = fakeInstall(home, {}, VERIFIED_CLI_VERSIONS[0]);
    const d = start(home, stateDir, flags);
    const { url } = await ready(stateDir);
    expect((await health(url)).backend.cliVersion).toEqual({ version: '0.16.9', verified: true });
    const doctor = cli(home, ['doctor', '--state-dir', stateDir, '--provider-file', path.join(home, 'p.json'), ...flags]);
    expect(doctor.stdout).toMatch(/^ok {3}ZCode CLI 0\.16\.9: a version this hub was verified against$/m);
    expect(d.output()).not.toMatch(/not verified against/);
  });

  it('the simulator reports no CLI version', { timeout: budget(DAEMON) }, async () => {
    const { home, stateDir } = tempHome();
    start(home, stateDir);
    const { url } = await ready(stateDir);
    expect((await health(url)).backend.cliVersion).toBeUndefined();
  });

  it('an unreadable or missing package.json is an unknown version, with the same advice', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-cliv-'));
    try {
      expect(readCliVersion(path.join(dir, 'zcode.cjs'))).toMatchObject({
        verified: false,
        warning: expect.stringMatching(/version is unknown .*package\.json.*doctor --probe/),
      });
      fs.writeFileSync(path.join(dir, 'package.json'), '{not json');
      expect(readCliVersion(path.join(dir, 'zcode.cjs')).version).toBeUndefined();
      expect(cliVersionStanding('0.16.9')).toEqual({ version: '0.16.9', verified: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
