import pino from 'pino';
import { ConfigError, loadConfig } from '../config/load.js';
import { REDACT_PATHS } from '../logger.js';
import { AcpBridge } from '../bridge/acp-bridge.js';
import { ensureDaemon } from '../bridge/daemon-launcher.js';
import { openBridgeSocket } from '../bridge/ws-socket.js';
import { NdjsonDecoder } from '../backend/ndjson.js';

/**
 * `zcode-hub acp [start flags]`: an ACP agent on stdio for editors. stdout carries protocol
 * lines only; logs go to stderr. Closing stdin detaches; the daemon and its turns live on.
 */
export async function runAcp(argv: string[]): Promise<number> {
  let config;
  try {
    config = loadConfig(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`zcode-hub acp: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const logger = pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, pino.destination(2));
  const connect = async () => {
    const handle = await ensureDaemon(
      config.stateDir,
      argv.filter((a, i) => a !== '--state-dir' && argv[i - 1] !== '--state-dir'),
      logger,
    );
    return openBridgeSocket(handle.hub.url, handle.adminToken, config.limits.wsMaxMessageBytes);
  };
  const bridge = new AcpBridge({ connect, writeLine: (line) => process.stdout.write(`${line}\n`), logger });
  try {
    await bridge.start();
  } catch (err) {
    process.stderr.write(`zcode-hub acp: cannot reach the daemon: ${(err as Error).message}\n`);
    return 1;
  }
  // Editor lines are capped like every other input (one ACP message per line).
  const decoder = new NdjsonDecoder(config.limits.wsMaxMessageBytes);
  let code = 0;
  const onFrame = (event: Parameters<Parameters<NdjsonDecoder['push']>[1]>[0]) => {
    if (event.kind === 'line') bridge.fromEditor(event.text);
    else if (event.kind === 'invalid-utf8') logger.warn({ bytes: event.bytes }, 'dropped a line that is not UTF-8');
    else {
      logger.error({ bytes: event.bytes, limit: config.limits.wsMaxMessageBytes }, 'editor sent a line over the size limit; closing');
      code = 1;
      process.stdin.destroy();
    }
  };
  process.stdin.on('data', (chunk: Buffer) => decoder.push(chunk, onFrame));
  await new Promise<void>((resolve) => process.stdin.once('close', () => resolve()).once('end', () => resolve()));
  decoder.end(onFrame);
  bridge.close();
  return code;
}
