import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

export interface WorkspaceRouteOptions {
  defaultWorkspace: string;
  workspaces: readonly string[];
}

/**
 * `GET /api/workspaces`: the workspace roots sessions may be opened in, and the default one
 * (issue 11 item 2). `operate`, like `session/new`: a dashboard with `view` has no use for them.
 */
export const workspaceRoutes: FastifyPluginAsync<WorkspaceRouteOptions> = async (app, opts) => {
  app.withTypeProvider<ZodTypeProvider>().get('/api/workspaces', {
    config: { scope: 'operate' },
    schema: { summary: 'Workspace roots: where sessions may be opened', tags: ['sessions'], response: { 200: z.object({ defaultWorkspace: z.string(), workspaces: z.array(z.string()) }) } },
  }, async () => ({ defaultWorkspace: opts.defaultWorkspace, workspaces: [...opts.workspaces] }));
};
