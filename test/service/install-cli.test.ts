import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installNextSteps, workspaceFlag } from '../../src/service/next-steps.js';
import { userManagerUnreachable } from '../../src/service/user-manager.js';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Runs the real CLI with a scratch HOME from `cwd`. */
function cli(home: string, cwd: string, args: string[]) {
  return spawnSync(process.execPath, [path.join(root, 'bin', 'zcode-hub.js'), ...args], {
    cwd,
    // No DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR: `systemctl --user` finds no user bus.
    // The bundle of the sources the suite builds, when there is one (tsx otherwise).
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ZCODE_HUB_FROM_SOURCE: '1',
      ...(process.env.ZCODE_HUB_ENTRY ? { ZCODE_HUB_ENTRY: process.env.ZCODE_HUB_ENTRY } : {}),
    },
    encoding: 'utf8',
  });
}

describe('service install: what it says and which workspace it pins', () => {
  it('--help lists the sub-commands; install --help lists --no-activate', () => {
    expect(cli(os.tmpdir(), root, ['--help']).stdout).toMatch(/zcode-hub service install\|uninstall\|status\n/);
    expect(cli(os.tmpdir(), root, ['service', 'install', '--help']).stdout).toMatch(/^ {2}--no-activate +only write/m);
  });

  it('--no-activate prints the systemctl step and loginctl enable-linger, and pins the folder it ran from', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-home-'));
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-project-'));
    const r = cli(home, project, ['service', 'install', '--no-activate']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('systemctl --user daemon-reload && systemctl --user enable --now zcode-hub.service');
    expect(r.stdout).toMatch(/loginctl enable-linger \S+/);
    expect(r.stdout).toContain(`default workspace: ${project}`);
    const unit = fs.readFileSync(path.join(home, '.config', 'systemd', 'user', 'zcode-hub.service'), 'utf8');
    expect(unit).toContain(`--workspace ${project}`);
    expect(unit).toContain(`WorkingDirectory=${project}`);
    expect(unit).not.toContain(`WorkingDirectory=${home}\n`);
  });

  it('run from HOME without --workspace: refused with the fix, nothing written', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-home-'));
    const r = cli(home, home, ['service', 'install', '--no-activate']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('zcode-hub service install -- --workspace');
    expect(fs.existsSync(path.join(home, '.config', 'systemd', 'user', 'zcode-hub.service'))).toBe(false);
    // Naming it works from anywhere.
    const named = cli(home, home, ['service', 'install', '--no-activate', '--', '--workspace', '/srv/code']);
    expect(named.status).toBe(0);
    expect(named.stdout).toContain('default workspace: /srv/code');
  });

  it.runIf(process.platform === 'linux')(
    'without a user service manager: status and install say so plainly and exit non-zero, never "active: Failed to connect to bus"',
    () => {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-home-'));
      const project = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-project-'));
      const notInstalled = cli(home, project, ['service', 'status']);
      expect(notInstalled.status).toBe(3);
      expect(notInstalled.stdout).toMatch(/^not installed: /);

      const install = cli(home, project, ['service', 'install']);
      expect(install.status).toBe(1);
      expect(install.stdout).toContain('wrote ');
      expect(install.stderr).toMatch(
        /^zcode-hub service install: the unit file is written, but the systemd user service manager is\nnot reachable/,
      );
      const status = cli(home, project, ['service', 'status']);
      expect({ status: status.status, stdout: status.stdout }).toEqual({
        status: 4,
        stdout: `installed: ${path.join(home, '.config', 'systemd', 'user', 'zcode-hub.service')}\n`,
      });
      expect(status.stderr).toMatch(/^zcode-hub service status: the systemd user service manager is not reachable from here/);
      // What systemctl said, once, as the reason; and what to do instead.
      expect(status.stderr).toMatch(/\(systemctl --user said: .+\)/);
      expect(status.stderr).toContain('loginctl enable-linger');
      expect(status.stderr).toContain('`zcode-hub start`');
    },
  );

  it('what systemctl says when it reaches no user service manager, and what it says otherwise', () => {
    for (const said of [
      'Failed to connect to bus: No medium found',
      'Failed to connect to user scope bus via local transport: $DBUS_SESSION_BUS_ADDRESS and $XDG_RUNTIME_DIR not defined',
      'spawnSync systemctl ENOENT',
    ])
      expect(userManagerUnreachable(said), said).toBe(true);
    for (const said of ['inactive', 'failed', 'activating', 'Unit zcode-hub.service could not be found.'])
      expect(userManagerUnreachable(said), said).toBe(false);
  });

  it('next steps per platform', () => {
    const mac = installNextSteps({
      systemd: false,
      file: '/h/Library/LaunchAgents/dev.zcode-hub.plist',
      activated: false,
      user: 'ann',
      logFile: '/h/.zcode-hub/launchd.log',
    });
    expect(mac).toContain('launchctl load -w /h/Library/LaunchAgents/dev.zcode-hub.plist');
    expect(mac).not.toContain('loginctl');
    const linux = installNextSteps({ systemd: true, file: 'x', activated: true, user: 'ann', logFile: 'y' });
    expect(linux).toContain('loginctl enable-linger ann');
    expect(linux).toContain('journalctl --user -u zcode-hub.service');
    expect(linux).not.toContain('enable --now');
    expect(workspaceFlag(['--port', '1', '--workspace', '/w'])).toBe('/w');
    expect(workspaceFlag(['--workspace=/x'])).toBe('/x');
    expect(workspaceFlag([])).toBeUndefined();
  });
});
