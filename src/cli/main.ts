import { VERSION } from '../version.js';
import { commandSpec } from './commands.js';
import { helpFor, topUsage, wantsHelp } from './usage.js';

type Command = (argv: string[]) => Promise<number | undefined>;

/**
 * The runner of each command of the table (commands.ts), in its order, loaded lazily so
 * `zcode-hub acp` never pays for the daemon's imports.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  start: async () => (await import('./start.js')).runStart,
  stop: async () => async (argv) => (await import('./stop.js')).runStopCli(argv, process),
  token: async () => async (argv) => (await import('./token.js')).runTokenCli(argv, process),
  people: async () => async (argv) => (await import('./people.js')).runPeopleCli(argv, process),
  pair: async () => async (argv) => (await import('./pair.js')).runPairCli(argv, process),
  'public-url': async () => async (argv) => (await import('./public-url.js')).runPublicUrlCli(argv, process),
  peers: async () => async (argv) => (await import('./peers.js')).runPeersCli(argv, process),
  policy: async () => async (argv) => (await import('./policy.js')).runPolicyCli(argv, process),
  acp: async () => (await import('./acp.js')).runAcp,
  doctor: async () => (await import('./doctor.js')).runDoctor,
  service: async () => (await import('./service.js')).runService,
  sim: async () => async (argv) => {
    const { runSimulatorCli } = await import('../simulator/index.js');
    await runSimulatorCli(argv);
  },
};

/** Every command's name. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/** Entry point of the `zcode-hub` binary. */
export async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  // `zcode-hub help token create` reads as `zcode-hub token create --help`.
  // What follows a `--` is another command's: never let `help` run it.
  if (first === 'help' && rest[0] !== undefined && rest[0] in COMMANDS)
    return main([...(rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest), '--help']);
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(topUsage(VERSION));
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
    process.stderr.write(`zcode-hub: unknown command '${name}' (see \`zcode-hub --help\`)\n`);
    process.exitCode = 2;
    return;
  }
  // A help asked anywhere before `--` is answered here, from the command table, whatever else the
  // line holds (a command's parser would read `pair --into --help` as --into's missing value).
  const spec = commandSpec(name);
  if (spec && !spec.ownHelp && wantsHelp(args)) {
    process.stdout.write(helpFor(spec, args));
    return;
  }
  const code = await (await load())(wantsHelp(args) ? ['--help'] : args);
  if (typeof code === 'number') process.exitCode = code;
}
