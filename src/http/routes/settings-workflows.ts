/**
 * REST settings API for saved workflows and their runs (ARCHITECTURE.md §6, APP-SERVER.md §8,
 * §7.3); the run routes are in settings-workflow-runs.ts. Reads need `view`; changing workflow files needs `admin`; starting, resuming and
 * stopping a run acts on a session like a prompt does, so it needs `operate`.
 * Backend refusals: 400 invalid · 404 not found · 409 busy/not resumable · 422 compile failed ·
 * 502 backend error, with the ZCode reason in `error.details.reason`.
 */
import type { AuditSink } from '../../auth/audit-log.js';
import { auditWrites } from '../audit-writes.js';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WorkflowService } from '../../settings/workflow-service.js';
import * as wire from '../../app-server/workflow-schemas.js';
import { TAGS, errors, intQuery, nameParam, workspaceParam, workflowRunRoutes } from './settings-workflow-runs.js';
import type { ZodApp } from './zod-app.js';

export interface SettingsWorkflowRoutesOptions {
  service: WorkflowService;
  /** Audit log sink: workflow file changes and run starts/stops are recorded with the device. */
  audit?: AuditSink;
  /** Workspace roots: every `workspace` named must be inside one; a run may start or resume only on a session inside one. */
  guard?: { workspace(path: string): Promise<void>; session(sessionId: string): Promise<void> };
}

const wfParams = z.object({ scope: wire.workflowScopeSchema, name: nameParam });
const wsQuery = z.object({ workspace: workspaceParam.optional() }).strict();
const okPath = z.object({ path: z.string() });

export const settingsWorkflowRoutes: FastifyPluginAsync<SettingsWorkflowRoutesOptions> = async (fastify, opts) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const wf = opts.service;
  auditWrites(fastify, opts.audit, (_m, url) =>
    url.startsWith('/api/settings/workflow-runs') || url.endsWith('/start') ? 'workflow.run' : 'settings.change',
  );
  if (opts.guard) guardWorkspaces(fastify, opts.guard);
  workflowListRoutes(app, wf);
  saveWorkflowRoute(app, wf);
  workflowReadRoutes(app, wf);
  workflowChangeRoutes(app, wf);
  startWorkflowRoute(app, wf);
  workflowRunRoutes(fastify, wf);
};

/** The saved workflows of a scope, and the runs of every workflow. */
function workflowListRoutes(app: ZodApp, wf: WorkflowService): void {
  app.get(
    '/api/settings/workflows',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Saved workflows of a scope (project: <workspace>/.zcode/workflows, global: ~/.zcode/workflows)',
        tags: TAGS,
        querystring: z.object({ workspace: workspaceParam.optional(), scope: wire.workflowScopeSchema.optional() }).strict(),
        response: { 200: wire.workflowsListResultSchema, ...errors },
      },
    },
    async (req) => wf.list(req.query),
  );

  app.get(
    '/api/settings/workflows/runs',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'The workflow run journal, newest first (workflows/runs)',
        tags: TAGS,
        querystring: z
          .object({
            workspace: workspaceParam.optional(),
            name: nameParam.optional(),
            scope: wire.workflowScopeSchema.optional(),
            limit: intQuery(1, 50).default(20),
          })
          .strict(),
        response: { 200: wire.workflowRunsResultSchema, ...errors },
      },
    },
    async (req) => wf.runs(req.query),
  );
}

/** Saving a workflow file. */
function saveWorkflowRoute(app: ZodApp, wf: WorkflowService): void {
  app.post(
    '/api/settings/workflows/save',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Save the script of a run as a named workflow (workflows/save)',
        tags: TAGS,
        body: z
          .object({
            runId: z.string().min(1),
            name: nameParam,
            meta: wire.workflowMetaSchema,
            scope: wire.workflowScopeSchema.optional(),
            overwrite: z.boolean().optional(),
            workspace: workspaceParam.optional(),
          })
          .strict(),
        response: { 201: wire.workflowSaveResultSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await wf.save(req.body)),
  );
}

