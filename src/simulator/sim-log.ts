import pino from 'pino';
import { createLogger, type Logger } from '../logger.js';

/**
 * The simulator's stderr logger: stdout carries protocol lines only (§1.1), so every log line
 * goes to fd 2, synchronously so that a crash switch never loses its last lines.
 */
export function createSimLogger(level: string): Logger {
  return createLogger({ level, destination: pino.destination({ dest: 2, sync: true }) }).child({ component: 'zcode-sim' });
}
