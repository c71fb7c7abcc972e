import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createLogger, type Logger } from '../../../src/logger.js';

/**
 * SEC-05 log capture. Every app the security suites build logs (at debug, so nothing is
 * filtered out) to a file in one per-run directory; every secret a suite creates is appended
 * to `secrets.txt` there. The per-run dir is `ZCODE_HUB_TEST_LOG_DIR` when set (the global
 * setup sets it), else keyed by the vitest main process id, which all forked workers share.
 */
export function logDir(): string {
  const dir = process.env.ZCODE_HUB_TEST_LOG_DIR ?? path.join(os.tmpdir(), `zcode-hub-test-logs-${process.ppid}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Path of the list of secrets used by the suites (one per line). */
export function secretsFile(): string {
  return path.join(logDir(), 'secrets.txt');
}

/** Records a secret that must never appear in any captured log line. */
export function registerSecret(value: string): void {
  if (value) fs.appendFileSync(secretsFile(), `${value}\n`, { mode: 0o600 });
}

/** A real pino logger (the hub's, with its redaction and serializers) writing to a captured file. */
export function captureLogger(name: string): { logger: Logger; file: string } {
  const file = path.join(logDir(), `${name}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`);
  const logger = createLogger({ level: 'debug', destination: pino.destination({ dest: file, sync: true, mkdir: true }) });
  return { logger, file };
}

/** Every captured log file of this run. */
export function capturedLogFiles(): string[] {
  const dir = logDir();
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .map((f) => path.join(dir, f));
}

/** Every registered secret of this run. */
export function registeredSecrets(): string[] {
  const text = fs.existsSync(secretsFile()) ? fs.readFileSync(secretsFile(), 'utf8') : '';
  return [...new Set(text.split('\n').filter(Boolean))];
}

/** Lines of the captured logs that contain a registered secret or a query string in a URL. */
export function logLeaks(files: string[] = capturedLogFiles(), secrets: string[] = registeredSecrets()): string[] {
  const leaks: string[] = [];
  for (const file of files) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      for (const s of secrets)
        if (line.includes(s)) leaks.push(`${path.basename(file)}: secret ${s.slice(0, 6)}… in ${line.slice(0, 200)}`);
      if (/"url":"[^"]*\?/.test(line)) leaks.push(`${path.basename(file)}: query string in ${line.slice(0, 200)}`);
    }
  }
  return leaks;
}
