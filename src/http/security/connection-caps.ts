import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { isRedispatched } from '../other-upgrades.js';
import { transportSocket } from '../protocol-switch.js';

/**
 * Bounds on connections that have not authenticated: at most `total` in all
 * and `perAddress` from one address. A connection leaves the pool as soon as one of its requests
 * (or its WebSocket upgrade) authenticates, and when it closes. Over a cap the hub closes the
 * *oldest* unauthenticated connection — of the same address, or of the busiest address for the
 * total — rather than refusing the new one: a flood then only shortens the flood's own sockets'
 * lives, while a real client, which sends its request at once, still gets in. Authenticated
 * connections are bounded elsewhere (WebSocket caps, keep-alive timeout).
 */
export interface ConnectionCaps {
  total: number;
  perAddress: number;
}

export function installConnectionCaps(app: FastifyInstance, caps: ConnectionCaps): void {
  const byAddress = new Map<string, Set<Socket>>();
  const addressOf = new WeakMap<Socket, string>();
  let count = 0;

  const leave = (socket: Socket): void => {
    const address = addressOf.get(socket);
    if (address === undefined) return;
    addressOf.delete(socket);
    const set = byAddress.get(address);
    if (!set?.delete(socket)) return;
    count -= 1;
    if (set.size === 0) byAddress.delete(address);
  };
  const evictOldest = (set: Set<Socket>): void => {
    // Sets iterate in insertion order: the first is the oldest.
    const oldest = set.values().next().value;
    if (!oldest) return;
    leave(oldest);
    oldest.destroy();
  };

  app.server.on('connection', (socket: Socket) => {
    // Handed back to the parser after an ignored upgrade: counted when it connected.
    if (isRedispatched(socket)) return;
    const address = socket.remoteAddress ?? 'unknown';
    let set = byAddress.get(address);
    if (!set) byAddress.set(address, (set = new Set()));
    set.add(socket);
    addressOf.set(socket, address);
    count += 1;
    socket.once('close', () => leave(socket));
    while (set.size > caps.perAddress) evictOldest(set);
    while (count > caps.total) {
      let busiest: Set<Socket> | undefined;
      for (const s of byAddress.values()) if (!busiest || s.size > busiest.size) busiest = s;
      if (!busiest) break;
      evictOldest(busiest);
    }
  });

  // After the auth hook (onRequest) has run; upgrade requests pass here too.
  app.addHook('preValidation', async (req) => {
    // The TCP socket for HTTP/1.1 and HTTP/2 alike: one authenticated stream admits its connection.
    const socket = req.identity ? transportSocket(req.raw) : undefined;
    if (socket) leave(socket);
  });
}
