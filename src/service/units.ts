import path from 'node:path';
import { DAEMON_NODE_FLAGS } from '../daemon/node-flags.js';

/** What a service definition runs: `node <daemon flags> <bin> start` with the given flags. */
export interface ServiceSpec {
  nodePath: string;
  binPath: string;
  args: string[];
  stateDir: string;
  workingDir: string;
  /** Environment passed through (PATH, HOME …); never secrets — those live in the state dir. */
  env: Record<string, string>;
}

export const SYSTEMD_UNIT_NAME = 'zcode-hub.service';
export const LAUNCHD_LABEL = 'dev.zcode-hub';

function systemdQuote(arg: string): string {
  // systemd splits ExecStart on whitespace and interprets quotes and `%`/`$` specifiers.
  const escaped = arg.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /[\s"'\\]/.test(arg) || escaped !== arg ? `"${escaped}"` : arg;
}

/** A systemd *user* unit that starts the daemon at login and restarts it on failure. */
export function systemdUnit(spec: ServiceSpec): string {
  const exec = [spec.nodePath, ...DAEMON_NODE_FLAGS, spec.binPath, 'start', ...spec.args].map(systemdQuote).join(' ');
  const env = Object.entries(spec.env)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `Environment=${systemdQuote(`${k}=${v}`)}`);
  return [
    '[Unit]',
    'Description=zcode-hub — share the ZCode agent with your devices and editors',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `WorkingDirectory=${systemdQuote(spec.workingDir)}`,
    `ExecStart=${exec}`,
    ...env,
    // The daemon stops its child with its own ladder (EOF → 2 s → SIGTERM → 2 s → SIGKILL).
    'KillSignal=SIGTERM',
    'TimeoutStopSec=15',
    'Restart=on-failure',
    'RestartSec=2',
    'UMask=0077',
    'NoNewPrivileges=true',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A launchd agent (macOS) that starts the daemon at login and keeps it alive. */
export function launchdPlist(spec: ServiceSpec): string {
  const args = [spec.nodePath, ...DAEMON_NODE_FLAGS, spec.binPath, 'start', ...spec.args].map((a) => `    <string>${xml(a)}</string>`);
  const env = Object.entries(spec.env)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([k, v]) => [`    <key>${xml(k)}</key>`, `    <string>${xml(v)}</string>`]);
  const log = path.join(spec.stateDir, 'launchd.log');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    '  <key>Label</key>',
    `  <string>${LAUNCHD_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args,
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    ...env,
    '  </dict>',
    '  <key>WorkingDirectory</key>',
    `  <string>${xml(spec.workingDir)}</string>`,
    '  <key>RunAtLoad</key>',
    '  <true/>',
    '  <key>KeepAlive</key>',
    '  <dict>',
    '    <key>SuccessfulExit</key>',
    '    <false/>',
    '  </dict>',
    '  <key>Umask</key>',
    '  <integer>63</integer>',
    '  <key>StandardOutPath</key>',
    `  <string>${xml(log)}</string>`,
    '  <key>StandardErrorPath</key>',
    `  <string>${xml(log)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}

/** Where the service definition goes for this platform and home directory. */
export function serviceFilePath(platform: NodeJS.Platform, home: string): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  return path.join(home, '.config', 'systemd', 'user', SYSTEMD_UNIT_NAME);
}
