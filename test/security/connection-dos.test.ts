import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import { startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';
import { authedGet, closedWithin, openIdle, openTracked, wsFirstMessage, type TrackedSocket } from './helpers/sockets.js';

/**
 * Written as the attack: sockets that never finish a request (a body trickled
 * one byte at a time, on the public /api/pair and after a 401), keep-alive sockets parked
 * for 72 s, and thousands of idle connections that exhausted the file descriptors. The bounds
 * are set small here so each is crossed in seconds; "never closed" is judged with a generous
 * wait, never a timing assertion.
 */
const NEVER_MS = 8_000;
const open: TrackedSocket[] = [];
const track = (ts: TrackedSocket[]) => (open.push(...ts), ts);

afterEach(() => {
  for (const t of open.splice(0)) t.socket.destroy();
});

function trickle(t: TrackedSocket, everyMs: number): () => void {
  const timer = setInterval(() => {
    if (!t.closed) t.socket.write('a');
  }, everyMs);
  return () => clearInterval(timer);
}

describe('[SEC-12] request, body and keep-alive timeouts', () => {
  let hub: SecuredHub;
  beforeAll(async () => {
    hub = await startSecuredHub({ limits: { httpRequestTimeoutMs: 1_000, httpKeepAliveTimeoutMs: 500, httpTimeoutSweepMs: 250 } });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('a body trickled one byte at a time on the public /api/pair is cut off at the request timeout', async () => {
    const [t] = track([await openTracked(hub.port)]);
    t!.socket.write(
      `POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"code":"`,
    );
    const stop = trickle(t!, 200);
    const closed = await closedWithin(t!, NEVER_MS);
    stop();
    expect(closed).toBe(true);
  });

  it('after a 401 the connection is closed, however the client keeps trickling its body', async () => {
    const [t] = track([await openTracked(hub.port)]);
    t!.socket.write(
      `POST /api/tokens HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{`,
    );
    const stop = trickle(t!, 200);
    const closed = await closedWithin(t!, NEVER_MS);
    stop();
    expect(t!.data).toMatch(/^HTTP\/1\.1 401/);
    expect(closed).toBe(true);
  });

  it('an idle keep-alive socket is closed at the keep-alive timeout', async () => {
    const [t] = track([await openTracked(hub.port)]);
    t!.socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\n\r\n`);
    expect(await closedWithin(t!, NEVER_MS)).toBe(true);
    expect(t!.data).toMatch(/^HTTP\/1\.1 200/);
  });

  it('the defaults are bounded (no 0 = forever)', () => {
    expect(hub.app.server.requestTimeout).toBe(1_000);
    expect(hub.app.server.keepAliveTimeout).toBe(500);
    for (const k of ['httpRequestTimeoutMs', 'httpKeepAliveTimeoutMs', 'unauthConnectionsTotal', 'unauthConnectionsPerAddress'] as const)
      expect(LIMITS[k]).toBeGreaterThan(0);
  });
});

describe('[SEC-12] caps on connections that have not authenticated', () => {
  let hub: SecuredHub;
  const perAddress = 20;
  const total = 30;
  beforeAll(async () => {
    // A long pre-auth deadline, so it is the caps that are crossed here, not the deadline.
    hub = await startSecuredHub({
      limits: {
        preAuthDeadlineMs: 120_000,
        httpKeepAliveTimeoutMs: 60_000,
        unauthConnectionsPerAddress: perAddress,
        unauthConnectionsTotal: total,
      },
    });
  });
  afterAll(async () => {
    await hub?.close();
  });

  it('a flood of idle sockets from one address keeps only the newest per-address cap; health and an authenticated client still answer', async () => {
    // An authenticated client that was connected before the flood.
    const before = track([await openTracked(hub.port)])[0]!;
    before.socket.write(`GET /api/me HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nAuthorization: Bearer ${hub.adminToken}\r\n\r\n`);
    const flood = track(await openIdle(hub.port, 300));
    const stillOpen = () => flood.filter((t) => !t.closed).length;
    await expect.poll(stillOpen, { timeout: 15_000 }).toBeLessThanOrEqual(perAddress);
    // The oldest were closed first.
    expect(flood.slice(0, 100).every((t) => t.closed)).toBe(true);
    expect(await authedGet(hub.port, '/api/health', '')).toBe(200);
    expect(await authedGet(hub.port, '/api/me', hub.adminToken)).toBe(200);
    expect(await wsFirstMessage(`ws://127.0.0.1:${hub.port}${hub.wsPath}`, hub.adminToken)).toBeTruthy();
    // The connection that authenticated is not counted against the cap and was left alone.
    before.socket.write(`GET /api/me HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nAuthorization: Bearer ${hub.adminToken}\r\n\r\n`);
    await expect.poll(() => (before.data.match(/HTTP\/1\.1 200/g) ?? []).length, { timeout: 10_000 }).toBe(2);
    expect(before.closed).toBe(false);
  });

  it('another address keeps its own share while one address floods; the total is bounded too', async () => {
    const flood = track(await openIdle(hub.port, 100, '127.0.0.1'));
    await expect.poll(() => flood.filter((t) => !t.closed).length, { timeout: 15_000 }).toBeLessThanOrEqual(perAddress);
    const other = track(await openIdle(hub.port, 5, '127.0.0.2'));
    const third = track(await openIdle(hub.port, 15, '127.0.0.3'));
    const all = [...flood, ...other, ...third];
    await expect.poll(() => all.filter((t) => !t.closed).length, { timeout: 15_000 }).toBeLessThanOrEqual(total);
    // The flooding address lost its oldest sockets to make room; the quiet one kept all of its own.
    expect(other.filter((t) => !t.closed).length).toBe(5);
  });
});
