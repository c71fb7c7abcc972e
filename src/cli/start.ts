import { loadConfig, ConfigError } from '../config/load.js';
import { createLogger } from '../logger.js';
import { startDaemon } from '../daemon/daemon.js';
import { AlreadyRunningError } from '../daemon/instance-lock.js';
import { BackendConfigError } from '../backend/index.js';
import { firstSettledStatus, nextStepsText } from './next-steps.js';

/** `zcode-hub start`: runs the daemon in the foreground until SIGINT/SIGTERM. */
export async function runStart(argv: string[]): Promise<number> {
  let config;
  try {
    config = loadConfig(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`zcode-hub: ${err.message} (see \`zcode-hub start --help\`)\n`);
      return 2;
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true });
  // Signals are handled from the first moment: a SIGTERM while the daemon is still starting (it
  // may already have written hub.json) stops it cleanly once it is up, instead of killing it.
  let stopping = false;
  let stop: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.info({ signal }, 'already stopping');
      return;
    }
    stopping = true;
    logger.info({ signal }, 'stopping');
    stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let daemon;
  try {
    daemon = await startDaemon(config, logger);
  } catch (err) {
    if (err instanceof AlreadyRunningError || err instanceof BackendConfigError) {
      process.stderr.write(`zcode-hub: ${err.message}\n`);
      return 1;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`zcode-hub: ${err.message}\n`);
      return 2;
    }
    const cannotListen = listenFailure(err, config.host, config.port);
    if (cannotListen) {
      process.stderr.write(`zcode-hub: ${cannotListen}\n`);
      return 1;
    }
    logger.fatal({ err }, 'zcode-hub could not start');
    return 1;
  }
  // Once, when the agent is up (or could not start): what to do next, for the human at the terminal
  // (stderr, so the JSON log on stdout stays one record per line).
  const running = daemon;
  void firstSettledStatus(running.backend).then((backend) => {
    if (stopping) return;
    const facts = { url: running.url, stateDir: config.stateDir, backend, choice: config.backend };
    process.stderr.write(nextStepsText(config.adminTokenFile ? { ...facts, adminTokenFile: config.adminTokenFile } : facts));
  });
  await stopRequested;
  let code = 0;
  try {
    await daemon.close();
  } catch (err) {
    logger.error({ err }, 'shutdown did not complete cleanly');
    code = 1;
  }
  logger.info({ exitCode: code }, 'stopped');
  // Exit here, while the signal listeners are still installed. Letting the event loop drain
  // would tear them down (default disposition back) some tens of ms before the process is gone,
  // and a second SIGTERM landing in that window would kill the hub by signal instead of exit 0.
  // pino flushes its destination (and a pretty transport) on exit.
  process.exit(code);
}

/** A one-line explanation with the fix for the usual reasons a daemon cannot listen. */
export function listenFailure(err: unknown, host: string, port: number): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: another program uses that port. Stop it, or choose another port with --port N (--port 0 picks a free one).`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges). Choose a port above 1024 with --port N.`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: no network interface of this machine has that address. Use 127.0.0.1 (the default) or an address of this machine with --host.`;
    default:
      return undefined;
  }
}
