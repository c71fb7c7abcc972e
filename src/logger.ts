import pino, { type Logger, type DestinationStream } from 'pino';
import { traceLogFields } from './trace-context.js';

export type { Logger } from 'pino';

/** Paths pino blanks out wherever they appear (STYLE.md habit 7). */
export const REDACT_PATHS = [
  'authorization',
  'cookie',
  'token',
  'apiKey',
  'code',
  'secret',
  '*.authorization',
  '*.cookie',
  '*.token',
  '*.apiKey',
  '*.secret',
  '*.pairingCode',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["sec-websocket-protocol"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  // Security layer (ARCHITECTURE.md §7): pairing codes, device JWTs, the admin token, provider keys one level deeper.
  'pairingCode',
  // WebSocket tickets and DPoP proofs: a ticket opens a socket once; a proof is not a secret but has no business in a log.
  'ticket',
  '*.ticket',
  'req.headers.dpop',
  '*.headers.dpop',
  'adminToken',
  '*.adminToken',
  'jwt',
  '*.jwt',
  'password',
  '*.password',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  '*.*.apiKey',
  '*.*.token',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  '*.headers["x-api-key"]',
  'req.headers["x-api-key"]',
];

export interface LoggerOptions {
  level?: string;
  /** Pretty output for a human at a terminal; decided by the caller from `isTTY`, never by NODE_ENV. */
  pretty?: boolean;
  destination?: DestinationStream;
}

/** Drops the query string of a URL so `?token=` never reaches a log line. */
export function stripQuery(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const i = url.indexOf('?');
  return i === -1 ? url : url.slice(0, i);
}

/**
 * The censor for REDACT_PATHS. A `code` field is a secret only when it could be a pairing code:
 * numbers (WebSocket close codes, HTTP statuses) and the error catalog's and node's error codes
 * (`HUB_ERR_…`, `ERR_…`, `ENOENT`) are kept, so the log still says why a socket closed. Every
 * other redacted path is blanked whatever its value.
 */
export function censor(value: unknown, path: string[]): unknown {
  if (path[path.length - 1] !== 'code') return '[redacted]';
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(value) || (/^E[A-Z]{2,11}$/.test(value) && value.length !== 10)))
    return value;
  return '[redacted]';
}

/** The one pino logger of the process; everything else gets child loggers. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const base = {
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor },
    // Inside a traced client request every line carries its traceId/spanId (trace-context.ts).
    mixin: traceLogFields,
    serializers: {
      req: (req: { method?: string; url?: string; id?: unknown }) => ({ id: req.id, method: req.method, url: stripQuery(req.url) }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty) {
    return pino({
      ...base,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } },
    });
  }
  return pino(base);
}
