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
      process.stderr.write(`zcode-hub acp: ${err.message} (see \`zcode-hub acp --help\`)\n`);
      return 2;
    }
    throw err;
  }
  const logger = pino({ level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, pino.destination(2));
  const connect = async (signal: AbortSignal) => {
    const handle = await ensureDaemon(
      config.stateDir,
      argv.filter((a, i) => a !== '--state-dir' && argv[i - 1] !== '--state-dir'),
      logger,
      signal,
      // A sentence for the person reading the editor's log, beside the JSON log record.
      (text) => process.stderr.write(text),
    );
    return openBridgeSocket(handle.hub.url, handle.adminToken, config.limits.wsMaxMessageBytes, signal);
  };
  // An editor that stops reading (closes our stdout: EPIPE on the next line) has gone as surely as
  // one that closes our stdin: end the same way, never crash on the stream's error event.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    logger.info({ code: err.code }, 'the editor closed stdout; detaching');
    process.stdin.destroy();
  });
  const writeLine = (line: string): void => {
    if (process.stdout.writable) process.stdout.write(`${line}\n`);
  };
  const bridge = new AcpBridge({ connect, writeLine, logger });
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
  // stdin is read from the start: lines sent while the daemon starts wait in the bridge, and an
  // editor that goes away meanwhile ends the bridge at once instead of after the start.
  process.stdin.on('data', (chunk: Buffer) => decoder.push(chunk, onFrame));
  const editorGone = new Promise<'gone'>((resolve) =>
    process.stdin.once('close', () => resolve('gone')).once('end', () => resolve('gone')),
  );
  const started = bridge.start().then(
    () => undefined,
    (err: unknown) => err as Error,
  );
  const failed = await Promise.race([started, editorGone]);
  if (failed instanceof Error) {
    bridge.close();
    process.stderr.write(`zcode-hub acp: cannot reach the daemon: ${failed.message}\n`);
    process.stdin.destroy();
    return 1;
  }
  await editorGone;
  decoder.end(onFrame);
  // Ends the connection, or the start or reconnect still in progress; the daemon and its turns live on.
  bridge.close();
  return code;
}
