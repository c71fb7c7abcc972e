import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { QuotaService } from '../../settings/provider-quota.js';

export interface QuotaRouteOptions {
  quota: QuotaService;
}

const kind = z.enum(['success', 'auth_error', 'rate_limited', 'unavailable', 'not_configured']);
const item = z.object({
  key: z.string(),
  label: z.string(),
  usedPercent: z.number(),
  usedCount: z.number().optional(),
  totalCount: z.number().optional(),
  nextResetTime: z.number().optional(),
  detail: z.array(z.object({ modelCode: z.string(), usage: z.number() })).optional(),
});
const section = z.object({ kind, level: z.string().optional(), items: z.array(item).optional() });

/**
 * `GET /api/quota` — zcode-acp-remote's quota card (docs/CLIENT-PROTOCOL.md): per provider a
 * `kind` and, where the provider has a quota API, its level and bars. Upstream failures are
 * kinds, not errors; the answer is reused for `quotaCacheMs`.
 */
export const quotaRoutes: FastifyPluginAsync<QuotaRouteOptions> = async (app, opts) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/quota',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Account quota per provider (GLM Coding Plan quota API; Opencode Go not configured)',
        tags: ['compat'],
        response: {
          200: z.object({
            glm: section,
            opencode: z.object({ kind: z.literal('not_configured') }),
            providers: z.array(section.extend({ providerId: z.string(), providerName: z.string().optional() })),
          }),
        },
      },
    },
    async () => opts.quota.report(),
  );
};
