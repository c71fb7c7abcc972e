import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';

/**
 * Ends the socket of a WebSocket upgrade that was answered with an HTTP error (Host, Origin,
 * auth, scope, limits). The upgrade socket has left node's HTTP parser, so nothing else would
 * close it: a client could park half-open sockets forever and block shutdown.
 */
export function installUpgradeRefusal(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode === 101 || req.headers.upgrade === undefined) return;
    const socket = req.raw.socket as Socket | null;
    if (socket && !socket.destroyed) socket.destroySoon();
  });
}
