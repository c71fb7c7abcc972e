import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommand } from './command-args.js';
import { commandSpec } from './commands.js';
import { INSTALL_UNREACHABLE, STATUS_UNREACHABLE, unreachableAdvice, userManagerUnreachable } from '../service/user-manager.js';
import { installNextSteps, workspaceFlag } from '../service/next-steps.js';
import { LAUNCHD_LABEL, SYSTEMD_UNIT_NAME, launchdPlist, serviceFilePath, systemdUnit, type ServiceSpec } from '../service/units.js';

const SPEC = commandSpec('service')!;
/** `service status` exit codes, as LSB init scripts use them: not installed; state unknown. */
const STATUS_NOT_INSTALLED = 3;
const STATUS_UNKNOWN = 4;

/** Environment the service keeps: enough to find node and the user's files, no secrets. */
const PASS_ENV = ['PATH', 'HOME', 'LANG', 'ZCODE_HUB_STATE_DIR'];

function binPath(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'zcode-hub.js');
}

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() || (r.error?.message ?? '') };
}

/** `zcode-hub service install|uninstall|status`: a systemd user unit or a launchd agent. */
export async function runService(argv: string[]): Promise<number> {
  const dashdash = argv.indexOf('--');
  const own = dashdash === -1 ? argv : argv.slice(0, dashdash);
  const startArgs = dashdash === -1 ? [] : argv.slice(dashdash + 1);
  const line = parseCommand(SPEC, own, process);
  if (typeof line === 'number') return line;
  const action = line.sub?.name;
  if (action !== 'install' && startArgs.length > 0) {
    process.stderr.write(`zcode-hub service ${action}: unexpected arguments (see \`zcode-hub service ${action} --help\`)\n`);
    return 2;
  }
  const activate = !line.flag('no-activate');
  const user = os.userInfo().username;
  const platform = process.platform;
  const home = os.homedir();
  const file = serviceFilePath(platform, home);
  const systemd = platform !== 'darwin';

  if (action === 'install') return install({ user, home, file, systemd }, startArgs, activate);
  if (action === 'uninstall') {
    if (activate) {
      if (systemd) run('systemctl', ['--user', 'disable', '--now', SYSTEMD_UNIT_NAME]);
      else run('launchctl', ['unload', '-w', file]);
    }
    fs.rmSync(file, { force: true });
    process.stdout.write(`removed ${file}\n`);
    return 0;
  }
  if (action === 'status') {
    const installed = fs.existsSync(file);
    process.stdout.write(`${installed ? 'installed' : 'not installed'}: ${file}\n`);
    if (!installed) return STATUS_NOT_INSTALLED;
    const s = systemd ? run('systemctl', ['--user', 'is-active', SYSTEMD_UNIT_NAME]) : run('launchctl', ['list', LAUNCHD_LABEL]);
    if (systemd && !s.ok && userManagerUnreachable(s.output)) {
      process.stderr.write(unreachableAdvice(STATUS_UNREACHABLE, s.output, user));
      return STATUS_UNKNOWN;
    }
    process.stdout.write(`${systemd ? 'active' : 'launchd'}: ${s.output || 'unknown'}\n`);
    return 0;
  }
  throw new Error(`no such sub-command in the command table: ${action}`);
}

/** Where the service file goes and for whom: the user, their home, the file, and systemd (else launchd). */
interface ServiceTarget {
  user: string;
  home: string;
  file: string;
  systemd: boolean;
}

/** `service install`: writes the unit (or agent) with the folder new sessions start in, then activates it unless told not to. */
function install({ user, home, file, systemd }: ServiceTarget, startArgs: string[], activate: boolean): number {
  const env = Object.fromEntries(PASS_ENV.flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])));
  // The daemon's default workspace is its working directory: pin the folder this was run
  // from, never the home folder (every new session would start there).
  const cwd = process.cwd();
  const named = workspaceFlag(startArgs) ?? process.env.ZCODE_HUB_WORKSPACE;
  if (named === undefined && (path.resolve(cwd) === path.resolve(home) || cwd === path.parse(cwd).root)) {
    process.stderr.write(`zcode-hub service: choose the folder new sessions start in: run this from that folder, or
  zcode-hub service install -- --workspace ~/code/my-project
(the home folder is not used as the default workspace)
`);
    return 2;
  }
  const args = named === undefined ? [...startArgs, '--workspace', cwd] : startArgs;
  const stateDir = process.env.ZCODE_HUB_STATE_DIR ?? path.join(home, '.zcode-hub');
  const spec: ServiceSpec = { nodePath: process.execPath, binPath: binPath(), args, stateDir, workingDir: named ?? cwd, env };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, systemd ? systemdUnit(spec) : launchdPlist(spec), { mode: 0o644 });
  process.stdout.write(`wrote ${file}\ndefault workspace: ${named ?? cwd}\n`);
  const next = (activated: boolean) => installNextSteps({ systemd, file, activated, user, logFile: path.join(stateDir, 'launchd.log') });
  if (!activate) {
    process.stdout.write(next(false));
    return 0;
  }
  const steps = systemd
    ? [run('systemctl', ['--user', 'daemon-reload']), run('systemctl', ['--user', 'enable', '--now', SYSTEMD_UNIT_NAME])]
    : [run('launchctl', ['load', '-w', file])];
  const failed = steps.find((s) => !s.ok);
  if (failed && systemd && userManagerUnreachable(failed.output)) {
    process.stderr.write(unreachableAdvice(INSTALL_UNREACHABLE, failed.output, user));
    return 1;
  }
  if (failed) {
    process.stderr.write(`zcode-hub service: the file is written but activation failed: ${failed.output}\n`);
    process.stderr.write(next(false));
    return 1;
  }
  process.stdout.write(next(true));
  return 0;
}
