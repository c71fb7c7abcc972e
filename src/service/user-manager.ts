import { SYSTEMD_UNIT_NAME } from './units.js';

/**
 * `systemctl --user` that reached no user service manager: no user bus in this session (a
 * container, ssh or su without a login session, no XDG_RUNTIME_DIR), or no systemctl at all.
 * `systemctl` says so in a line ("Failed to connect to bus: No medium found") that reads, beside
 * a unit's state, like a state.
 */
export function userManagerUnreachable(output: string): boolean {
  return /Failed to connect to (the )?bus|DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR|ENOENT/i.test(output);
}

/**
 * What `service status` / `install` say when the user service manager cannot be reached:
 * `outcome` (what that meant for this command), what systemctl said, why it happens, what to do.
 */
export function unreachableAdvice(outcome: string, systemctlSaid: string, user: string): string {
  return `${outcome}
(systemctl --user said: ${systemctlSaid.split('\n')[0] ?? ''})
This is usual in a container, over ssh or su without a login session of ${user}, or where
systemd is not the init system. Either:
  - run this again in a login session of ${user} (a desktop, or ssh with systemd-logind); as
    root, \`loginctl enable-linger ${user}\` gives ${user} a service manager from boot on;
  - or run the hub without a service manager: \`zcode-hub start\` (in tmux or screen, or as a
    container's entry point: docker/compose.yaml).
`;
}

/** The first line of that advice when `service status` cannot tell whether the unit runs. */
export const STATUS_UNREACHABLE = `zcode-hub service status: the systemd user service manager is not reachable from here, so
whether ${SYSTEMD_UNIT_NAME} runs is unknown, and nothing here can start or stop it.`;

/** The first line of that advice when `service install` wrote the unit but could not start it. */
export const INSTALL_UNREACHABLE = `zcode-hub service install: the unit file is written, but the systemd user service manager is
not reachable from here, so it is not started.`;
