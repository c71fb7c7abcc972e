import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditSink } from '../../auth/audit-log.js';
import type { Identity } from '../../auth/identity.js';
import type { HubConfig } from '../../config/schema.js';
import { HubError } from '../../errors.js';
import type { SecretPaths } from '../../fs/secret-paths.js';
import type { WorkspaceRoots } from '../../fs/workspace-roots.js';
import { listDirectory, mimeFor, readFileConfined, readLinesConfined, resolveRoot } from '../compat-fs.js';
import type { RestHub } from '../hub-api.js';
import { LEGACY_INSTANCE_ID } from '../../compat-instance.js';
import type { ZodApp } from './zod-app.js';
import { audited, type AuditedCall } from '../audited-call.js';

export interface InstanceRouteOptions {
  hub: RestHub;
  config: HubConfig;
  /** Process start, reported as the instance's `startedAt`. */
  startedAt: number;
  /** The port the daemon listens on (known once listening). */
  port: () => number | undefined;
  /** Where sessions may work, and the hub's own files (never served). */
  roots: WorkspaceRoots;
  secrets: SecretPaths;
  /** Every file read and listing, served or refused, is recorded here. */
  audit?: AuditSink;
}

const instanceParams = z.object({ id: z.string().min(1).max(128) });
const fsQuery = z.object({ sessionId: z.string().min(1).max(256).optional(), path: z.string().max(4096).optional() });
const count = z
  .string()
  .regex(/^\d{1,9}$/, 'a non-negative integer')
  .transform(Number);
const fileQuery = fsQuery.extend({ line: count.optional(), limit: count.optional() });
const sessionInfo = z.object({ sessionId: z.string(), title: z.string().optional(), updatedAt: z.number().optional() });
const sessionStatus = z.enum(['running', 'idle']);
const instanceSchema = z.object({
  id: z.string(),
  pid: z.number(),
  port: z.number().optional(),
  startedAt: z.number(),
  workspace: z.string(),
  sessions: z.array(sessionInfo.extend({ status: sessionStatus })),
  kind: z.literal('zcode-hub'),
});

/**
 * zcode-acp-remote compatibility (ARCHITECTURE.md §5.1): this daemon is the app's one "instance".
 * Shapes follow the app's hub client and its bridge's endpoints: `/api/instances` is an array,
 * `/status` lists sessions as running|idle, close answers `{ok: true}` (404 unknown, 409 running),
 * and the file routes are read-only and confined to the session root.
 *
 * The file routes need `operate`: reading files is more than watching a session, and an
 * `operate` token can already have the agent read them. Whatever the root, the hub's own
 * secrets are never served (src/fs/secret-paths.ts), and every call is audited.
 */
export const instanceRoutes: FastifyPluginAsync<InstanceRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  instanceListRoute(r, opts);
  instanceStatusRoute(r, opts);
  closeSessionRoute(r, opts);
  fsListRoute(r, opts);
  fsFileRoute(r, opts);
};

function requireInstance(id: string): void {
  if (id !== LEGACY_INSTANCE_ID) throw new HubError('HUB_ERR_NOT_FOUND', 'Unknown instance');
}

const statusOf = (state: string) => (state === 'idle' ? ('idle' as const) : ('running' as const));

/** The app's session list: retired (closed from the app, unused since) sessions are left out. */
async function discoverable(hub: RestHub) {
  return (await hub.listSessions({})).filter((s) => !hub.isRetired(s.sessionId));
}

/** The one instance (this daemon) with its sessions. */
function instanceListRoute(r: ZodApp, opts: InstanceRouteOptions): void {
  r.get(
    '/api/instances',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'zcode-acp-remote: the one instance (this daemon) with its sessions',
        tags: ['compat'],
        querystring: z.object({ probe: z.string().optional() }),
        response: { 200: z.array(instanceSchema) },
      },
    },
    async () => {
      const sessions = await discoverable(opts.hub);
      const port = opts.port();
      return [
        {
          id: LEGACY_INSTANCE_ID,
          kind: 'zcode-hub' as const,
          pid: process.pid,
          ...(port === undefined ? {} : { port }),
          startedAt: opts.startedAt,
          workspace: opts.config.workspace,
          sessions: sessions.map((s) => ({
            sessionId: s.sessionId,
            ...(s.title ? { title: s.title } : {}),
            ...(s.updatedAt === undefined ? {} : { updatedAt: s.updatedAt }),
            status: statusOf(s.state),
          })),
        },
      ];
    },
  );
}

function instanceStatusRoute(r: ZodApp, opts: InstanceRouteOptions): void {
  r.get(
    '/api/instances/:id/status',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'zcode-acp-remote: sessions with their running state',
        tags: ['compat'],
        params: instanceParams,
        response: { 200: z.object({ sessions: z.array(sessionInfo.extend({ status: sessionStatus, updatedAt: z.number() })) }) },
      },
    },
    async (req) => {
      requireInstance(req.params.id);
      const sessions = (await discoverable(opts.hub))
        .map((s) => ({
          sessionId: s.sessionId,
          ...(s.title ? { title: s.title } : {}),
          status: statusOf(s.state),
          updatedAt: s.updatedAt ?? 0,
        }))
        .sort((a, b) => b.updatedAt - a.updatedAt);
      return { sessions };
    },
  );
}

