/** Usage texts of the sub-commands that have no parser of their own for `--help`. */

export const START_USAGE = `Usage: zcode-hub [start] [--host 127.0.0.1] [--port 8377] [--state-dir ~/.zcode-hub]
                       [--backend auto|zcode|sim] [--zcode-cli PATH] [--zcode-node PATH] [--workspace DIR]
                       [--name NAME] [--public-url URL] [--peer ORIGIN]... [--scenario NAME]
                       [--provider-file PATH] [--default-mode build] [--trust-proxy N]
                       [--tls-cert FILE --tls-key FILE] [--log-level info] [--config FILE]
                       [--record-wire FILE]
Runs the daemon in the foreground until SIGINT/SIGTERM. With --backend auto (the default) it runs
the ZCode CLI when one is found and the bundled simulator otherwise.
--record-wire FILE writes every message between the hub and the agent child to FILE (NDJSON,
0600, secrets redacted, bounded by limits.wireRecordMaxBytes) for a bug report.
Every flag also reads ZCODE_HUB_<NAME> from the environment (e.g. ZCODE_HUB_PORT).
`;

export const DOCTOR_USAGE = `Usage: zcode-hub doctor [--json] [start flags]
       zcode-hub doctor --probe [--json FILE] [--probe-no-prompt] [--record-wire FILE] [start flags]
       zcode-hub doctor --probe --daemon [--json FILE] [--probe-no-prompt] [--state-dir DIR]
Health and exposure report: asks the running daemon for its live report, or checks the
configuration the start flags describe when none runs. Exits 1 when a check fails.
--probe starts its own child of the backend the start flags choose (--backend, --zcode-cli,
--zcode-node) in scratch directories, walks a scripted conversation (create, subscribe, a
prompt, stop, resume, list, delete) and prints what answered as the hub expects: ok, differs
(field path and value seen) or missing. --json FILE writes the same report as JSON.
--daemon has the running daemon probe the backend it was started with (as Settings › Doctor
in the web app does) instead of the one these flags choose.
`;

export const ACP_USAGE = `Usage: zcode-hub acp [start flags]
An ACP agent on stdio for editors (stdout carries protocol lines only, logs go to stderr).
Attaches to the daemon of the state dir, starting it when none runs (on the host and port it
last ran on). Closing stdin detaches; the daemon and its turns live on.
`;

export const SERVICE_USAGE = `Usage: zcode-hub service install|uninstall|status [--no-activate] [-- <start flags>]
A systemd user unit (Linux) or a launchd agent (macOS) that keeps the daemon running.
--no-activate only writes the unit file.
`;

/** True when `--help` or `-h` comes before any `--` (what follows `--` belongs to another command). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
