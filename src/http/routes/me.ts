import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from '../../errors.js';
import type { HubIdentity } from '../../auth/hub-id.js';
import { SCOPES } from '../../auth/identity.js';

export const meSchema = z.object({
  hubId: z.string(),
  name: z.string(),
  version: z.string(),
  identity: z.object({
    tokenId: z.string(),
    name: z.string(),
    person: z.string(),
    scope: z.enum(SCOPES),
    expiresAt: z.number().optional(),
  }),
  /** True when the credential is DPoP-bound: each request must carry a proof of its key. */
  bound: z.boolean(),
});

/**
 * `GET /api/me`: which hub this is and who the caller is to it. Any scope; a
 * peer's app calls it cross-origin with a DPoP-bound token to learn the machine's id and name.
 */
export const meRoutes: FastifyPluginAsync<{ hub: HubIdentity }> = async (app, { hub }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/me',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'This hub (id, name, version) and the identity of the presented credential',
        tags: ['tokens'],
        response: { 200: meSchema },
      },
    },
    async (req) => {
      const who = req.identity;
      if (!who) throw new HubError('HUB_ERR_UNAUTHENTICATED');
      return {
        hubId: hub.hubId,
        name: hub.name,
        version: hub.version,
        identity: {
          tokenId: who.tokenId,
          name: who.name,
          person: who.person,
          scope: who.scope,
          ...(who.expiresAt === undefined ? {} : { expiresAt: who.expiresAt }),
        },
        bound: who.jkt !== undefined,
      };
    },
  );
};
