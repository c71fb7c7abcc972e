import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../security/helpers/raw-http.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { createToken, startSecuredHub, type SecuredHub } from '../security/helpers/secured-hub.js';

/**
 * Two hubs on one host name, different ports: browsers send every cookie of a host to each of its
 * ports, so hub B sees hub A's web-app cookie on the upgrade A's app opens to it with a ticket.
 */

let a: SecuredHub;
let b: SecuredHub;

/** Pairs a browser on `h` (cookie delivery) and returns its Set-Cookie `name=value`. */
async function pairedCookie(h: SecuredHub): Promise<string> {
  const codeRes = await rawRequest(h.port, {
    method: 'POST',
    path: '/api/pair/codes',
    headers: { host: `127.0.0.1:${h.port}`, authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scope: 'operate' }),
  });
  const { code } = JSON.parse(codeRes.body) as { code: string };
  registerSecret(code);
  registerSecret(code.replace('-', ''));
  const res = await rawRequest(h.port, {
    method: 'POST',
    path: '/api/pair',
    headers: { host: `127.0.0.1:${h.port}`, origin: h.url, 'content-type': 'application/json' },
    body: JSON.stringify({ code, delivery: 'cookie' }),
  });
  expect(res.status).toBe(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  registerSecret(cookie.slice(cookie.indexOf('=') + 1));
  return cookie;
}

/** A ticket for B's upgrade, asked from A's origin with a bearer token of B (as the app does with its DPoP token). */
async function ticketFromA(): Promise<string> {
  const { token } = await createToken(b, 'operate', 'A app on B');
  const res = await rawRequest(b.port, {
    method: 'POST',
    path: '/api/ws-ticket',
    headers: { host: `127.0.0.1:${b.port}`, origin: a.url, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.status).toBe(200);
  return (JSON.parse(res.body) as { ticket: string }).ticket;
}

const upgradeB = (headers: Record<string, string>, ticket?: string) =>
  rawRequest(b.port, {
    path: ticket === undefined ? b.wsPath : `${b.wsPath}?ticket=${encodeURIComponent(ticket)}`,
    headers: { host: `127.0.0.1:${b.port}`, ...headers },
    upgrade: true,
  });

describe('two hubs on one host name', () => {
  beforeAll(async () => {
    a = await startSecuredHub();
    b = await startSecuredHub({ peers: [a.url] });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('each hub names its cookie for itself', async () => {
    const ca = await pairedCookie(a);
    const cb = await pairedCookie(b);
    const name = (c: string) => c.slice(0, c.indexOf('='));
    expect(name(ca)).toMatch(/^zcode_hub_token_[0-9a-f]{32}$/);
    expect(name(cb)).toMatch(/^zcode_hub_token_[0-9a-f]{32}$/);
    expect(name(ca)).not.toBe(name(cb));
  });

  it("A's app opens B's socket with a ticket while the browser also sends A's cookie: the ticket wins, with either cookie name", async () => {
    const ca = await pairedCookie(a);
    const value = ca.slice(ca.indexOf('=') + 1);
    for (const cookie of [ca, `zcode_hub_token=${value}`]) {
      const up = await upgradeB({ origin: a.url, cookie }, await ticketFromA());
      expect({ cookie: cookie.slice(0, 20), status: up.status, upgraded: up.upgraded }).toEqual({
        cookie: cookie.slice(0, 20),
        status: 101,
        upgraded: true,
      });
    }
  });

  it("A's cookie is no credential on B, and B's own cookie from A's origin without a ticket is still refused", async () => {
    const ca = await pairedCookie(a);
    const me = await rawRequest(b.port, {
      path: '/api/me',
      headers: { host: `127.0.0.1:${b.port}`, cookie: ca, 'sec-fetch-site': 'same-origin' },
    });
    expect(me.status).toBe(401);
    const cb = await pairedCookie(b);
    const up = await upgradeB({ origin: a.url, cookie: cb });
    expect(up.upgraded).toBe(false);
    expect(up.status).toBe(403);
  });
});
