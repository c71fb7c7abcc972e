import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.js';
import { createToken, startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';

const REMOTE = 'https://remote.example.test';

describe('security headers and CORS (ARCHITECTURE.md §5.1, §7)', () => {
  let hub: SecuredHub;
  let token: string;
  beforeAll(async () => {
    hub = await startSecuredHub({ publicUrl: 'https://hub.example.test', allowOrigins: [REMOTE] });
    token = (await createToken(hub, 'admin')).token;
  });
  afterAll(async () => {
    await hub.close();
  });
  const host = () => `127.0.0.1:${hub.port}`;

  it('API answers carry CSP (connect-src self + the public URL and its wss, not peers), frame-ancestors none, no-referrer', async () => {
    const res = await rawRequest(hub.port, { path: '/api/health', headers: { host: host() } });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    // Peers (--allow-origin) call this hub; they are not where its own pages connect.
    expect(csp).toContain("connect-src 'self' https://hub.example.test wss://hub.example.test;");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('error answers (401, 403) carry the headers too', async () => {
    const res = await rawRequest(hub.port, { path: '/api/tokens', headers: { host: host() } });
    expect(res.status).toBe(401);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('a listed origin gets CORS on /api/* with a bearer header, never credentials', async () => {
    const pre = await rawRequest(hub.port, {
      method: 'OPTIONS',
      path: '/api/health',
      headers: { host: host(), origin: REMOTE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(REMOTE);
    expect(String(pre.headers['access-control-allow-headers'])).toContain('authorization');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const get = await rawRequest(hub.port, {
      path: '/api/me',
      headers: { host: host(), origin: REMOTE, authorization: `Bearer ${token}` },
    });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe(REMOTE);
    expect(get.headers.vary).toMatch(/origin/i);
  });

  it('no other origin ever gets CORS, and a listed origin gets none outside /api/*', async () => {
    const foreign = await rawRequest(hub.port, {
      method: 'OPTIONS',
      path: '/api/health',
      headers: { host: host(), origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const own = await rawRequest(hub.port, { path: '/api/health', headers: { host: host(), origin: `http://127.0.0.1:${hub.port}` } });
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
    const docs = await rawRequest(hub.port, {
      path: '/docs/json',
      headers: { host: host(), origin: REMOTE, authorization: `Bearer ${token}` },
    });
    expect(docs.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a preflight never reaches a handler without passing Host first', async () => {
    const res = await rawRequest(hub.port, {
      method: 'OPTIONS',
      path: '/api/health',
      headers: { host: 'evil.example.com', origin: REMOTE, 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
