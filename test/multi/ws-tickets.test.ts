import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsTickets } from '../../src/auth/ws-tickets.js';
import { DpopKey } from '../helpers/dpop-client.js';
import { until } from '../helpers/until.js';
import { rawRequest } from '../security/helpers/raw-http.js';
import { registerSecret } from '../security/helpers/log-capture.js';
import { createToken, startSecuredHub, type SecuredHub } from '../security/helpers/secured-hub.js';

const APP = 'http://localhost:7002';

/** Single-use, short-lived, origin-bound tickets for the WebSocket upgrade; never logged. */
describe('WebSocket tickets', () => {
  let hub: SecuredHub;
  let view: { token: string; id: string };
  beforeAll(async () => {
    hub = await startSecuredHub({ peers: [APP], limits: { wsTicketTtlMs: 1_500 } });
    view = await createToken(hub, 'view');
  });
  afterAll(async () => {
    await hub.close();
  });
  const host = () => `127.0.0.1:${hub.port}`;
  const ticketFor = async (headers: Record<string, string>): Promise<string> => {
    const res = await rawRequest(hub.port, { method: 'POST', path: '/api/ws-ticket', headers: { host: host(), ...headers } });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { ticket, expiresAt, pipelining } = JSON.parse(res.body) as { ticket: string; expiresAt: number; pipelining: unknown };
    expect(expiresAt).toBeGreaterThan(Date.now());
    // Said before the socket opens, so the first connect may send its requests behind initialize.
    expect(pipelining).toBe(true);
    registerSecret(ticket);
    return ticket;
  };
  const upgrade = (ticket: string, origin?: string) =>
    rawRequest(hub.port, {
      path: `${hub.wsPath}?ticket=${encodeURIComponent(ticket)}`,
      headers: { host: host(), ...(origin ? { origin } : {}) },
      upgrade: true,
    });

  it('a ticket opens the upgrade once; the second use is refused 401', async () => {
    const ticket = await ticketFor({ origin: APP, authorization: `Bearer ${view.token}` });
    expect((await upgrade(ticket, APP)).upgraded).toBe(true);
    const again = await upgrade(ticket, APP);
    expect(again.upgraded).toBe(false);
    expect(again.status).toBe(401);
  });

  it('a ticket used from another origin than it was issued to is refused, and spent', async () => {
    const ticket = await ticketFor({ origin: APP, authorization: `Bearer ${view.token}` });
    const own = `http://127.0.0.1:${hub.port}`;
    expect((await upgrade(ticket, own)).status).toBe(401);
    expect((await upgrade(ticket, APP)).upgraded).toBe(false);
    // A ticket asked without an Origin (a CLI) is not usable by a page either.
    const bare = await ticketFor({ authorization: `Bearer ${view.token}` });
    expect((await upgrade(bare, APP)).upgraded).toBe(false);
  });

  it('limits.wsTicketTtlMs: a ticket used after its lifetime is refused', async () => {
    const ticket = await ticketFor({ origin: APP, authorization: `Bearer ${view.token}` });
    const issued = Date.now();
    await until(() => (Date.now() - issued > 1_700 ? true : undefined), 'the ticket lifetime has passed', 5_000);
    expect((await upgrade(ticket, APP)).status).toBe(401);
  });

  it('a ticket is only a WebSocket credential: it authenticates no HTTP route', async () => {
    const ticket = await ticketFor({ origin: APP, authorization: `Bearer ${view.token}` });
    expect((await rawRequest(hub.port, { path: `/api/me?ticket=${ticket}`, headers: { host: host(), origin: APP } })).status).toBe(401);
    expect((await upgrade(ticket, APP)).upgraded).toBe(true);
  });

  it('a token revoked after its ticket was issued opens nothing', async () => {
    const doomed = await createToken(hub, 'view', 'doomed');
    const ticket = await ticketFor({ origin: APP, authorization: `Bearer ${doomed.token}` });
    hub.auth.tokens.revoke(doomed.id);
    expect((await upgrade(ticket, APP)).status).toBe(401);
  });

  it('a DPoP-bound token gets a ticket only with a proof', async () => {
    const key = await DpopKey.generate();
    const issued = await hub.auth.tokens.create({
      name: 'bound',
      scope: 'view',
      ttlMs: 60_000,
      via: 'pairing',
      jkt: await key.thumbprint(),
    });
    registerSecret(issued.token);
    const target = `http://${host()}/api/ws-ticket`;
    const refused = await rawRequest(hub.port, {
      method: 'POST',
      path: '/api/ws-ticket',
      headers: { host: host(), origin: APP, authorization: `DPoP ${issued.token}` },
    });
    expect(refused.status).toBe(401);
    const ticket = await ticketFor({ origin: APP, ...(await key.headers('POST', target, issued.token)) });
    expect((await upgrade(ticket, APP)).upgraded).toBe(true);
  });

  it('tickets never reach the log, not even in a refused upgrade', async () => {
    const ticket = await ticketFor({ origin: APP, authorization: `Bearer ${view.token}` });
    await upgrade(ticket, APP);
    await upgrade(ticket, APP);
    const log = fs.readFileSync(hub.logFile, 'utf8');
    // The log is real (the upgrade requests are in it), and the ticket is not.
    expect(log).toContain(hub.wsPath);
    expect(log).not.toContain(ticket);
    expect(log).not.toContain(encodeURIComponent(ticket));
  });
});

describe('WsTickets', () => {
  it('limits.wsTicketsMax: past it the oldest outstanding ticket is dropped', () => {
    const tickets = new WsTickets({ ttlMs: 30_000, max: 2 });
    const a = tickets.issue('cred-a', undefined).ticket;
    const b = tickets.issue('cred-b', undefined).ticket;
    const c = tickets.issue('cred-c', undefined).ticket;
    expect(tickets.redeem(a, undefined)).toBeUndefined();
    expect(tickets.redeem(b, undefined)).toBe('cred-b');
    expect(tickets.redeem(c, undefined)).toBe('cred-c');
  });

  it('limits.wsTicketTtlMs: at its lifetime a ticket is gone', () => {
    let now = 1_000;
    const tickets = new WsTickets({ ttlMs: 30_000, max: 8, now: () => now });
    const early = tickets.issue('cred', 'https://a.test').ticket;
    const late = tickets.issue('cred', 'https://a.test').ticket;
    now += 29_999;
    expect(tickets.redeem(early, 'https://a.test')).toBe('cred');
    now += 1;
    expect(tickets.redeem(late, 'https://a.test')).toBeUndefined();
  });
});
