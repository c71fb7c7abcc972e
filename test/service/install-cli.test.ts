import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installNextSteps, workspaceFlag } from '../../src/service/next-steps.js';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Runs the real CLI with a scratch HOME from `cwd`. */
function cli(home: string, cwd: string, args: string[]) {
  return spawnSync(process.execPath, [path.join(root, 'bin', 'zcode-hub.js'), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: home, ZCODE_HUB_FROM_SOURCE: '1' },
    encoding: 'utf8',
  });
}

describe('service install: what it says and which workspace it pins', () => {
  it('--help lists --no-activate', () => {
    const r = cli(os.tmpdir(), root, ['--help']);
    expect(r.stdout).toMatch(/service install\|uninstall\|status \[--no-activate\]/);
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
