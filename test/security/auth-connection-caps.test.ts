import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { effectiveTotal, openFileLimit } from '../../src/http/security/auth-connection-caps.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';
import { openTracked, type TrackedSocket } from './helpers/sockets.js';

/**
 * Written as the attack: one device token opened keep-alive HTTP connections until it held
 * almost every descriptor of the daemon (19,857 of 20,000), because only unauthenticated sockets
 * and WebSockets were capped. Authenticated connections are now capped per token and in total,
 * with room kept for the admin; the caps are set small here and each is crossed.
 */
const PER_TOKEN = 3;
const TOTAL = 8;
const RESERVE = 2;

const open: TrackedSocket[] = [];

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** One request on a kept-alive raw connection; resolves with its answer (the next one on that socket). */
async function ask(hub: HubHarness, t: TrackedSocket, token: string | undefined, path = '/api/me'): Promise<Answer> {
  const from = t.data.length;
  t.socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${hub.daemon.port}\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}Connection: keep-alive\r\n\r\n`,
  );
  return until(() => {
    const text = t.data.slice(from);
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = text.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    const body = text.slice(end + 4);
    if (Buffer.byteLength(body) < length) return undefined;
    return { status: Number(head.split(' ')[1]), head, body };
  }, `an answer to ${path}`);
}

async function connection(hub: HubHarness): Promise<TrackedSocket> {
  const t = await openTracked(hub.daemon.port);
  open.push(t);
  return t;
}

describe('authenticated connections are capped per token and in total', () => {
  // A fresh hub per case: a socket closed by the client leaves the count when the hub sees it close.
  let hub: HubHarness;
  beforeEach(async () => {
    hub = await startHub({
      limits: {
        authConnectionsPerToken: PER_TOKEN,
        authConnectionsTotal: TOTAL,
        authConnectionsAdminReserve: RESERVE,
        httpKeepAliveTimeoutMs: 120_000,
      },
    });
  });
  afterEach(async () => {
    for (const t of open.splice(0)) t.socket.destroy();
    await hub?.close();
  });

  it('one token past authConnectionsPerToken gets 429 HUB_ERR_TOO_MANY_CONNECTIONS on the new connection, which closes; its others keep working', async () => {
    const view = await hub.token('view', 'hog');
    const held: TrackedSocket[] = [];
    for (let i = 0; i < PER_TOKEN; i++) {
      const t = await connection(hub);
      expect((await ask(hub, t, view)).status).toBe(200);
      held.push(t);
    }
    const extra = await connection(hub);
    const refused = await ask(hub, extra, view);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: 'HUB_ERR_TOO_MANY_CONNECTIONS', details: { limit: 'authConnectionsPerToken' } },
    });
    await until(() => extra.closed || undefined, 'the refused connection closed');
    // Another request on a connection it already holds is no new connection.
    for (const t of held) expect((await ask(hub, t, view)).status).toBe(200);
    // Closing one frees its place.
    held[0]!.socket.destroy();
    await until(() => held[0]!.closed || undefined, 'closed');
    const again = await connection(hub);
    await until(async () => ((await ask(hub, again, view)).status === 200 ? true : undefined), 'a freed place');
    for (const t of [...held.slice(1), again]) t.socket.destroy();
    const scrape = await connection(hub);
    const metrics = (await ask(hub, scrape, hub.adminToken, '/metrics')).body;
    scrape.socket.destroy();
    expect(metrics).toMatch(/zcode_hub_connections_refused_total\{limit="authConnectionsPerToken"\} 1/);
  });

  it('a request injected in-process (fastify inject, no socket) holds no place: real connections still get theirs', async () => {
    const view = await hub.token('view', 'injected');
    const headers = { host: `127.0.0.1:${hub.daemon.port}`, authorization: `Bearer ${view}` };
    // More than both caps: none of them is a connection, so none is counted, and none left behind.
    for (let i = 0; i < TOTAL + 2; i++) {
      const res = await hub.daemon.app.inject({ method: 'GET', url: '/api/me', headers });
      expect(res.statusCode, `injected request ${i + 1}`).toBe(200);
    }
    for (let i = 0; i < PER_TOKEN; i++) expect((await ask(hub, await connection(hub), view)).status, `connection ${i + 1}`).toBe(200);
    expect((await ask(hub, await connection(hub), view)).status).toBe(429);
  });

  it('past authConnectionsTotal minus the admin reserve a device gets 503 HUB_ERR_CONNECTIONS_FULL; the admin still gets in, up to the total; health needs no place', async () => {
    const devices = [await hub.token('view', 'd1'), await hub.token('operate', 'd2')];
    for (let i = 0; i < TOTAL - RESERVE; i++) {
      const t = await connection(hub);
      expect((await ask(hub, t, devices[i % 2])).status, `device connection ${i + 1}`).toBe(200);
    }
    const late = await hub.token('view', 'late');
    const refused = await ask(hub, await connection(hub), late);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: 'HUB_ERR_CONNECTIONS_FULL', details: { limit: 'authConnectionsTotal' } },
    });
    for (let i = 0; i < RESERVE; i++) expect((await ask(hub, await connection(hub), hub.adminToken)).status, `admin ${i + 1}`).toBe(200);
    expect((await ask(hub, await connection(hub), hub.adminToken)).status).toBe(503);
    expect((await ask(hub, await connection(hub), undefined, '/api/health')).status).toBe(200);
  });

  it('WebSockets are the gateway’s to count: a token holding its HTTP places still opens one', async () => {
    const operate = await hub.token('operate', 'phone');
    for (let i = 0; i < PER_TOKEN; i++) expect((await ask(hub, await connection(hub), operate)).status).toBe(200);
    const ws = await hub.initializedClient({ token: operate, name: 'phone socket' });
    expect(await ws.request('session/list', {})).toBeDefined();
    expect((await ask(hub, await connection(hub), operate)).status).toBe(429);
  });

  it('the total stays below the process descriptor limit, with room for WebSockets, unauthenticated sockets and files', () => {
    expect(effectiveTotal(4_096, 256 + 1_024, 20_000)).toBe(4_096);
    expect(effectiveTotal(4_096, 256 + 1_024, 4_096)).toBe(4_096 - 256 - 1_024 - 256);
    expect(effectiveTotal(4_096, 256, undefined)).toBe(4_096);
    expect(effectiveTotal(100, 256, 1_000_000)).toBe(100);
    expect(
      openFileLimit(
        () => 'Limit  Soft Limit  Hard Limit  Units\nMax open files            20000                20000                files\n',
      ),
    ).toBe(20_000);
    expect(openFileLimit(() => 'Max open files            unlimited            unlimited            files\n')).toBeUndefined();
  });
});
