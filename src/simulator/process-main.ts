import type { Readable, Writable } from 'node:stream';
import { Connection } from './connection.js';
import { createWriter, startStderrFlood, writeOversizeLine } from './faults.js';
import { ProtocolError, RPC } from './protocol-error.js';
import { LineReader } from './framing.js';
import { buildMethodTable } from './methods/registry.js';
import type { SimOptions } from './options.js';
import { startProviderWatcher } from './provider-watcher.js';
import type { Logger } from '../logger.js';
import { createSimLogger } from './sim-log.js';
import { SimulatorCore } from './simulator-core.js';

/** §1.1 `PROTOCOL_EOF_DRAIN_MS`: how long in-flight handlers may run after stdin EOF. */
export const EOF_DRAIN_MS = 100;

export interface RunSimulatorOptions {
  options: SimOptions;
  input: Readable;
  output: Writable;
  errorOutput: Writable;
  /**
   * The simulator is this process (`zcode-hub sim`): install SIGUSR2 (restart switch) and
   * SIGTERM handling, and exit the process on `--crash-after-events`. Without it the run touches
   * nothing of the process: the crash fault ends the run with code 1 instead.
   */
  ownsProcess?: boolean;
  /** The environment it reads (the personal provider file's variable); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Ends the run at once, as SIGKILL ends a child: no drain, nothing more written. */
  signal?: AbortSignal;
}

/** How a run ended: 0 after stdin EOF, 1 on `--crash-after-events`, null when aborted. */
export interface SimulatorExit {
  code: number | null;
}

/**
 * Runs the simulator on one pair of streams until stdin ends: wires faults, the provider
 * watcher, the signal switches and the connection. Resolves after the EOF drain.
 */
export function runSimulator(run: RunSimulatorOptions): Promise<SimulatorExit> {
  const { options } = run;
  const log = createSimLogger(options.logLevel, run.ownsProcess ? undefined : run.errorOutput);
  let stopped = false;
  let stop: (exit: SimulatorExit) => void = () => {};
  const rawWrite = createWriter(run.output, options);
  // Nothing is written after the run ended (a process that exited writes nothing either).
  const write = (message: object): void => {
    if (!stopped) rawWrite(message);
  };
  const exit = run.ownsProcess ? (code: number) => process.exit(code) : (code: number) => stop({ code });
  const sim = new SimulatorCore(options, log, write, exit);
  const watcher = startProviderWatcher(sim, (run.env ?? process.env)['ZCODE_PERSONAL_PROVIDER_CONFIG_FILE']);
  const flood = options.floodStderr ? startStderrFlood(run.errorOutput) : undefined;
  let reader: LineReader | undefined;
  const connection = openConnection(sim, run, log, write, () => reader);
  const removeSignalSwitches = run.ownsProcess ? installSignalSwitches(sim, options, log) : () => {};
  log.info({ dataDir: options.dataDir, scenario: options.scenario }, 'zcode simulator ready');
  return new Promise((resolve) => {
    stop = (result) => {
      if (stopped) return;
      stopped = true;
      reader?.detach();
      run.signal?.removeEventListener('abort', onAbort);
      sim.reverse.rejectAll('ZCode Protocol client connection closed');
      for (const rt of [...sim.runtimes.values()]) sim.unload(rt);
      sim.runs.clear();
      watcher.stop();
      if (flood) clearInterval(flood);
      removeSignalSwitches();
      log.info(result.code === 0 ? 'stdin closed; simulator stopped' : `simulator stopped (exit ${String(result.code)})`);
      resolve(result);
    };
    const onAbort = (): void => stop({ code: null });
    if (run.signal?.aborted) {
      onAbort();
      return;
    }
    run.signal?.addEventListener('abort', onAbort, { once: true });
    reader = new LineReader(
      run.input,
      (line) => connection.handleLine(line),
      () => void connection.drain(EOF_DRAIN_MS).then(() => stop({ code: 0 })),
    );
    reader.start();
  });
}

/** The JSON-RPC side: the method table and the per-method fault switches (delays, late and missing answers). */
function openConnection(
  sim: SimulatorCore,
  run: RunSimulatorOptions,
  log: Logger,
  write: (message: object) => void,
  currentReader: () => LineReader | undefined,
): Connection {
  const { options } = run;
  const slowMethods = methodDelays(options.slowMethod);
  const lateMethods = methodDelays(options.lateMethod);
  return new Connection(methodTable(sim, options), write, sim.reverse, log, {
    responseDelayMs: options.slowMs,
    handlerDelayMs: (method) => slowMethods.get(method) ?? 0,
    lateAnswerMs: (method) => lateMethods.get(method) ?? (method === 'session/subscribe' ? options.subscribeLagMs : 0),
    onRequest: requestFaults(run, log, currentReader),
  });
}

/** Every method the simulator answers; `--fail-method` replaces one with the failure a CLI forwards from a provider's refusal (-32603, its message verbatim). */
function methodTable(sim: SimulatorCore, options: SimOptions): ReturnType<typeof buildMethodTable> {
  const methods = buildMethodTable(sim);
  for (const flag of options.failMethod) {
    const at = flag.indexOf('=');
    const message = flag.slice(at + 1);
    methods.set(flag.slice(0, at), () => {
      throw new ProtocolError(RPC.internal, message);
    });
  }
  return methods;
}

/**
 * The faults a request sets off: the first one stops the reading of stdin (`--stop-reading-stdin`),
 * the first after the liveness probe is preceded by the oversize line (`--oversize-line`), and a
 * `--never-answer` method gets no answer (the hook returns false).
 */
function requestFaults(
  run: RunSimulatorOptions,
  log: Logger,
  currentReader: () => LineReader | undefined,
): (req: { method: string }) => boolean {
  const { options } = run;
  const neverAnswer = new Set(options.neverAnswer);
  let firstRequest = true;
  let oversizeWritten = false;
  return (req) => {
    if (firstRequest) {
      firstRequest = false;
      if (options.stopReadingStdin) {
        log.warn('fault --stop-reading-stdin: no longer reading stdin');
        currentReader()?.stop();
      }
    }
    // After the liveness probe, so a host is ready before its first real answer is glued to it.
    if (!oversizeWritten && options.oversizeLine !== undefined && req.method !== 'runtime/capabilities') {
      oversizeWritten = true;
      writeOversizeLine(run.output, options.oversizeLine);
    }
    return !neverAnswer.has(req.method);
  };
}

/** Only when the simulator is its own process: SIGUSR2 forgets every runtime (the restart switch), `--ignore-sigterm` logs SIGTERM instead of dying. Returns their removal. */
function installSignalSwitches(sim: SimulatorCore, options: SimOptions, log: Logger): () => void {
  const onUsr2 = (): void => sim.forgetAllRuntimes();
  const onTerm = (): void => log.warn('SIGTERM ignored (--ignore-sigterm)');
  process.on('SIGUSR2', onUsr2);
  if (options.ignoreSigterm) process.on('SIGTERM', onTerm);
  return () => {
    process.off('SIGUSR2', onUsr2);
    process.off('SIGTERM', onTerm);
  };
}

/** `METHOD=MS` fault flags as a map (the last `=` splits, so a method name may hold one). */
function methodDelays(flags: readonly string[]): Map<string, number> {
  return new Map(flags.map((s) => [s.slice(0, s.lastIndexOf('=')), Number(s.slice(s.lastIndexOf('=') + 1))]));
}
