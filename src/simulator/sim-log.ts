import type { Writable } from 'node:stream';
import pino from 'pino';
import { createLogger, type Logger } from '../logger.js';

/**
 * The simulator's stderr logger: stdout carries protocol lines only (§1.1), so every log line
 * goes to fd 2, synchronously so that a crash switch never loses its last lines. A simulator run
 * inside another process logs to the stderr stream it was given instead, where its host reads it.
 */
export function createSimLogger(level: string, stderr?: Writable): Logger {
  const destination = stderr ?? pino.destination({ dest: 2, sync: true });
  return createLogger({ level, destination }).child({ component: 'zcode-sim' });
}
