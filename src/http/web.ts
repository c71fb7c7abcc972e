/**
 * Serves the built web app (web/dist) at `/` (ARCHITECTURE.md §2 "web/"). The shell is a declared
 * public route so pairing works without a token; every API route stays authenticated.
 * Hashed assets are cached for a year; index.html and the service worker are never cached, so
 * a new build reaches phones on their next load. Unknown client routes get the shell (SPA).
 * The build writes `.br`/`.gz` beside every text file (web/precompress.ts); each answer, the shell
 * too, is the sibling that Accept-Encoding asks for (brotli first), else the file as is, always
 * with `Vary: Accept-Encoding`. Nothing is compressed per request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Authenticator } from '../auth/identity.js';
import { HubError } from '../errors.js';
import { authenticateRequest, type RequestAuthExtras } from './auth-hook.js';
import { connectSources } from './security/security-headers.js';

/** web/dist beside src/ (and beside dist/ once compiled). */
export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Paths the shell never answers: they belong to the API, the WebSocket and the docs. */
const RESERVED = /^\/(api|acp|docs|metrics)(\/|$)/;

const YEAR_S = 365 * 24 * 3600;
const ICON_MAX_AGE_S = 24 * 3600;

/**
 * Content-Security-Policy of the shell: same-origin scripts, data: images (thumbnails), and
 * connections to 'self' plus the other machines the app talks to, read per answer.
 */
function shellCsp(connectOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    ["connect-src 'self'", ...connectSources(connectOrigins)].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

export interface WebAppOptions {
  /** Directory of the built app; defaults to web/dist. */
  distDir?: string;
  /**
   * The fallback route is public, so unknown API paths reach it: they are authenticated here
   * before the 404, keeping "401 without credentials" on every API path (SEC-04).
   */
  authenticator?: Authenticator;
  /** DPoP and tickets, so a bound token gets the same answer here as on a real route. */
  extras?: RequestAuthExtras;
  /** Origins beyond 'self' the app may connect to (public addresses, other machines). */
  connectOrigins?: () => readonly string[];
}

function isFile(root: string, rel: string): boolean {
  try {
    return fs.statSync(path.join(root, rel)).isFile();
  } catch {
    return false;
  }
}

function sendShell(reply: FastifyReply, root: string, connectOrigins: readonly string[]): FastifyReply {
  if (!isFile(root, 'index.html')) {
    // Not built yet: say how, rather than a bare 404 (the API works without the web app).
    return reply
      .code(503)
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send('The web app is not built. Run: npm run build:web');
  }
  reply
    .header('cache-control', 'no-cache')
    .header('content-security-policy', shellCsp(connectOrigins))
    .header('x-content-type-options', 'nosniff');
  return reply.sendFile('index.html', root, { cacheControl: false });
}

/** Fastify plugin: the web app and its SPA fallback. */
export const webApp: FastifyPluginAsync<WebAppOptions> = async (app, opts) => {
  const root = path.resolve(opts.distDir ?? DEFAULT_WEB_DIST);
  // serve:false: only the reply.sendFile decorator; routes are ours so they carry `public`.
  // preCompressed: sendFile picks name.br / name.gz by Accept-Encoding and falls back to name.
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });

  app.get('/*', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    if (RESERVED.test(pathname)) {
      if (!opts.authenticator) throw new HubError('HUB_ERR_UNAUTHENTICATED');
      await authenticateRequest(req, opts.authenticator, opts.extras);
      return reply.callNotFound();
    }
    let rel: string;
    try {
      rel = path.posix.normalize(decodeURIComponent(pathname)).replace(/^\/+/, '');
    } catch {
      return reply.callNotFound();
    }
    if (rel.split('/').includes('..') || rel.includes('\0')) return reply.callNotFound();
    if (rel === '' || rel === 'index.html') return sendShell(reply, root, opts.connectOrigins?.() ?? []);
    if (isFile(root, rel)) {
      if (rel.startsWith('assets/')) return reply.sendFile(rel, root, { maxAge: YEAR_S * 1000, immutable: true });
      if (rel === 'sw.js' || rel === 'sw-links.js') {
        // The worker and the script it imports are checked for updates on every visit.
        reply.header('cache-control', 'no-cache');
        if (rel === 'sw.js') reply.header('service-worker-allowed', '/');
        return reply.sendFile(rel, root, { cacheControl: false });
      }
      if (rel === 'manifest.webmanifest') reply.type('application/manifest+json');
      return reply.sendFile(rel, root, { maxAge: ICON_MAX_AGE_S * 1000 });
    }
    // A missing file (has an extension) is a 404; anything else is a client route → the shell.
    if (/\.[a-z0-9]+$/i.test(rel)) return reply.callNotFound();
    return sendShell(reply, root, opts.connectOrigins?.() ?? []);
  });
};
