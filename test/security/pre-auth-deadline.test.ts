import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawConnect } from './helpers/raw-http.js';
import { startSecuredHub, type SecuredHub } from './helpers/secured-hub.js';

describe('[WS-03] unauthenticated connections cannot linger', () => {
  let hub: SecuredHub;
  beforeAll(async () => {
    hub = await startSecuredHub({ limits: { preAuthDeadlineMs: 1_000 } });
  });
  afterAll(async () => {
    await hub.close();
  });

  it('[WS-03] an upgrade request trickled byte by byte is closed at the pre-auth deadline regardless of its traffic', async () => {
    const socket = await rawConnect(hub.port);
    const head = `GET ${hub.wsPath} HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Padding: ${'a'.repeat(10_000)}`;
    let i = 0;
    let sent = 0;
    // Bounded: at most the whole head, one byte every 20 ms; stops when the hub closes the socket.
    const trickle = setInterval(() => {
      if (socket.destroyed || i >= head.length) return;
      socket.write(head[i++] ?? '');
      sent++;
    }, 20);
    const closed = await new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
    clearInterval(trickle);
    expect(closed).toBe(true);
    // Closed before the head was complete: the traffic did not keep it alive.
    expect(sent).toBeLessThan(head.length);
  });

  it('[WS-03] a connection that sends nothing at all is closed at the deadline', async () => {
    const socket = await rawConnect(hub.port);
    const closed = await new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
    expect(closed).toBe(true);
  });

  it('[WS-03] an upgrade without a credential is refused 401 before any socket is opened', async () => {
    const socket = await rawConnect(hub.port);
    let data = '';
    socket.on('data', (c: Buffer) => (data += c.toString('utf8')));
    socket.write(
      `GET ${hub.wsPath} HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    await new Promise((resolve) => socket.once('close', resolve));
    expect(data).toMatch(/^HTTP\/1\.1 401/);
  });
});
