import type { Readable, Writable } from 'node:stream';
import { Connection } from './connection.js';
import { createWriter, startStderrFlood, writeOversizeLine } from './faults.js';
import { LineReader } from './framing.js';
import { buildMethodTable } from './methods/registry.js';
import type { SimOptions } from './options.js';
import { startProviderWatcher } from './provider-watcher.js';
import { createSimLogger } from './sim-log.js';
import { SimulatorCore } from './simulator-core.js';

/** §1.1 `PROTOCOL_EOF_DRAIN_MS`: how long in-flight handlers may run after stdin EOF. */
export const EOF_DRAIN_MS = 100;

export interface RunSimulatorOptions {
  options: SimOptions;
  input: Readable;
  output: Writable;
  errorOutput: Writable;
  /** Install SIGUSR2 (restart switch) and SIGTERM handling on this process. */
  installSignals?: boolean;
}

/**
 * Runs the simulator on one pair of streams until stdin ends: wires faults, the provider
 * watcher, the signal switches and the connection. Resolves after the EOF drain.
 */
export function runSimulator(run: RunSimulatorOptions): Promise<void> {
  const { options } = run;
  const log = createSimLogger(options.logLevel);
  const write = createWriter(run.output, options);
  const sim = new SimulatorCore(options, log, write);
  const watcher = startProviderWatcher(sim, process.env['ZCODE_PERSONAL_PROVIDER_CONFIG_FILE']);
  const flood = options.floodStderr ? startStderrFlood(run.errorOutput) : undefined;
  let firstRequest = true;
  let oversizeWritten = false;
  let reader: LineReader | undefined;
  const neverAnswer = new Set(options.neverAnswer);
  const slowMethods = methodDelays(options.slowMethod);
  const lateMethods = methodDelays(options.lateMethod);
  const connection = new Connection(buildMethodTable(sim), write, sim.reverse, log, {
    responseDelayMs: options.slowMs,
    handlerDelayMs: (method) => slowMethods.get(method) ?? 0,
    lateAnswerMs: (method) => lateMethods.get(method) ?? (method === 'session/subscribe' ? options.subscribeLagMs : 0),
    onRequest: (req) => {
      if (firstRequest) {
        firstRequest = false;
        if (options.stopReadingStdin) {
          log.warn('fault --stop-reading-stdin: no longer reading stdin');
          reader?.stop();
        }
      }
      // After the liveness probe, so a host is ready before its first real answer is glued to it.
      if (!oversizeWritten && options.oversizeLine !== undefined && req.method !== 'runtime/capabilities') {
        oversizeWritten = true;
        writeOversizeLine(run.output, options.oversizeLine);
      }
      return !neverAnswer.has(req.method);
    },
  });
  const onUsr2 = (): void => sim.forgetAllRuntimes();
  const onTerm = (): void => log.warn('SIGTERM ignored (--ignore-sigterm)');
  if (run.installSignals) {
    process.on('SIGUSR2', onUsr2);
    if (options.ignoreSigterm) process.on('SIGTERM', onTerm);
  }
  log.info({ dataDir: options.dataDir, scenario: options.scenario }, 'zcode simulator ready');
  return new Promise((resolve) => {
    reader = new LineReader(
      run.input,
      (line) => connection.handleLine(line),
      () => {
        void connection.drain(EOF_DRAIN_MS).then(() => {
          sim.reverse.rejectAll('ZCode Protocol client connection closed');
          for (const rt of [...sim.runtimes.values()]) sim.unload(rt);
          sim.runs.clear();
          watcher.stop();
          if (flood) clearInterval(flood);
          if (run.installSignals) {
            process.off('SIGUSR2', onUsr2);
            process.off('SIGTERM', onTerm);
          }
          log.info('stdin closed; simulator stopped');
          resolve();
        });
      },
    );
    reader.start();
  });
}

/** `METHOD=MS` fault flags as a map (the last `=` splits, so a method name may hold one). */
function methodDelays(flags: readonly string[]): Map<string, number> {
  return new Map(flags.map((s) => [s.slice(0, s.lastIndexOf('=')), Number(s.slice(s.lastIndexOf('=') + 1))]));
}