/** One saved workflow, and its runs. */
function workflowReadRoutes(app: ZodApp, wf: WorkflowService): void {
  app.get(
    '/api/settings/workflows/:scope/:name',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'One saved workflow: meta and script',
        tags: TAGS,
        params: wfParams,
        querystring: wsQuery,
        response: { 200: wire.workflowGetResultSchema, ...errors },
      },
    },
    async (req) => wf.get(req.params.scope, req.params.name, req.query.workspace),
  );

  app.get(
    '/api/settings/workflows/:scope/:name/runs',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Runs of one saved workflow',
        tags: TAGS,
        params: wfParams,
        querystring: z.object({ workspace: workspaceParam.optional(), limit: intQuery(1, 50).default(20) }).strict(),
        response: { 200: wire.workflowRunsResultSchema, ...errors },
      },
    },
    async (req) => wf.runs({ ...req.query, name: req.params.name, scope: req.params.scope }),
  );
}

/** Changing a workflow's meta, deleting it, and moving a global one. */
function workflowChangeRoutes(app: ZodApp, wf: WorkflowService): void {
  app.patch(
    '/api/settings/workflows/:scope/:name/meta',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Rewrite the header of a saved workflow; the script is kept',
        tags: TAGS,
        params: wfParams,
        body: z.object({ meta: wire.workflowMetaSchema, workspace: workspaceParam.optional() }).strict(),
        response: { 200: okPath, ...errors },
      },
    },
    async (req) => {
      const result = await wf.updateMeta(req.params.scope, req.params.name, req.body.meta, req.body.workspace);
      req.log.info({ workflow: req.params.name, scope: req.params.scope, by: req.identity?.name }, 'workflow meta updated');
      return { path: result.path };
    },
  );

  app.delete(
    '/api/settings/workflows/:scope/:name',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Delete a saved workflow',
        tags: TAGS,
        params: wfParams,
        querystring: wsQuery,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await wf.delete(req.params.scope, req.params.name, req.query.workspace);
      req.log.info({ workflow: req.params.name, scope: req.params.scope, by: req.identity?.name }, 'workflow deleted');
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/settings/workflows/global/:name/move',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Copy a global workflow into this project (never overwrites)',
        tags: TAGS,
        params: z.object({ name: nameParam }),
        body: z.object({ workspace: workspaceParam.optional() }).strict().default({}),
        response: { 200: z.object({ from: z.string(), to: z.string() }), ...errors },
      },
    },
    async (req) => {
      const result = await wf.move(req.params.name, req.body.workspace);
      return { from: result.from, to: result.to };
    },
  );
}

/** Starting a saved workflow on a session. */
function startWorkflowRoute(app: ZodApp, wf: WorkflowService): void {
  app.post(
    '/api/settings/workflows/:scope/:name/start',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'Start a saved workflow on a session (a new one unless sessionId is given)',
        tags: TAGS,
        params: wfParams,
        body: z
          .object({
            sessionId: z.string().min(1).optional(),
            args: z.record(z.string(), z.unknown()).optional(),
            workspace: workspaceParam.optional(),
          })
          .strict()
          .default({}),
        response: {
          201: z.object({ sessionId: z.string(), runId: z.string(), toolCallId: z.string().nullable(), created: z.boolean() }),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const started = await wf.start({ ...req.params, ...req.body });
      req.log.info(
        { workflow: req.params.name, sessionId: started.sessionId, runId: started.runId, by: req.identity?.name },
        'workflow started',
      );
      return reply.code(201).send(started);
    },
  );
}

/** Every `workspace` named must be inside a workspace root, and a run may start or resume only on a session inside one. */
function guardWorkspaces(fastify: FastifyInstance, guard: NonNullable<SettingsWorkflowRoutesOptions['guard']>): void {
  // After validation, so `workspace` is a checked absolute path; before any call to the child.
  fastify.addHook('preHandler', async (req) => {
    for (const source of [req.query, req.body]) {
      const workspace = typeof source === 'object' && source !== null ? (source as Record<string, unknown>)['workspace'] : undefined;
      if (typeof workspace === 'string') await guard.workspace(workspace);
    }
    if (req.method !== 'POST') return;
    const url = req.routeOptions.url ?? '';
    const sessionId = url.endsWith('/start')
      ? (req.body as Record<string, unknown> | undefined)?.['sessionId']
      : url.endsWith('/resume')
        ? (req.params as Record<string, unknown>)['sessionId']
        : undefined;
    if (typeof sessionId === 'string') await guard.session(sessionId);
  });
}