function closeSessionRoute(r: ZodApp, { hub }: InstanceRouteOptions): void {
  r.post(
    '/api/instances/:id/sessions/:sid/close',
    {
      config: { scope: 'operate' },
      schema: {
        summary:
          "zcode-acp-remote: close a session — unload its runtime and leave the app's list until it is used again (409 while running)",
        tags: ['compat'],
        params: instanceParams.extend({ sid: z.string().min(1).max(256) }),
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (req) => {
      requireInstance(req.params.id);
      if (!hub.getSession(req.params.sid)) throw new HubError('HUB_ERR_SESSION_NOT_FOUND');
      await hub.retireSession(req.params.sid, req.identity);
      return { ok: true as const };
    },
  );
}

/** Records one file call in the audit log: the path and session it named. */
function fileCall(req: { identity?: Identity | undefined; query: z.infer<typeof fsQuery> }, action: 'fs.read' | 'fs.list'): AuditedCall {
  const { sessionId, path } = req.query;
  return { identity: req.identity, action, sessionId, detail: { path: path ?? '', ...(sessionId ? { sessionId } : {}) } };
}

/** The root a file call reads under: the session's working directory, or the workspace when no session is named. */
async function rootOf({ hub, config, roots }: InstanceRouteOptions, sessionId: string | undefined): Promise<string> {
  if (sessionId === undefined) return resolveRoot(config.workspace);
  const session = hub.getSession(sessionId);
  // Unknown sessions get 403, like the bridge: a probe cannot tell "none" from "not yours".
  if (!session?.cwd) throw new HubError('HUB_ERR_FORBIDDEN', 'Unknown session');
  // A session left outside the workspace roots is not a way to read outside them.
  await roots.checkSession(session.cwd);
  return resolveRoot(session.cwd);
}

function fsListRoute(r: ZodApp, opts: InstanceRouteOptions): void {
  r.get(
    '/api/instances/:id/fs/list',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'zcode-acp-remote: one directory level inside the session root (read-only)',
        tags: ['compat'],
        params: instanceParams,
        querystring: fsQuery,
        response: {
          200: z.object({
            root: z.string(),
            entries: z.array(z.object({ name: z.string(), kind: z.enum(['file', 'dir', 'symlink']), size: z.number(), mtime: z.number() })),
            truncated: z.boolean(),
          }),
        },
      },
    },
    async (req) => {
      requireInstance(req.params.id);
      return audited(opts.audit, fileCall(req, 'fs.list'), async () =>
        listDirectory(await rootOf(opts, req.query.sessionId), req.query.path, opts.config.limits.fsListMaxEntries, opts.secrets),
      );
    },
  );
}

/** File bytes, or a window of its lines, inside the session root. */
function fsFileRoute(r: ZodApp, opts: InstanceRouteOptions): void {
  const { config, secrets } = opts;
  r.get(
    '/api/instances/:id/fs/file',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'zcode-acp-remote: file bytes inside the session root (read-only, size-capped), or a line window with `line`/`limit`',
        tags: ['compat'],
        params: instanceParams,
        querystring: fileQuery,
      },
    },
    async (req, reply) => {
      requireInstance(req.params.id);
      // Served bytes never run as a page of the hub's origin.
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      reply.header('x-content-type-options', 'nosniff');
      const { line, limit } = req.query;
      if (line !== undefined || limit !== undefined) {
        // The app's viewer asks for windows of large files (its ADR 0005): default and cap are named limits.
        const window = {
          line: Math.max(1, line ?? 1),
          limit: Math.min(config.limits.fsLineWindowMax, Math.max(1, limit ?? config.limits.fsLineWindowDefault)),
          maxBytes: config.limits.fsFileMaxBytes,
        };
        const read = await audited(
          opts.audit,
          fileCall(req, 'fs.read'),
          async () => readLinesConfined(await rootOf(opts, req.query.sessionId), req.query.path, secrets, window),
          (w) => ({ bytes: w.lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0) }),
        );
        reply.header('x-zcode-first-line', String(read.firstLine));
        reply.type('text/plain; charset=utf-8');
        return reply.send(read.lines.length > 0 ? `${read.lines.join('\n')}\n` : '');
      }
      const { data, file } = await audited(
        opts.audit,
        fileCall(req, 'fs.read'),
        async () => readFileConfined(await rootOf(opts, req.query.sessionId), req.query.path, config.limits.fsFileMaxBytes, secrets),
        (r) => ({ bytes: r.data.length }),
      );
      reply.type(mimeFor(file));
      return reply.send(data);
    },
  );
}
