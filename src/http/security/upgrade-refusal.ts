import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';

/**
 * Ends the socket of a WebSocket upgrade that was answered with an HTTP error (Host, Origin,
 * auth, scope, limits). The upgrade socket has left node's HTTP parser, so nothing else would
 * close it: a client could park half-open sockets forever and block shutdown.
 */
export function installUpgradeRefusal(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    // HTTP/2 has no upgrade (RFC 9113 §8.2.2), and its `socket` is the whole shared connection.
    if (reply.statusCode === 101 || req.headers.upgrade === undefined || req.raw.httpVersionMajor === 2) return;
    const socket = req.raw.socket as Socket | null;
    if (socket && !socket.destroyed) socket.destroySoon();
  });
}
