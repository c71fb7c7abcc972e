import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

/** `wss://host` for `https://host` (and ws for http), so the web app may open /acp on a listed origin. */
function socketOrigin(origin: string): string {
  return origin.replace(/^http/, 'ws');
}

/** The `connect-src` sources beyond 'self': each origin and its ws/wss form, deduplicated. */
export function connectSources(origins: readonly string[]): string[] {
  const unique = [...new Set(origins)];
  return [...unique, ...unique.map(socketOrigin)];
}

/**
 * Security headers on the web app and the API (ARCHITECTURE.md §7): CSP with `connect-src 'self'`
 * plus `connectOrigins()` — the public addresses and the machines the home app talks to
 *, read per answer so a machine added at run time is reachable at once — and their
 * ws/wss equivalents, `frame-ancestors 'none'` (clickjacking), `Referrer-Policy: no-referrer`
 * (the `#pair=` URL and tokens never leak).
 */
export async function installSecurityHeaders(app: FastifyInstance, connectOrigins: () => readonly string[]): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: [() => ["'self'", ...connectSources(connectOrigins())].join(' ')],
        scriptSrc: ["'self'"],
        // Inline style attributes are used by the API docs page; no inline script is allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // A hub on a plain-http LAN address must keep working; HSTS would pin a name to https.
    strictTransportSecurity: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
