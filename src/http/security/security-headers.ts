import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import { configuredOrigins } from './origin-check.js';

/** `wss://host` for `https://host` (and ws for http), so the web app may open /acp on a listed origin. */
function socketOrigin(origin: string): string {
  return origin.replace(/^http/, 'ws');
}

/**
 * Security headers on the web app and the API (HUB-DESIGN §7): CSP with `connect-src 'self'`
 * plus the configured origins and their ws/wss equivalents, `frame-ancestors 'none'`
 * (clickjacking), `Referrer-Policy: no-referrer` (the `#pair=` URL and tokens never leak).
 */
export async function installSecurityHeaders(app: FastifyInstance, config: { publicUrl?: string | undefined; allowOrigins: readonly string[] }): Promise<void> {
  const origins = [...configuredOrigins(config)];
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'", ...origins, ...origins.map(socketOrigin)],
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
