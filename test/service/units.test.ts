import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchdPlist, serviceFilePath, systemdUnit, type ServiceSpec } from '../../src/service/units.js';

const spec: ServiceSpec = {
  nodePath: '/usr/bin/node',
  binPath: '/opt/zcode hub/bin/zcode-hub.js',
  args: ['--port', '9000', '--public-url', 'https://hub.example.com/a%20b'],
  stateDir: '/home/ann/.zcode-hub',
  workingDir: '/home/ann',
  env: { PATH: '/usr/bin:/bin', HOME: '/home/ann' },
};

const root = path.resolve(import.meta.dirname, '..', '..');

describe('service definitions', () => {
  it('systemd user unit starts the daemon at login, quotes paths and escapes specifiers', () => {
    const unit = systemdUnit(spec);
    expect(unit).toContain(
      'ExecStart=/usr/bin/node --max-semi-space-size=2 "/opt/zcode hub/bin/zcode-hub.js" start --port 9000 --public-url "https://hub.example.com/a%%20b"',
    );
    expect(unit).toContain('WantedBy=default.target');
    expect(unit).toContain('Restart=on-failure');
    expect(unit).toContain('UMask=0077');
    expect(unit).toContain('Environment=PATH=/usr/bin:/bin');
    expect(unit).not.toMatch(/token|secret/i);
  });

  it('launchd agent runs at load, keeps alive on failure and escapes XML', () => {
    const plist = launchdPlist({ ...spec, args: ['--workspace', '/w/<a&b>'] });
    expect(plist).toContain('<string>dev.zcode-hub</string>');
    expect(plist).toContain('<key>RunAtLoad</key>\n  <true/>');
    expect(plist).toContain('<string>/w/&lt;a&amp;b&gt;</string>');
    expect(plist).toContain('<string>start</string>');
    expect(plist).toContain('<string>--max-semi-space-size=2</string>');
    expect(plist).toContain('<integer>63</integer>');
  });

  it('places the file per platform', () => {
    expect(serviceFilePath('linux', '/h')).toBe('/h/.config/systemd/user/zcode-hub.service');
    expect(serviceFilePath('darwin', '/h')).toBe('/h/Library/LaunchAgents/dev.zcode-hub.plist');
  });

  it('`zcode-hub service install --no-activate` writes the unit into HOME, status sees it, uninstall removes it', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-home-'));
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [path.join(root, 'bin', 'zcode-hub.js'), 'service', ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: home, ZCODE_HUB_FROM_SOURCE: '1' },
        encoding: 'utf8',
      });
    const install = cli(['install', '--no-activate', '--', '--port', '9100']);
    expect(install.stderr).toBe('');
    expect(install.status).toBe(0);
    const file = path.join(home, '.config', 'systemd', 'user', 'zcode-hub.service');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/ExecStart=.*zcode-hub\.js start --port 9100/);
    expect(cli(['status']).stdout).toContain('installed:');
    expect(cli(['uninstall', '--no-activate']).status).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    expect(cli(['status']).status).toBe(3);
  });
});
