import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from '../../errors.js';
import type { WsTickets } from '../../auth/ws-tickets.js';
import { extractCredential } from '../credentials.js';

/**
 * `POST /api/ws-ticket`: browsers cannot put a DPoP header on a WebSocket, so a
 * client proves itself here (any scope; DPoP for bound tokens, checked by the auth hook) and
 * opens `/acp?ticket=…` within `wsTicketTtlMs`, once, from the same Origin.
 */
export const wsTicketRoutes: FastifyPluginAsync<{ tickets: WsTickets; cookieName: string }> = async (app, { tickets, cookieName }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/ws-ticket',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'A single-use ticket for the /acp WebSocket upgrade (`/acp?ticket=…`), for clients that cannot send headers on it',
        tags: ['acp'],
        response: {
          200: z.object({
            ticket: z.string(),
            expiresAt: z.number(),
            // Said before the socket opens, so a client's first connect may pipeline too (CLIENT-PROTOCOL.md "WebSocket").
            pipelining: z.boolean().describe('/acp serves requests sent behind `initialize`, before its answer'),
          }),
        },
      },
    },
    async (req, reply) => {
      const credential = extractCredential(req, cookieName);
      if (!credential || !req.identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
      reply.header('cache-control', 'no-store');
      return { ...tickets.issue(credential.value, req.headers.origin), pipelining: true };
    },
  );
};
