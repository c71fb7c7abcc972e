/**
 * The workflow-run half of the settings API (`/api/settings/workflow-runs/*`, APP-SERVER.md
 * §7.3, §8): a session's runs, one run, its events, artifacts, workspace and node results
 * (`view`), resume and stop (`operate`). Registered by settings-workflows.ts inside its own
 * plugin, so the same audit and workspace-root hooks cover these routes.
 */
import { isAbsolute } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as wire from '../../app-server/workflow-schemas.js';
import type { WorkflowService } from '../../settings/workflow-service.js';
import { errorBodySchema } from './settings-providers.js';
import type { ZodApp } from './zod-app.js';

export const TAGS = ['settings: workflows'];
export const workspaceParam = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => isAbsolute(p), 'workspace must be an absolute path');
export const nameParam = z.string().min(1).max(256);
export const errors = {
  400: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  502: errorBodySchema,
  503: errorBodySchema,
  504: errorBodySchema,
};
const runParams = z.object({ sessionId: z.string().min(1).max(256), runId: z.string().min(1).max(256) });
const artifactParams = runParams.extend({ artifactId: z.string().min(1).max(64) });
export const intQuery = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Registers the run routes on the settings-workflows plugin's instance. */
export function workflowRunRoutes(fastify: FastifyInstance, wf: WorkflowService): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  runReadRoutes(app, wf);
  artifactRoutes(app, wf);
  nodeRoutes(app, wf);
  runControlRoutes(app, wf);
}

/** A session's runs, one run, and its events. */
function runReadRoutes(app: ZodApp, wf: WorkflowService): void {
  app.get(
    '/api/settings/workflow-runs/:sessionId',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Workflow runs of a session',
        tags: TAGS,
        params: runParams.pick({ sessionId: true }),
        querystring: z.object({ limit: intQuery(1, 64).optional() }).strict(),
        response: { 200: wire.sessionRunsResultSchema, ...errors },
      },
    },
    async (req) => wf.sessionRuns(req.params.sessionId, req.query.limit),
  );

  app.get(
    '/api/settings/workflow-runs/:sessionId/:runId',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'One run: status, resumability, failure',
        tags: TAGS,
        params: runParams,
        response: { 200: wire.sessionRunSchema, ...errors },
      },
    },
    async (req) => wf.runDetail(req.params.sessionId, req.params.runId),
  );

  app.get(
    '/api/settings/workflow-runs/:sessionId/:runId/events',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Run events after a sequence number (page ≤ 500 events / 4 MiB)',
        tags: TAGS,
        params: runParams,
        querystring: z
          .object({ afterSequence: intQuery(0, Number.MAX_SAFE_INTEGER).optional(), limit: intQuery(1, 500).optional() })
          .strict(),
        response: { 200: wire.runEventsResultSchema, ...errors },
      },
    },
    async (req) => wf.runEvents(req.params.sessionId, req.params.runId, req.query),
  );
}

/** A run's artifacts: the list, structured items, and a byte range of one version. */
function artifactRoutes(app: ZodApp, wf: WorkflowService): void {
  app.get(
    '/api/settings/workflow-runs/:sessionId/:runId/artifacts',
    {
      config: { scope: 'view' },
      schema: { summary: 'Artifacts of a run', tags: TAGS, params: runParams, response: { 200: wire.runArtifactsResultSchema, ...errors } },
    },
    async (req) => wf.runArtifacts(req.params.sessionId, req.params.runId),
  );

  app.get(
    '/api/settings/workflow-runs/:sessionId/:runId/artifacts/:artifactId/data',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Structured items of an artifact',
        tags: TAGS,
        params: artifactParams,
        querystring: z
          .object({
            afterSequence: intQuery(0, Number.MAX_SAFE_INTEGER).optional(),
            limit: intQuery(1, 500).optional(),
            fields: z.string().max(2048).optional(),
          })
          .strict(),
        response: { 200: wire.runArtifactDataResultSchema, ...errors },
      },
    },
    async (req) => {
      const fields = req.query.fields
        ?.split(',')
        .filter((f) => f.length > 0)
        .slice(0, 32);
      return wf.runArtifactData(req.params.sessionId, req.params.runId, req.params.artifactId, {
        afterSequence: req.query.afterSequence,
        limit: req.query.limit,
        fields: fields?.length ? fields : undefined,
      });
    },
  );

  app.get(
    '/api/settings/workflow-runs/:sessionId/:runId/artifacts/:artifactId/read',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'A byte range of one artifact version (base64)',
        tags: TAGS,
        params: artifactParams,
        querystring: z
          .object({
            version: intQuery(1, 16),
            offset: intQuery(0, 20 * 1024 * 1024).default(0),
            limit: intQuery(1, 524_288).default(524_288),
          })
          .strict(),
        response: { 200: wire.runArtifactReadResultSchema, ...errors },
      },
    },
    async (req) => wf.runArtifactRead(req.params.sessionId, req.params.runId, req.params.artifactId, req.query),
  );
}

/** A run's workspace view and one node's result. */
function nodeRoutes(app: ZodApp, wf: WorkflowService): void {
  app.get(
    '/api/settings/workflow-runs/:sessionId/:runId/workspace',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Nodes of a run (its workspace view)',
        tags: TAGS,
        params: runParams,
        response: { 200: wire.runWorkspaceResultSchema, ...errors },
      },
    },
    async (req) => wf.runWorkspace(req.params.sessionId, req.params.runId),
  );

  app.get(
    '/api/settings/workflow-runs/:sessionId/:runId/nodes/:siteId/:ordinal',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'The bounded result of one node',
        tags: TAGS,
        params: runParams.extend({ siteId: z.string().min(1).max(64), ordinal: intQuery(0, Number.MAX_SAFE_INTEGER) }),
        querystring: z.object({ maxBytes: intQuery(1, 16 * 1024 * 1024).optional() }).strict(),
        response: { 200: wire.runNodeResultSchema, ...errors },
      },
    },
    async (req) => wf.runNodeResult(req.params.sessionId, req.params.runId, req.params.siteId, req.params.ordinal, req.query.maxBytes),
  );
}

/** Resuming and stopping a run. */
function runControlRoutes(app: ZodApp, wf: WorkflowService): void {
  app.post(
    '/api/settings/workflow-runs/:sessionId/:runId/resume',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'Resume a stopped or failed run (resumeWorkflowRun)',
        tags: TAGS,
        params: runParams,
        body: z.object({ name: nameParam.optional() }).strict().default({}),
        response: { 200: z.object({ sessionId: z.string(), runId: z.string(), status: z.string() }), ...errors },
      },
    },
    async (req) => {
      const result = await wf.resume(req.params.sessionId, req.params.runId, req.body.name);
      req.log.info({ sessionId: req.params.sessionId, runId: req.params.runId, by: req.identity?.name }, 'workflow run resumed');
      return result;
    },
  );

  app.post(
    '/api/settings/workflow-runs/:sessionId/:runId/stop',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'Stop a run',
        tags: TAGS,
        params: runParams,
        response: {
          200: z.object({ sessionId: z.string(), runId: z.string(), via: z.enum(['cancelBackgroundWork', 'stop']), status: z.string() }),
          ...errors,
        },
      },
    },
    async (req) => {
      const result = await wf.stop(req.params.sessionId, req.params.runId);
      req.log.info(
        { sessionId: req.params.sessionId, runId: req.params.runId, via: result.via, by: req.identity?.name },
        'workflow run stopped',
      );
      return result;
    },
  );
}
