import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthServices } from '../../auth/auth-services.js';
import { auditEntrySchema } from '../../auth/audit-log.js';

/** `GET /api/audit?cursor=&limit=` for admins: entries oldest first, `nextCursor` while more remain. */
export const auditRoutes: FastifyPluginAsync<{ auth: AuthServices }> = async (app, { auth }) => {
  const max = auth.limits.auditPageMax;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/audit',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Audit log (prompts, answers, cancels, settings and token changes, pairing)',
        tags: ['audit'],
        querystring: z.object({
          cursor: z
            .string()
            .regex(/^\d{1,15}$/)
            .optional(),
          limit: z.coerce.number().int().min(1).max(max).default(Math.min(100, max)),
        }),
        response: { 200: z.object({ entries: z.array(auditEntrySchema), nextCursor: z.string().optional() }) },
      },
    },
    async (req) => {
      const page = auth.audit.page(req.query.cursor === undefined ? 0 : Number(req.query.cursor), req.query.limit);
      return page.next === undefined ? { entries: page.entries } : { entries: page.entries, nextCursor: String(page.next) };
    },
  );
};
