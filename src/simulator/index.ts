import { parseRunnableOptions } from './in-process.js';
import { FLAG_NAMES } from './options.js';
import { runSimulator } from './process-main.js';
import { runReplay } from './replay/run-replay.js';
import { SCENARIO_NAMES } from './scenarios/select.js';

export { simulatorSpawnSpec } from './launcher.js';
export { parseSimOptions, type SimOptions } from './options.js';
export { runSimulator, type SimulatorExit } from './process-main.js';
export { startSimulatorInProcess, type InProcessSimulatorRun } from './in-process.js';

const USAGE = `Usage: zcode-hub sim [--FLAG VALUE]…
The simulator alone, speaking the app-server protocol on stdio (what the hub runs as its child
with --backend sim). Every flag also reads ZCODE_SIM_<FLAG> from the environment; what each
does and its default: src/simulator/README.md.
Flags: ${FLAG_NAMES.map((f) => `--${f}`).join(' ')}
Scenarios (--scenario, default: default): ${SCENARIO_NAMES.join(', ')}
Example:
  zcode-hub sim --scenario permission --turn-delay-scale 0.2 --data-dir /tmp/sim`;

/**
 * Runs the simulator on this process's stdio (`zcode-hub sim`, `node dist/simulator/main.js`).
 * Resolves after stdin EOF and the 100 ms drain; exits the process on bad flags and on the
 * `--exit-immediately` fault.
 */
export async function runSimulatorCli(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let options;
  try {
    options = parseRunnableOptions(argv, process.env);
  } catch (err) {
    process.stderr.write(`zcode-sim: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    process.exit(2);
  }
  if (options.replay !== undefined) {
    try {
      await runReplay({
        file: options.replay,
        timeScale: options.replayTimeScale,
        logLevel: options.logLevel,
        input: process.stdin,
        output: process.stdout,
      });
    } catch (err) {
      process.stderr.write(`zcode-sim: --replay ${options.replay}: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(2);
    }
    return;
  }
  if (options.exitImmediately) {
    process.stderr.write('zcode-sim: fault --exit-immediately: exiting with code 1\n');
    process.exit(1);
  }
  await runSimulator({ options, input: process.stdin, output: process.stdout, errorOutput: process.stderr, ownsProcess: true });
}
