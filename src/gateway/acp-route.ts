import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLocalPeer } from '../policy/local-peer.js';
import type { FastifyInstance } from 'fastify';
import type {} from '@fastify/websocket';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from '../errors.js';
import type { GatewayServer, GatewayServerDeps } from './gateway-server.js';
import { LEGACY_INSTANCE_ID, profileFor } from './legacy-profile.js';
import { registerStreamableHttp } from './http-transport.js';
import { rawSocket } from './write-batch.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The WebSocket gateway (live connections), for status routes and tests. */
    gateway: GatewayServer;
  }
}

const acpQuery = z.object({
  /** zcode-acp-remote: selects the legacy profile (ARCHITECTURE.md §5.1). */
  instance: z.string().max(128).optional(),
  /** Compat credential; read by the auth hook, never logged. */
  token: z.string().optional(),
  /** Single-use WebSocket ticket (`POST /api/ws-ticket`); read by the auth hook, never logged. */
  ticket: z.string().max(256).optional(),
});

/**
 * `/acp`: `GET` upgraded to WebSocket (ARCHITECTURE.md §5), and Streamable HTTP (`POST`, the
 * non-upgrade `GET` event stream, `DELETE`; http-transport.ts) over the same gateway. The upgrade passes the same hooks as every
 * route (Host/Origin, then auth with scope `view`); caps and the instance id are checked before
 * the upgrade so a refused client gets an HTTP status, not a dropped socket.
 * Requires @fastify/websocket to be registered first (buildApp does, with `maxPayload`).
 */
export const gatewayPlugin = fp(
  async (app: FastifyInstance, opts: { gateway: GatewayServer; config: GatewayServerDeps['config'] }) => {
    const { gateway } = opts;
    app.decorate('gateway', gateway);
    gateway.start();
    app.addHook('preClose', async () => gateway.close());

    const http = registerStreamableHttp(app, gateway, opts.config);

    // The RFD's `Acp-Connection-Id` on the 101 answer; the connection made from that upgrade takes the same id.
    const upgradeIds = new WeakMap<IncomingMessage, string>();
    app.websocketServer.on('headers', (headers: string[], req: IncomingMessage) => {
      const id = randomUUID();
      upgradeIds.set(req, id);
      headers.push(`Acp-Connection-Id: ${id}`);
    });

    app.withTypeProvider<ZodTypeProvider>().route({
      method: 'GET',
      url: '/acp',
      config: { scope: 'view' },
      schema: {
        summary: 'ACP: WebSocket upgrade, or the Streamable HTTP event stream (docs/CLIENT-PROTOCOL.md)',
        tags: ['acp'],
        querystring: acpQuery,
      },
      preValidation: async (req) => {
        const { instance } = req.query;
        if (instance !== undefined && instance !== LEGACY_INSTANCE_ID) throw new HubError('HUB_ERR_NOT_FOUND', 'Unknown instance');
        if (!req.identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
        // An event stream joins a connection that was admitted at its initialize.
        if (!req.ws) return;
        const refused = gateway.admissionError(req.identity);
        if (refused) throw refused;
      },
      wsHandler: (socket, req) => {
        // preValidation guarantees the identity; the auth hook set it before.
        if (!req.identity) {
          socket.close(4401, 'unauthenticated');
          return;
        }
        // The upgrade request's socket is the TCP socket `ws` writes to (it keeps its own private).
        const local = isLocalPeer(req.raw.socket.remoteAddress, req.headers);
        gateway.accept(
          socket,
          req.identity,
          profileFor(req.query.instance),
          rawSocket(req.raw.socket),
          req.headers.origin,
          local,
          upgradeIds.get(req.raw),
        );
      },
      handler: (req, reply) => http.openStream(req, reply),
    });
  },
  { name: 'zcode-hub-gateway', dependencies: ['@fastify/websocket'] },
);
