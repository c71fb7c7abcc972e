import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditSink } from '../../auth/audit-log.js';
import { listWorkspaceDirs } from '../../fs/workspace-dirs.js';
import type { WorkspaceRoots } from '../../fs/workspace-roots.js';
import { audited } from '../audited-call.js';

export interface WorkspaceRouteOptions {
  defaultWorkspace: string;
  workspaces: readonly string[];
  /** The roots check `session/new` uses; the folder listing is confined by it. */
  roots: WorkspaceRoots;
  /** `LIMITS.workspaceDirsMax`. */
  dirsMax: number;
  /** Where each folder listing is recorded, served or refused, as git and file reads are. */
  audit?: AuditSink;
}

const dirEntry = z.object({ name: z.string(), path: z.string() });

/**
 * `GET /api/workspaces`: the workspace roots sessions may be opened in, and the default one
 *. `operate`, like `session/new`: a dashboard with `view` has no use for them.
 */
export const workspaceRoutes: FastifyPluginAsync<WorkspaceRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/workspaces',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'Workspace roots: where sessions may be opened',
        tags: ['sessions'],
        response: { 200: z.object({ defaultWorkspace: z.string(), workspaces: z.array(z.string()) }) },
      },
    },
    async () => ({ defaultWorkspace: opts.defaultWorkspace, workspaces: [...opts.workspaces] }),
  );

  // Read-only and folders only: what the new-session picker browses. The same
  // check as session/new confines it, so it shows nothing a session could not be opened in.
  // A listing reads the machine's folders: audited, served or refused, like git and file reads.
  r.get(
    '/api/workspaces/dirs',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'The sub-folders of a folder inside a workspace root (hidden ones left out); 400/403 naming the roots for any other path',
        tags: ['sessions'],
        querystring: z.object({ path: z.string().min(1).max(4096) }),
        response: {
          200: z.object({
            path: z.string(),
            root: z.string(),
            parent: z.string().optional(),
            dirs: z.array(dirEntry),
            truncated: z.boolean(),
          }),
        },
      },
    },
    async (req) =>
      audited(
        opts.audit,
        { identity: req.identity, action: 'workspace.dirs', detail: { path: req.query.path } },
        () => listWorkspaceDirs(opts.roots, req.query.path, opts.dirsMax),
        (listing) => ({ dirs: listing.dirs.length }),
      ),
  );
};
