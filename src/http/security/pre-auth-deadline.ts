import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { isRedispatched } from '../other-upgrades.js';
import { tcpSocket, transportSocket } from '../protocol-switch.js';

/**
 * Closes a connection that has not finished sending its first request head (an HTTP request
 * or the WebSocket upgrade) within `deadlineMs`, however much it trickles (WS-03, slowloris).
 * The WebSocket upgrade itself must carry a credential, so no socket is ever open
 * unauthenticated past this point; header bytes are bounded by node's maxHeaderSize (16 KiB,
 * under LIMITS.preAuthMaxBytes).
 */
export function installPreAuthDeadline(app: FastifyInstance, deadlineMs: number): void {
  const started = new WeakSet<Socket>();
  const server = app.server;
  // Node's own check for later requests on a kept-alive socket (run on its 30 s sweep).
  server.headersTimeout = Math.min(server.headersTimeout || deadlineMs, deadlineMs);
  // HTTP/2 requests are emitted here too (protocol-switch.ts); their first HEADERS frame is the head.
  server.on('request', (req: Parameters<typeof transportSocket>[0]) => {
    const socket = transportSocket(req);
    if (socket) started.add(socket);
  });
  server.on('upgrade', (_req: unknown, socket: Socket) => started.add(tcpSocket(socket)));
  server.on('connection', (socket: Socket) => {
    // Handed back to the parser after an ignored upgrade: its first head has arrived.
    if (isRedispatched(socket)) return;
    const timer = setTimeout(() => {
      if (!started.has(socket)) socket.destroy();
    }, deadlineMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
