import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from '../../errors.js';
import { sessionIdParam } from '../../zcode-ext/requests.js';
import type { RestHub } from '../hub-api.js';
import type { ZodApp } from './zod-app.js';

/** One session as REST shows it (ARCHITECTURE.md §6). */
export const sessionSummarySchema = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  title: z.string().optional(),
  updatedAt: z.number().optional(),
  state: z.string(),
  model: z.unknown().optional(),
  clients: z.number(),
  pendingInteractions: z.number(),
  runningTasks: z.number(),
  archived: z.boolean(),
  preview: z.object({ role: z.enum(['user', 'agent']), text: z.string() }).optional(),
});

const idParams = z.object({ id: sessionIdParam });
const ok = z.object({ ok: z.literal(true) });
/** Journal entries returned by one `/events` page (each is the `session/update` notification as sent). */
const EVENTS_MAX_PAGE = 1_000;

export interface SessionRouteOptions {
  hub: RestHub;
}

/**
 * `/api/sessions…` (ARCHITECTURE.md §6): list, read, rename, close (409 while a turn runs) and the
 * journal. Reads need `view`, changes `operate` (§7).
 */
export const sessionRoutes: FastifyPluginAsync<SessionRouteOptions> = async (app, { hub }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  sessionReadRoutes(r, hub);
  sessionChangeRoutes(r, hub);
  sessionJournalRoutes(r, hub);
};

/** The session list and one session. */
function sessionReadRoutes(r: ZodApp, hub: RestHub): void {
  r.get(
    '/api/sessions',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Every session of every workspace, with state, clients and pending interactions',
        tags: ['sessions'],
        querystring: z.object({
          cwd: z.string().max(4096).optional(),
          includeArchived: z.enum(['true', 'false']).optional().describe('archived sessions are left out unless true'),
        }),
        response: { 200: z.object({ sessions: z.array(sessionSummarySchema) }) },
      },
    },
    async (req) => ({
      sessions: await hub.listSessions({
        ...(req.query.cwd ? { cwd: req.query.cwd } : {}),
        includeArchived: req.query.includeArchived === 'true',
      }),
    }),
  );

  r.get(
    '/api/sessions/:id',
    {
      config: { scope: 'view' },
      schema: { summary: 'One session', tags: ['sessions'], params: idParams, response: { 200: sessionSummarySchema } },
    },
    async (req) => {
      const session = hub.getSession(req.params.id);
      if (!session) throw new HubError('HUB_ERR_SESSION_NOT_FOUND');
      return session;
    },
  );
}

/** Renaming or archiving, closing the runtime and deleting a session. */
function sessionChangeRoutes(r: ZodApp, hub: RestHub): void {
  r.patch(
    '/api/sessions/:id',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'Rename, archive or unarchive a session',
        tags: ['sessions'],
        params: idParams,
        body: z
          .object({ title: z.string().trim().min(1).max(200).optional(), archived: z.boolean().optional() })
          .strict()
          .refine((b) => b.title !== undefined || b.archived !== undefined, 'give title or archived'),
        response: { 200: sessionSummarySchema },
      },
    },
    async (req) => {
      if (!req.identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
      let summary = req.body.title === undefined ? undefined : await hub.renameSession(req.params.id, req.body.title, req.identity);
      if (req.body.archived !== undefined) summary = await hub.archiveSession(req.params.id, req.body.archived, req.identity);
      if (!summary) throw new HubError('HUB_ERR_BAD_REQUEST', 'give title or archived');
      return summary;
    },
  );

  r.post(
    '/api/sessions/:id/close',
    {
      config: { scope: 'operate' },
      schema: {
        summary: "Stop the session's runtime in the agent (history is kept); 409 while a turn runs",
        tags: ['sessions'],
        params: idParams,
        response: { 200: ok },
      },
    },
    async (req) => {
      await hub.closeSessionRuntime(req.params.id, req.identity);
      return { ok: true as const };
    },
  );

  r.delete(
    '/api/sessions/:id',
    {
      config: { scope: 'operate' },
      schema: {
        summary:
          'Delete a session (ACP session/delete): gone from the agent and every list; 409 while a turn runs, 501 when the agent cannot delete',
        tags: ['sessions'],
        params: idParams,
        response: { 200: ok },
      },
    },
    async (req) => {
      if (!req.identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
      await hub.deleteSession(req.params.id, { identity: req.identity });
      return { ok: true as const };
    },
  );
}

/** The journal the hub holds and the history the agent stored. */
function sessionJournalRoutes(r: ZodApp, hub: RestHub): void {
  r.get(
    '/api/sessions/:id/events',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'The session journal after `afterSeq`: the `session/update` notifications as the WebSocket carried them',
        tags: ['sessions'],
        params: idParams,
        querystring: z.object({
          afterSeq: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(EVENTS_MAX_PAGE).default(EVENTS_MAX_PAGE),
        }),
        response: { 200: z.object({ events: z.array(z.unknown()), lastSeq: z.number(), epoch: z.string() }) },
      },
    },
    async (req) => hub.events(req.params.id, req.query.afterSeq, req.query.limit),
  );

  r.get(
    '/api/sessions/:id/history',
    {
      config: { scope: 'view' },
      schema: {
        summary:
          'The newest turns of the conversation as the agent stored it, as `session/update`s with who prompted and answered (the journal only holds what the hub saw since it started)',
        tags: ['sessions'],
        params: idParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(EVENTS_MAX_PAGE).default(EVENTS_MAX_PAGE) }),
        response: { 200: z.object({ updates: z.array(z.unknown()), hasMore: z.boolean() }) },
      },
    },
    async (req) => {
      const page = await hub.loadEarlier(req.params.id, undefined, req.query.limit);
      return { updates: page.updates, hasMore: page.hasMore };
    },
  );
}
