import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Machines } from '../../src/http/security/machines.js';
import { Peers, PEERS_FILE } from '../../src/http/security/peers.js';
import { rawRequest } from '../security/helpers/raw-http.js';
import { createToken, startSecuredHub, type SecuredHub } from '../security/helpers/secured-hub.js';

const APP = 'https://home.example.test';
const FLAGGED = 'https://flagged.example.test';
const MACHINE_ID = '0f8b2c1e-3d4a-4b5c-8d6e-7f8091a2b3c4';

/** The peer list drives CORS and the Origin check (HTTP and the upgrade); machines drive CSP. */

/** A request to the hub at `port` with a bearer token (and a JSON body when given). */
function bearerRequest(port: number, method: string, url: string, token: string, body?: unknown) {
  return rawRequest(port, {
    method,
    path: url,
    headers: {
      host: `127.0.0.1:${port}`,
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('peers and machines', () => {
  let hub: SecuredHub;
  let admin: string;
  let operate: string;
  let view: string;
  beforeAll(async () => {
    hub = await startSecuredHub({ peers: [FLAGGED], limits: { peersMax: 2, machinesMax: 1 } });
    admin = (await createToken(hub, 'admin')).token;
    operate = (await createToken(hub, 'operate')).token;
    view = (await createToken(hub, 'view')).token;
  });
  afterAll(async () => {
    await hub.close();
  });
  const host = () => `127.0.0.1:${hub.port}`;
  const api = (method: string, url: string, token: string, body?: unknown) => bearerRequest(hub.port, method, url, token, body);
  const fromApp = (token = view) =>
    rawRequest(hub.port, { path: '/api/me', headers: { host: host(), origin: APP, authorization: `Bearer ${token}` } });
  const preflight = () =>
    rawRequest(hub.port, {
      method: 'OPTIONS',
      path: '/api/me',
      headers: {
        host: host(),
        origin: APP,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, dpop',
      },
    });
  const upgrade = () =>
    rawRequest(hub.port, { path: hub.wsPath, headers: { host: host(), origin: APP, authorization: `Bearer ${view}` }, upgrade: true });

  it('an origin is refused until it is added, accepted at once after, and refused again once removed — CORS, Origin check and upgrade', async () => {
    expect((await fromApp()).status).toBe(403);
    expect((await preflight()).headers['access-control-allow-origin']).toBeUndefined();
    expect((await upgrade()).upgraded).toBe(false);

    const added = await api('POST', '/api/peers', admin, { origin: `${APP}/` });
    expect(added.status).toBe(201);
    expect(JSON.parse(added.body)).toMatchObject({ added: true, peer: { origin: APP, via: 'api' } });

    const get = await fromApp();
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe(APP);
    expect(get.headers['access-control-allow-credentials']).toBeUndefined();
    const pre = await preflight();
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(APP);
    expect(String(pre.headers['access-control-allow-headers'])).toContain('dpop');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(get.headers['access-control-expose-headers'])).toMatch(/www-authenticate/);
    // No DPoP server nonces (RFC 9449 §8): the header is never sent, so it is not exposed either.
    expect(String(get.headers['access-control-expose-headers'])).not.toMatch(/dpop-nonce/);
    expect((await upgrade()).upgraded).toBe(true);

    const removed = await api('DELETE', `/api/peers/${encodeURIComponent(APP)}`, admin);
    expect(removed.status).toBe(200);
    expect((await fromApp()).status).toBe(403);
    expect((await preflight()).headers['access-control-allow-origin']).toBeUndefined();
    expect((await upgrade()).upgraded).toBe(false);
    expect((await api('DELETE', `/api/peers/${encodeURIComponent(APP)}`, admin)).status).toBe(404);
  });

  it('a peer is bearer-only: the web app cookie from a peer origin is refused', async () => {
    await api('POST', '/api/peers', admin, { origin: APP });
    const res = await rawRequest(hub.port, { path: '/api/me', headers: { host: host(), origin: APP, cookie: `zcode_hub_token=${view}` } });
    expect(res.status).toBe(403);
    await api('DELETE', `/api/peers/${encodeURIComponent(APP)}`, admin);
  });

  it('peers are kept in peers.json (0600) across restarts; --peer entries are listed, not written, and not removable', async () => {
    await api('POST', '/api/peers', admin, { origin: APP });
    const file = path.join(hub.stateDir, PEERS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(APP);
    expect(text).not.toContain(FLAGGED);
    expect(new Peers(file, 64).has(APP)).toBe(true);
    const list = JSON.parse((await api('GET', '/api/peers', admin)).body) as { peers: Array<{ origin: string; via: string }> };
    expect(list.peers.map((p) => [p.origin, p.via])).toEqual([
      [FLAGGED, 'flag'],
      [APP, 'api'],
    ]);
    const del = await api('DELETE', `/api/peers/${encodeURIComponent(FLAGGED)}`, admin);
    expect(del.status).toBe(409);
    expect(JSON.parse(del.body).error.message).toMatch(/--peer/);
    await api('DELETE', `/api/peers/${encodeURIComponent(APP)}`, admin);
  });

  it('limits.peersMax: the added peer past it is refused 429 HUB_ERR_LIMIT (flag peers do not count)', async () => {
    expect((await api('POST', '/api/peers', admin, { origin: 'https://a.example.test' })).status).toBe(201);
    expect((await api('POST', '/api/peers', admin, { origin: 'https://b.example.test' })).status).toBe(201);
    const third = await api('POST', '/api/peers', admin, { origin: 'https://c.example.test' });
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body).error.code).toBe('HUB_ERR_LIMIT');
    await api('DELETE', `/api/peers/${encodeURIComponent('https://a.example.test')}`, admin);
    await api('DELETE', `/api/peers/${encodeURIComponent('https://b.example.test')}`, admin);
  });

  it('peers are admin-only; a bad origin is a clear 400', async () => {
    expect((await api('GET', '/api/peers', operate)).status).toBe(403);
    expect((await api('POST', '/api/peers', operate, { origin: APP })).status).toBe(403);
    const bad = await api('POST', '/api/peers', admin, { origin: 'https://x.example.test/path' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toMatch(/without a path/);
    expect((await api('POST', '/api/peers', admin, { origin: 'javascript:alert(1)' })).status).toBe(400);
  });

  it('a machine the app records joins CSP connect-src (origin and ws form) at once and leaves it when removed', async () => {
    const csp = async () =>
      String((await rawRequest(hub.port, { path: '/api/health', headers: { host: host() } })).headers['content-security-policy']);
    expect(await csp()).toMatch(/connect-src 'self';/);
    expect((await api('PUT', `/api/machines/${MACHINE_ID}`, view, { url: 'https://desk.example.test', name: 'desk' })).status).toBe(403);
    const put = await api('PUT', `/api/machines/${MACHINE_ID}`, operate, { url: 'https://desk.example.test/', name: 'desk' });
    expect(put.status).toBe(201);
    expect(await csp()).toContain("connect-src 'self' https://desk.example.test wss://desk.example.test;");
    // Peers are what this hub accepts, not where its app connects: never in connect-src.
    expect(await csp()).not.toContain(FLAGGED);
    // The list is the calling device's: the operate device that recorded it sees it, another does not.
    expect(JSON.parse((await api('GET', '/api/machines', view)).body)).toEqual({ machines: [] });
    const list = JSON.parse((await api('GET', '/api/machines', operate)).body);
    expect(list.machines).toEqual([expect.objectContaining({ hubId: MACHINE_ID, url: 'https://desk.example.test', name: 'desk' })]);
    expect((await api('PUT', `/api/machines/${MACHINE_ID}`, operate, { url: 'http://desk.example.test:9000', name: 'desk' })).status).toBe(
      200,
    );
    expect(await csp()).toContain("connect-src 'self' http://desk.example.test:9000 ws://desk.example.test:9000;");
    // limits.machinesMax (1 here): a second machine is refused.
    const second = await api('PUT', '/api/machines/1f8b2c1e-3d4a-4b5c-8d6e-7f8091a2b3c4', operate, {
      url: 'https://b.example.test',
      name: 'b',
    });
    expect(second.status).toBe(429);
    expect((await api('PUT', '/api/machines/not-a-uuid', operate, { url: 'https://b.example.test', name: 'b' })).status).toBe(400);
    expect((await api('PUT', `/api/machines/${MACHINE_ID}`, operate, { url: 'ftp://b.example.test', name: 'b' })).status).toBe(400);
    expect((await api('DELETE', `/api/machines/${MACHINE_ID}`, operate)).status).toBe(200);
    expect(await csp()).toMatch(/connect-src 'self';/);
    expect((await api('DELETE', `/api/machines/${MACHINE_ID}`, operate)).status).toBe(404);
  });
});

describe('machines are kept per device', () => {
  const B = '0f8b2c1e-3d4a-4b5c-8d6e-7f8091a2b3c4';
  const C = '1f8b2c1e-3d4a-4b5c-8d6e-7f8091a2b3c4';
  let hub: SecuredHub;
  beforeAll(async () => {
    hub = await startSecuredHub({ limits: { machinesMax: 2, machineEntriesMax: 3 } });
  });
  afterAll(async () => {
    await hub.close();
  });
  const host = () => `127.0.0.1:${hub.port}`;
  const api = (method: string, url: string, token: string, body?: unknown) => bearerRequest(hub.port, method, url, token, body);
  const csp = async () =>
    String((await rawRequest(hub.port, { path: '/api/health', headers: { host: host() } })).headers['content-security-policy']);
  const listed = async (token: string) =>
    (JSON.parse((await api('GET', '/api/machines', token)).body) as { machines: Array<{ hubId: string }> }).machines.map((m) => m.hubId);

  it('one phone removing a machine keeps it for another phone: CSP is the union, DELETE removes only the caller’s', async () => {
    const phone1 = await createToken(hub, 'operate', 'phone 1');
    const phone2 = await createToken(hub, 'operate', 'phone 2');
    const desk = { url: 'https://desk.example.test', name: 'desk' };
    expect((await api('PUT', `/api/machines/${B}`, phone1.token, desk)).status).toBe(201);
    expect((await api('PUT', `/api/machines/${B}`, phone2.token, desk)).status).toBe(201);
    expect((await api('PUT', `/api/machines/${C}`, phone2.token, { url: 'https://build.example.test', name: 'build' })).status).toBe(201);
    expect(await listed(phone1.token)).toEqual([B]);
    expect(await listed(phone2.token)).toEqual([B, C]);
    expect(await csp()).toContain(
      "connect-src 'self' https://desk.example.test https://build.example.test wss://desk.example.test wss://build.example.test;",
    );

    const del = await api('DELETE', `/api/machines/${B}`, phone1.token);
    expect(del.status).toBe(200);
    expect(JSON.parse(del.body)).toEqual({ machines: [] });
    expect(await listed(phone2.token)).toEqual([B, C]);
    // Phone 2 still reaches desk: its origin stays in connect-src.
    expect(await csp()).toContain("connect-src 'self' https://desk.example.test https://build.example.test wss://desk.example.test");
    expect((await api('DELETE', `/api/machines/${B}`, phone1.token)).status).toBe(404);

    // machineEntriesMax (3 here) bounds the entries over all devices; machinesMax (2) each device.
    expect((await api('PUT', `/api/machines/${B}`, phone1.token, desk)).status).toBe(201);
    const over = await api('PUT', `/api/machines/${C}`, phone1.token, desk);
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body).error.message).toMatch(/over all devices/);
    expect((await api('DELETE', `/api/machines/${B}`, phone1.token)).status).toBe(200);

    // A revoked device's machines go with it: build.example.test leaves connect-src.
    expect((await api('DELETE', `/api/tokens/${phone2.id}`, hub.adminToken)).status).toBe(200);
    expect(await csp()).toMatch(/connect-src 'self';/);
    const file = JSON.parse(fs.readFileSync(path.join(hub.stateDir, 'machines.json'), 'utf8')) as { machines: unknown[] };
    expect(file.machines).toEqual([]);
  });

  it('limits.machinesMax is per device', async () => {
    const phone = await createToken(hub, 'operate', 'phone 3');
    expect((await api('PUT', `/api/machines/${B}`, phone.token, { url: 'https://a.example.test', name: 'a' })).status).toBe(201);
    expect((await api('PUT', `/api/machines/${C}`, phone.token, { url: 'https://b.example.test', name: 'b' })).status).toBe(201);
    const third = await api('PUT', '/api/machines/2f8b2c1e-3d4a-4b5c-8d6e-7f8091a2b3c4', phone.token, {
      url: 'https://c.example.test',
      name: 'c',
    });
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body).error.message).toMatch(/At most 2 machines/);
  });

  it('a first-version machines.json is read as shared entries every device sees', () => {
    const dir = fs.mkdtempSync(path.join(hub.stateDir, 'v1-'));
    const file = path.join(dir, 'machines.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ version: 1, machines: [{ hubId: B, url: 'https://old.example.test', name: 'old', addedAt: 1 }] }),
    );
    const m = new Machines(file, 4);
    expect(m.list('any device').map((x) => x.hubId)).toEqual([B]);
    expect(m.origins()).toEqual(['https://old.example.test']);
    m.put('phone', B, { url: 'https://old.example.test', name: 'mine' });
    expect(m.list('phone')).toEqual([expect.objectContaining({ hubId: B, name: 'mine' })]);
    expect(m.remove('phone', B)).toBe(true);
    expect(m.list('phone').map((x) => x.name)).toEqual(['old']);
  });
});

describe('the web shell CSP', () => {
  it("allows connections to 'self' and the recorded machines (and their ws form), read per answer", async () => {
    const { default: Fastify } = await import('fastify');
    const { webApp } = await import('../../src/http/web.js');
    const dir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'zcode-hub-shell-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
    let machines: string[] = [];
    const app = Fastify();
    await app.register(webApp, { distDir: dir, connectOrigins: () => machines });
    try {
      const before = await app.inject({ method: 'GET', url: '/m/0f8b2c1e-3d4a-4b5c-8d6e-7f8091a2b3c4/s/abc' });
      expect(before.statusCode).toBe(200);
      expect(String(before.headers['content-security-policy'])).toContain("connect-src 'self';");
      machines = ['http://127.0.0.1:9001'];
      const after = await app.inject({ method: 'GET', url: '/' });
      expect(String(after.headers['content-security-policy'])).toContain("connect-src 'self' http://127.0.0.1:9001 ws://127.0.0.1:9001;");
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
