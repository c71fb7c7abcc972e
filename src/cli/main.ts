import { VERSION } from '../version.js';
import { ACP_USAGE, DOCTOR_USAGE, SERVICE_USAGE, START_USAGE, wantsHelp } from './usage.js';

const HELP = `zcode-hub ${VERSION} — share one ZCode agent with every device and editor

Usage:
  zcode-hub [start] [--host 127.0.0.1] [--port 8377] [--state-dir ~/.zcode-hub]
                    [--backend auto|zcode|sim] [--zcode-cli PATH] [--zcode-node PATH] [--workspace DIR]
                    [--name NAME] [--public-url URL] [--peer ORIGIN]... [--scenario NAME]
                    [--provider-file PATH] [--default-mode build] [--trust-proxy N]
                    [--tls-cert FILE --tls-key FILE] [--log-level info] [--config FILE]
                    [--record-wire FILE]
  zcode-hub token create --scope view|operate|admin --name NAME [--person P] [--ttl 7d] | list | revoke ID
  zcode-hub people [list] | set TOKEN_ID PERSON
                                     whose device each token is (shown beside prompts and answers)
  zcode-hub pair [--scope operate] [--person P]
                                     one-time pairing code + URL + QR in the terminal
  zcode-hub pair --into ORIGIN       add this machine to the app at ORIGIN (another hub's web app)
  zcode-hub public-url add URL | remove URL | list
                                     another public address (a tunnel) without a restart
  zcode-hub peers add ORIGIN | remove ORIGIN | list
                                     app origins this hub accepts (--allow-origin is an alias of --peer)
  zcode-hub policy [show] | set FILE | check --tool NAME [--command CMD] [--path P] | grants | revoke ID
                                     approval rules: who may answer which request (admin)
  zcode-hub acp                      ACP agent on stdio for editors (starts the daemon if needed)
  zcode-hub doctor                   health and exposure report
  zcode-hub service install|uninstall|status [--no-activate] [-- <start flags>]
                                     systemd user unit / launchd agent; --no-activate only writes it
  zcode-hub sim [flags]              the simulator alone, speaking the app-server protocol on stdio
  zcode-hub --version | --help       every command also answers --help (e.g. zcode-hub token --help)

Every flag of start also reads ZCODE_HUB_<NAME> from the environment (e.g. ZCODE_HUB_PORT).
`;

type Command = (argv: string[]) => Promise<number | undefined>;

/** Commands whose `--help` is answered here; the others parse it themselves. */
const USAGES: Record<string, string> = { start: START_USAGE, doctor: DOCTOR_USAGE, acp: ACP_USAGE, service: SERVICE_USAGE };

/** Sub-commands, loaded lazily so `zcode-hub acp` never pays for the daemon's imports. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  start: async () => (await import('./start.js')).runStart,
  service: async () => (await import('./service.js')).runService,
  doctor: async () => (await import('./doctor.js')).runDoctor,
  acp: async () => (await import('./acp.js')).runAcp,
  token: async () => async (argv) => (await import('./token.js')).runTokenCli(argv, process),
  people: async () => async (argv) => (await import('./people.js')).runPeopleCli(argv, process),
  pair: async () => async (argv) => (await import('./pair.js')).runPairCli(argv, process),
  'public-url': async () => async (argv) => (await import('./public-url.js')).runPublicUrlCli(argv, process),
  peers: async () => async (argv) => (await import('./peers.js')).runPeersCli(argv, process),
  policy: async () => async (argv) => (await import('./policy.js')).runPolicyCli(argv, process),
  sim: async () => async (argv) => {
    const { runSimulatorCli } = await import('../simulator/index.js');
    await runSimulatorCli(argv);
  },
};

/** Every sub-command's name. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/** Entry point of the `zcode-hub` binary. */
export async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const name = first === undefined || first.startsWith('-') ? 'start' : first;
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`zcode-hub: unknown command '${name}'\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const usage = USAGES[name];
  if (usage !== undefined && wantsHelp(args)) {
    process.stdout.write(usage);
    return;
  }
  // A command's own parser would read `pair --into --help` as --into's missing value: a help
  // asked anywhere (before `--`) is answered, whatever else the line holds.
  const code = await (await load())(wantsHelp(args) ? ['--help'] : args);
  if (typeof code === 'number') process.exitCode = code;
}
