import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditLog } from '../../auth/audit-log.js';
import type { PublicUrls } from '../security/public-urls.js';

export interface PublicUrlRouteOptions {
  urls: PublicUrls;
  /** `--public-url`, shown first and not removable here. */
  configured: string | undefined;
  audit?: AuditLog | undefined;
}

const listSchema = z.object({ configured: z.string().optional(), added: z.array(z.string()) });

/**
 * Admin: the public addresses the hub answers to, and adding one without a restart (a quick
 * tunnel's new hostname). Takes effect on the next request; kept across restarts.
 */
export const publicUrlRoutes: FastifyPluginAsync<PublicUrlRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const view = () => ({ ...(opts.configured ? { configured: opts.configured } : {}), added: [...opts.urls.list()] });

  r.get(
    '/api/settings/public-urls',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Public addresses the hub answers to (--public-url and the ones added at run time)',
        tags: ['settings'],
        response: { 200: listSchema },
      },
    },
    async () => view(),
  );

  r.post(
    '/api/settings/public-urls',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Add a public address (e.g. a tunnel hostname) without restarting',
        tags: ['settings'],
        body: z.object({ url: z.string().min(1).max(2048) }).strict(),
        response: { 201: listSchema },
      },
    },
    async (req, reply) => {
      const url = opts.urls.add(req.body.url);
      if (req.identity) opts.audit?.record({ identity: req.identity, action: 'publicUrl.add', detail: { url } });
      reply.code(201);
      return view();
    },
  );

  r.delete(
    '/api/settings/public-urls',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Remove an added public address',
        tags: ['settings'],
        querystring: z.object({ url: z.string().min(1).max(2048) }),
        response: { 200: listSchema },
      },
    },
    async (req) => {
      const removed = opts.urls.remove(req.query.url);
      if (removed && req.identity)
        opts.audit?.record({ identity: req.identity, action: 'publicUrl.remove', detail: { url: req.query.url } });
      return view();
    },
  );
};
