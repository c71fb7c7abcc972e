import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenAuthenticator } from '../../src/daemon/admin-authenticator.js';
import { authHook } from '../../src/http/auth-hook.js';
import { installErrorHandler } from '../../src/http/error-handler.js';
import { webApp } from '../../src/http/web.js';

const TOKEN = 'test-admin-token-0123456789';
let dir: string;
let app: FastifyInstance;

/** A fastify app with the real auth hook, error handler and web plugin over a temp dist dir. */
async function build(distDir: string): Promise<FastifyInstance> {
  const a = Fastify();
  a.setValidatorCompiler(validatorCompiler);
  a.setSerializerCompiler(serializerCompiler);
  installErrorHandler(a);
  await a.register(authHook, { authenticator: adminTokenAuthenticator(TOKEN) });
  a.get('/api/thing', { config: { scope: 'view' } }, async () => ({ ok: true }));
  await a.register(webApp, { distDir, authenticator: adminTokenAuthenticator(TOKEN) });
  await a.ready();
  return a;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-web-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, 'icons'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'sw.js'), 'self.x=1');
  fs.writeFileSync(path.join(dir, 'sw-links.js'), 'self.y=1');
  fs.writeFileSync(path.join(dir, 'manifest.webmanifest'), '{}');
  fs.writeFileSync(path.join(dir, 'icons', 'icon.svg'), '<svg/>');
  app = await build(dir);
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('web app serving (src/http/web.ts)', () => {
  it('[SEC-04] serves the shell without credentials while the API stays authenticated', async () => {
    const shell = await app.inject({ url: '/' });
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['content-type']).toMatch(/text\/html/);
    expect(shell.headers['cache-control']).toBe('no-cache');
    expect(shell.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await app.inject({ url: '/api/thing' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/thing', headers: { authorization: `Bearer ${TOKEN}` } })).json()).toEqual({ ok: true });
  });

  it('answers client routes with the shell (SPA fallback), never API, socket or docs paths', async () => {
    for (const url of ['/s/sess_1', '/inbox', '/settings/providers?x=1']) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.body).toContain('id="app"');
    }
    expect((await app.inject({ url: '/api/nope' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/nope', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/assets/missing-1.js' })).statusCode).toBe(404);
  });

  it('caches hashed assets for a year, the service worker and shell never', async () => {
    const asset = await app.inject({ url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const sw = await app.inject({ url: '/sw.js' });
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['service-worker-allowed']).toBe('/');
    // The script the worker imports is checked for updates as often as the worker.
    const links = await app.inject({ url: '/sw-links.js' });
    expect(links.statusCode).toBe(200);
    expect(links.headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ url: '/manifest.webmanifest' })).headers['content-type']).toMatch(/manifest\+json/);
    expect((await app.inject({ url: '/icons/icon.svg' })).statusCode).toBe(200);
  });

  it('refuses path traversal out of the dist dir', async () => {
    for (const url of ['/../package.json', '/assets/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/etc/passwd']) {
      const r = await app.inject({ url });
      expect(r.body, url).not.toContain('"name"');
      expect(r.body, url).not.toContain('root:');
    }
  });

  it('says how to build when web/dist is missing', async () => {
    const bare = await build(path.join(dir, 'does-not-exist'));
    const r = await bare.inject({ url: '/' });
    expect(r.statusCode).toBe(503);
    expect(r.body).toContain('build:web');
    await bare.close();
  });
});
