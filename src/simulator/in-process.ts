import type { Readable, Writable } from 'node:stream';
import { parseSimOptions, type SimOptions } from './options.js';
import { runSimulator, type SimulatorExit } from './process-main.js';
import { SCENARIO_NAMES } from './scenarios/select.js';

/** What an in-process run is given: the flags and environment a child would get, and its three streams. */
export interface InProcessSimulatorRun {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  input: Readable;
  output: Writable;
  errorOutput: Writable;
  /** Ends the run at once (the transport's `abort`, where a child gets SIGKILL). */
  signal: AbortSignal;
}

/**
 * Faults only a separate process can show. Refused in-process, naming the flag, so a test that
 * needs one keeps the real child instead of passing without the fault.
 */
const PROCESS_ONLY: ReadonlyArray<[keyof SimOptions, string]> = [
  ['ignoreSigterm', '--ignore-sigterm needs a process to send SIGTERM to'],
  ['stopReadingStdin', '--stop-reading-stdin needs an OS pipe that fills up'],
  ['replay', '--replay runs as a child process only'],
];

/** Parses and checks the flags as `zcode-hub sim` does; throws a readable message. */
export function parseRunnableOptions(argv: readonly string[], env: NodeJS.ProcessEnv): SimOptions {
  const options = parseSimOptions(argv, env);
  if (!SCENARIO_NAMES.includes(options.scenario))
    throw new Error(`Unknown scenario: ${options.scenario} (known: ${SCENARIO_NAMES.join(', ')})`);
  return options;
}

/**
 * Runs the simulator inside the calling process on the given streams, the far end of the hub's
 * in-process transport (src/backend/in-process-transport.ts). It reads only the environment it
 * is given, installs no signal handler and never exits the process: `--crash-after-events` and
 * `--exit-immediately` end the run with exit code 1, as they end a child. Throws at once on bad
 * flags and on a fault only a process can show.
 */
export function startSimulatorInProcess(run: InProcessSimulatorRun): Promise<SimulatorExit> {
  const options = parseRunnableOptions(run.argv, run.env);
  for (const [key, why] of PROCESS_ONLY) {
    if (options[key] !== undefined && options[key] !== false) throw new Error(`the simulator cannot run in-process: ${why}`);
  }
  if (options.exitImmediately) {
    run.errorOutput.write('zcode-sim: fault --exit-immediately: exiting with code 1\n');
    return Promise.resolve({ code: 1 });
  }
  return runSimulator({ options, input: run.input, output: run.output, errorOutput: run.errorOutput, env: run.env, signal: run.signal });
}
