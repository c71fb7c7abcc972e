import { loadConfig, ConfigError } from '../config/load.js';
import { createLogger } from '../logger.js';
import { startDaemon } from '../daemon/daemon.js';
import { AlreadyRunningError } from '../daemon/instance-lock.js';

/** `zcode-hub start`: runs the daemon in the foreground until SIGINT/SIGTERM. */
export async function runStart(argv: string[]): Promise<number> {
  let config;
  try {
    config = loadConfig(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`zcode-hub: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true });
  let daemon;
  try {
    daemon = await startDaemon(config, logger);
  } catch (err) {
    if (err instanceof AlreadyRunningError) {
      process.stderr.write(`zcode-hub: ${err.message}\n`);
      return 1;
    }
    logger.fatal({ err }, 'zcode-hub could not start');
    return 1;
  }
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.info({ signal }, 'already stopping');
        return;
      }
      stopping = true;
      logger.info({ signal }, 'stopping');
      void daemon.close().then(() => resolve(0));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  return stopped;
}
