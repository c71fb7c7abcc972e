import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditLog } from '../../auth/audit-log.js';
import { grantFileSchema, grantSchema, type GrantStore } from '../../policy/grant-store.js';

export interface GrantRouteOptions {
  grants: GrantStore;
  audit?: AuditLog | undefined;
}

/**
 * The "always allow" grants over REST (docs/SECURITY.md "Always allow"): listed for operators
 * (like the rules: what will be allowed without asking them), removed by admins; a removal is
 * audited and holds for the next request.
 */
export const grantRoutes: FastifyPluginAsync<GrantRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { grants } = opts;

  r.get(
    '/api/policy/grants',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'The "always allow" grants the hub keeps, oldest first',
        tags: ['policy'],
        response: { 200: grantFileSchema },
      },
    },
    async () => grants.current,
  );

  r.delete(
    '/api/policy/grants/:id',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Remove an "always allow" grant: its requests are asked again from the next one',
        tags: ['policy'],
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: z.object({ revision: z.number().int(), removed: grantSchema }) },
      },
    },
    async (req) => {
      const removed = grants.remove(req.params.id);
      if (req.identity)
        opts.audit?.record({
          identity: req.identity,
          action: 'policy.grant.remove',
          detail: {
            grant: {
              id: removed.id,
              toolName: removed.toolName,
              ...(removed.ruleContent === undefined ? {} : { ruleContent: removed.ruleContent }),
              workspace: removed.workspace,
              by: removed.by.person,
            },
          },
        });
      return { revision: grants.current.revision, removed };
    },
  );
};
