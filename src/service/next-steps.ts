import { LAUNCHD_LABEL, SYSTEMD_UNIT_NAME } from './units.js';

/** What `service install` tells the user after writing the file (pure; tested). */
export function installNextSteps(opts: { systemd: boolean; file: string; activated: boolean; user: string; logFile: string }): string {
  const { systemd, file, activated, user } = opts;
  const lines: string[] = [];
  if (systemd) {
    if (activated) lines.push('service enabled and started; it starts again at every login');
    else
      lines.push(
        'next, to start it now and at every login:',
        `  systemctl --user daemon-reload && systemctl --user enable --now ${SYSTEMD_UNIT_NAME}`,
      );
    lines.push(
      'keep it running after you log out (and start it at boot):',
      `  loginctl enable-linger ${user}`,
      `logs:   journalctl --user -u ${SYSTEMD_UNIT_NAME} -f`,
    );
  } else {
    if (activated) lines.push('service loaded; it starts again at every login');
    else lines.push('next, to start it now and at every login:', `  launchctl load -w ${file}`);
    lines.push(`logs:   ${opts.logFile}`, `status: launchctl list ${LAUNCHD_LABEL}`);
  }
  lines.push('then pair a phone: zcode-hub pair');
  return `${lines.join('\n')}\n`;
}

/** The `--workspace` value among start flags (`--workspace X` or `--workspace=X`), if any. */
export function workspaceFlag(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--workspace') return args[i + 1];
    if (a.startsWith('--workspace=')) return a.slice('--workspace='.length);
  }
  return undefined;
}
