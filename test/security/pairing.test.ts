import { afterEach, describe, expect, it } from 'vitest';
import { registerSecret } from './helpers/log-capture.js';
import { rawRequest } from './helpers/raw-http.js';
import { startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';

describe('pairing (ARCHITECTURE.md §7)', () => {
  let hub: SecuredHub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
  });

  async function newCode(h: SecuredHub, scope?: string): Promise<{ code: string; url: string; scope: string }> {
    const res = await rawRequest(h.port, {
      method: 'POST',
      path: '/api/pair/codes',
      headers: { host: `127.0.0.1:${h.port}`, authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(scope ? { scope } : {}),
    });
    expect(res.status).toBe(201);
    const grant = JSON.parse(res.body) as { code: string; url: string; scope: string };
    registerSecret(grant.code);
    registerSecret(grant.code.replace('-', ''));
    return grant;
  }

  function redeem(h: SecuredHub, body: unknown, headers: Record<string, string> = {}) {
    return rawRequest(h.port, {
      method: 'POST',
      path: '/api/pair',
      headers: { host: `127.0.0.1:${h.port}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  it('a code becomes a device token once; the URL carries it in the fragment; the act is audited without the code', async () => {
    hub = await startSecuredHub();
    const grant = await newCode(hub);
    expect(grant.scope).toBe('operate');
    expect(grant.url).toBe(`http://127.0.0.1:${hub.port}/#pair=${grant.code}`);
    const res = await redeem(hub, { code: grant.code, name: 'Pixel 9' });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { token: string; scope: string; name: string };
    registerSecret(body.token);
    expect(body).toMatchObject({ scope: 'operate', name: 'Pixel 9' });
    const me = await rawRequest(hub.port, { path: '/api/me', headers: { host: 'localhost', authorization: `Bearer ${body.token}` } });
    expect(JSON.parse(me.body)).toMatchObject({ identity: { name: 'Pixel 9', scope: 'operate' } });
    expect((await redeem(hub, { code: grant.code })).status).toBe(401);
    const actions = hub.auth.audit.page(0, 10).entries.map((e) => e.action);
    expect(actions).toEqual(['pairing.create', 'pairing.redeem']);
    expect(JSON.stringify(hub.auth.audit.page(0, 10))).not.toContain(grant.code);
  });

  it('the public URL is used when configured, and --scope view pairs a view device', async () => {
    hub = await startSecuredHub({ publicUrl: 'https://hub.example.test/' });
    const grant = await newCode(hub, 'view');
    expect(grant.url).toBe(`https://hub.example.test/#pair=${grant.code}`);
    const res = await redeem(hub, { code: grant.code });
    const token = (JSON.parse(res.body) as { token: string }).token;
    registerSecret(token);
    expect(JSON.parse(res.body)).toMatchObject({ scope: 'view' });
  });

  it('the built-in web app gets an HttpOnly, SameSite=Strict cookie and no token in the body; Secure behind the https tunnel', async () => {
    hub = await startSecuredHub({ publicUrl: 'https://hub.example.test', trustProxy: 1 });
    const local = await newCode(hub);
    const res = await redeem(hub, { code: local.code, delivery: 'cookie' }, { origin: `http://127.0.0.1:${hub.port}` });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).token).toBeUndefined();
    const cookie = String(res.headers['set-cookie']);
    registerSecret(cookie.split(';')[0]?.split('=')[1] ?? '');
    expect(cookie).toMatch(/^zcode_hub_token_[0-9a-f]{32}=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    // The same through the tunnel: Host is the public name, the proxy says https.
    const tunnelled = await newCode(hub);
    const viaTunnel = await redeem(
      hub,
      { code: tunnelled.code, delivery: 'cookie' },
      { host: 'hub.example.test', origin: 'https://hub.example.test', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' },
    );
    expect(viaTunnel.status).toBe(200);
    const secureCookie = String(viaTunnel.headers['set-cookie']);
    registerSecret(secureCookie.split(';')[0]?.split('=')[1] ?? '');
    expect(secureCookie).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('[SEC-07] 20 wrong codes in a minute are rate-limited; the right code afterwards is still blocked', async () => {
    hub = await startSecuredHub();
    const grant = await newCode(hub);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await redeem(hub, { code: `WRONG-${String(i).padStart(5, '0')}` })).status);
    const max = hub.config.limits.pairAttemptsPerWindow;
    expect(statuses.slice(0, max).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(max).every((s) => s === 429)).toBe(true);
    const right = await redeem(hub, { code: grant.code });
    expect(right.status).toBe(429);
    expect(JSON.parse(right.body).error.code).toBe('HUB_ERR_RATE_LIMITED');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // The blocked attempt did not consume the code: once the window allows, it still works.
    expect(hub.auth.pairing.size).toBe(1);
  });

  it('[SEC-07] the window elapses, then the right code pairs', async () => {
    hub = await startSecuredHub({ limits: { pairAttemptsPerWindow: 3, pairRateWindowMs: 1_500 } });
    const grant = await newCode(hub);
    for (let i = 0; i < 3; i++) expect((await redeem(hub, { code: 'NOPE0-NOPE0' })).status).toBe(401);
    const blocked = await redeem(hub, { code: grant.code });
    expect(blocked.status).toBe(429);
    const waitMs = Number(blocked.headers['retry-after']) * 1000;
    await new Promise((r) => setTimeout(r, waitMs + 100));
    const ok = await redeem(hub, { code: grant.code });
    expect(ok.status).toBe(200);
    registerSecret((JSON.parse(ok.body) as { token: string }).token);
  });

  it('[SEC-07] the limit is per client address, and X-Forwarded-For is ignored unless a proxy hop is trusted', async () => {
    hub = await startSecuredHub({ limits: { pairAttemptsPerWindow: 2 } });
    for (let i = 0; i < 2; i++) await redeem(hub, { code: 'NOPE0-NOPE0' }, { 'x-forwarded-for': `198.51.100.${i}` });
    // A spoofed forwarded address does not buy a fresh budget when trustProxy is 0.
    expect((await redeem(hub, { code: 'NOPE0-NOPE0' }, { 'x-forwarded-for': '198.51.100.99' })).status).toBe(429);
  });

  it('[SEC-07] behind one trusted hop, each forwarded client address has its own budget', async () => {
    hub = await startSecuredHub({ trustProxy: 1, limits: { pairAttemptsPerWindow: 2 } });
    for (let i = 0; i < 2; i++) await redeem(hub, { code: 'NOPE0-NOPE0' }, { 'x-forwarded-for': '198.51.100.1' });
    expect((await redeem(hub, { code: 'NOPE0-NOPE0' }, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429);
    expect((await redeem(hub, { code: 'NOPE0-NOPE0' }, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(401);
  });

  it('pairing codes are admin-only to create', async () => {
    hub = await startSecuredHub();
    const res = await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/pair/codes',
      headers: { host: 'localhost', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });
});
