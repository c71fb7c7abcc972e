import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import path from 'node:path';
import { z } from 'zod';
import type { AuditSink } from '../../auth/audit-log.js';
import type { HubConfig } from '../../config/schema.js';
import { HubError } from '../../errors.js';
import type { SecretPaths } from '../../fs/secret-paths.js';
import type { WorkspaceRoots } from '../../fs/workspace-roots.js';
import { isTracked, trackedDiff, untrackedDiff } from '../../git/diff.js';
import { gitState, repoPrefix } from '../../git/status.js';
import { readFileConfined, resolveInside, resolveRoot, withConfinedFile } from '../compat-fs.js';
import type { RestHub } from '../hub-api.js';
import { audited } from '../audited-call.js';
import type { ZodApp } from './zod-app.js';

export interface GitRouteOptions {
  hub: RestHub;
  config: HubConfig;
  /** Where sessions may work, and the hub's own files (never shown). */
  roots: WorkspaceRoots;
  secrets: SecretPaths;
  audit?: AuditSink;
}

const params = z.object({ id: z.string().min(1).max(256) });
const fileSchema = z.object({
  path: z.string().describe('relative to the session workspace'),
  status: z.enum(['modified', 'added', 'deleted', 'renamed', 'copied', 'typechange', 'untracked', 'conflicted']),
  staged: z.boolean(),
  from: z.string().optional().describe("a rename's or copy's source"),
});
const stateSchema = z.object({
  isRepo: z.boolean(),
  branch: z.string().optional(),
  detached: z.boolean().optional(),
  upstream: z.string().optional(),
  ahead: z.number().optional(),
  behind: z.number().optional(),
  files: z.array(fileSchema),
  truncated: z.boolean(),
});

/**
 * `GET /api/sessions/:id/git` and `…/git/diff?path=`: the session workspace's git state and one
 * file's diff against HEAD, read-only. Scope and confinement are the compat file routes'
 * (instances.ts, compat-fs.ts): `operate`, the session's root (which must still be inside a
 * workspace root), paths proved inside it after realpath, the hub's secrets never shown (a worktree
 * file is opened through the same guard before git reads it), every call audited.
 */
export const gitRoutes: FastifyPluginAsync<GitRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  gitStateRoute(r, opts);
  gitDiffRoute(r, opts);
};

/** The root of a session the caller may read: unknown sessions get 403 like the file routes, so a probe cannot tell "none" from "not yours". */
async function rootOf({ hub, roots }: GitRouteOptions, sessionId: string): Promise<string> {
  const session = hub.getSession(sessionId);
  if (!session?.cwd) throw new HubError('HUB_ERR_FORBIDDEN', 'Unknown session');
  await roots.checkSession(session.cwd);
  return resolveRoot(session.cwd);
}

function gitStateRoute(r: ZodApp, opts: GitRouteOptions): void {
  const l = opts.config.limits;
  r.get(
    '/api/sessions/:id/git',
    {
      config: { scope: 'operate' },
      schema: {
        summary: "The session workspace's git state: branch, upstream, ahead/behind, changed files (read-only)",
        tags: ['sessions'],
        params,
        response: { 200: stateSchema },
      },
    },
    async (req) =>
      audited(opts.audit, { identity: req.identity, action: 'git.status', sessionId: req.params.id, detail: {} }, async () => {
        const root = await rootOf(opts, req.params.id);
        const state = await gitState(root, { timeoutMs: l.gitTimeoutMs, maxBytes: l.gitStatusMaxBytes, maxFiles: l.gitStatusMaxFiles });
        const isSecret = await opts.secrets.matcher();
        const files = state.files.filter((f) => !isSecret(path.join(root, f.path)) && !(f.from && isSecret(path.join(root, f.from))));
        return { ...state, files };
      }),
  );
}

function gitDiffRoute(r: ZodApp, opts: GitRouteOptions): void {
  r.get(
    '/api/sessions/:id/git/diff',
    {
      config: { scope: 'operate' },
      schema: {
        summary: "One file's unified diff against HEAD (an untracked file: all of it as added), size-capped",
        tags: ['sessions'],
        params,
        querystring: z.object({ path: z.string().min(1).max(4096) }),
        response: { 200: z.object({ path: z.string(), diff: z.string(), truncated: z.boolean() }) },
      },
    },
    async (req) =>
      audited(
        opts.audit,
        { identity: req.identity, action: 'git.diff', sessionId: req.params.id, detail: { path: req.query.path } },
        async () => fileDiff(await rootOf(opts, req.params.id), req.query.path, opts),
      ),
  );
}

/** One file's diff against HEAD inside `root`: a deleted file is still diffed, an untracked one is all added. */
async function fileDiff(root: string, asked: string, { config, secrets }: GitRouteOptions) {
  const l = config.limits;
  const run = { timeoutMs: l.gitTimeoutMs, maxBytes: l.gitStatusMaxBytes };
  let real: string | undefined;
  try {
    real = await resolveInside(root, asked, secrets);
  } catch (err) {
    // Missing but inside and not secret (resolveInside refuses those 403 first): a deleted file.
    if (!(err instanceof HubError && err.code === 'HUB_ERR_NOT_FOUND')) throw err;
  }
  const rel = path
    .relative(root, real ?? path.resolve(root, asked))
    .split(path.sep)
    .join('/');
  if (rel === '' || rel.startsWith('..')) throw new HubError('HUB_ERR_BAD_REQUEST', 'Give a file inside the workspace');
  if ((await repoPrefix(root, run)) === undefined) throw new HubError('HUB_ERR_NOT_FOUND', 'The workspace is not a git repository');
  const diffLimits = { timeoutMs: l.gitTimeoutMs, maxBytes: l.gitDiffMaxBytes };
  if (real !== undefined && !(await isTracked(root, rel, run))) {
    const { data } = await readFileConfined(root, rel, l.fsFileMaxBytes, secrets);
    return { path: rel, ...untrackedDiff(rel, data, l.gitDiffMaxBytes) };
  }
  // git reads the worktree file: it goes through the file routes' guard first (hard links to secrets).
  if (real !== undefined) await withConfinedFile(root, rel, secrets, async () => undefined).catch(notAFileIsFine);
  return { path: rel, ...(await trackedDiff(root, rel, diffLimits)) };
}

/** A tracked path that is now a directory or a symlink is still diffed by git (as a deletion or a link). */
function notAFileIsFine(err: unknown): void {
  if (err instanceof HubError && err.code === 'HUB_ERR_NOT_FOUND') return;
  throw err;
}
