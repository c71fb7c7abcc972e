/**
 * REST settings API for providers (ARCHITECTURE.md §6): the personal provider file behind
 * `ProviderStore`, plus what the app-server makes of it (model catalog, connectivity test).
 * Reads need `view`, writes `admin`. Reads carry an `ETag`; writes honour `If-Match` (412).
 * No response ever carries key material beyond `keyHint` (CFG-05).
 */
import type { AuditSink } from '../../auth/audit-log.js';
import { auditWrites } from '../audit-writes.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from '../../errors.js';
import type { AppServer } from '../../app-server/client.js';
import { AppServerError } from '../../app-server/errors.js';
import { type ModelCatalog, modelOptionSchema } from '../../settings/model-catalog.js';
import { asObject, asString } from '../../settings/provider-draft.js';
import * as edits from '../../settings/provider-mutations.js';
import {
  modelRuleViewSchema,
  modelRuleWriteSchema,
  providerCreateSchema,
  providerListSchema,
  providerPatchSchema,
  providerPutSchema,
  providerViewSchema,
  type ProviderView,
} from '../../settings/provider-resource.js';
import type { ProviderSnapshot, ProviderStore } from '../../settings/provider-store.js';
import { providerOrderOf, toModelRuleViews, toProviderViews } from '../../settings/provider-view.js';
import type { ZodApp } from './zod-app.js';

export interface SettingsProviderRoutesOptions {
  store: ProviderStore;
  appServer: Pick<AppServer, 'testModelConnectivity'>;
  /** Runtime carrier workspace for `provider/testModelConnectivity`. */
  workspace: string;
  /** The model catalog (its cache is keyed by the backend's epoch). */
  catalog: ModelCatalog;
  /** Audit log sink: every successful write is recorded with the device that made it. */
  audit?: AuditSink;
}

/** `{error: {code, message, details?}}` — documented on every route (src/errors.ts). */
export const errorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) });

const providerParams = z.object({ providerId: z.string().min(1).max(128) });
const modelParams = providerParams.extend({ modelId: z.string().min(1).max(256) });
const ifMatchHeaders = z.looseObject({ 'if-match': z.string().max(512).optional() });
const TAGS = ['settings: providers'];
const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 412: errorBodySchema, 413: errorBodySchema };

function viewOf(snapshot: ProviderSnapshot, providerId: string): ProviderView {
  const view = snapshot.draft ? toProviderViews(snapshot.draft).find((p) => p.providerId === providerId) : undefined;
  if (!view) throw new HubError('HUB_ERR_NOT_FOUND', `No provider with id ${providerId}`, { providerId });
  return view;
}

function ifMatch(req: FastifyRequest): string | undefined {
  const value = req.headers['if-match'];
  return typeof value === 'string' ? value : undefined;
}

/** Runs one edit of a provider under the store's lock and answers with the file's new snapshot (its ETag set on the reply). */
type ProviderWrite = (
  req: FastifyRequest,
  reply: FastifyReply,
  action: string,
  providerId: string,
  edit: Parameters<ProviderStore['update']>[0],
) => Promise<ProviderSnapshot>;

/** The provider list as every read and a restore answer it. */
function providerListOf(snap: ProviderSnapshot) {
  const draft = snap.draft;
  return {
    providers: draft ? toProviderViews(draft) : [],
    modelRules: draft ? toModelRuleViews(draft) : [],
    providerOrder: draft ? providerOrderOf(draft) : null,
    health: snap.health,
    etag: snap.etag,
  };
}

export const settingsProviderRoutes: FastifyPluginAsync<SettingsProviderRoutesOptions> = async (fastify, opts) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { store, catalog } = opts;
  auditWrites(fastify, opts.audit, () => 'settings.change');

  const write: ProviderWrite = async (req, reply, action, providerId, edit) => {
    const snapshot = await store.update(edit, { ifMatch: ifMatch(req) });
    catalog.invalidate();
    req.log.info({ providerId, action, by: req.identity?.name, etag: snapshot.etag }, 'provider settings changed');
    reply.header('etag', snapshot.etag);
    return snapshot;
  };

  providerReadRoutes(app, store);
  createProviderRoute(app, write);
  replaceProviderRoutes(app, write);
  deleteProviderRoute(app, write);
  enableProviderRoutes(app, write);
  modelRuleRoutes(app, write);
  connectivityTestRoute(app, opts);
  modelCatalogRoute(app, catalog);
  backupRoutes(app, opts);
};

/** The provider list and one provider. */
function providerReadRoutes(app: ZodApp, store: ProviderStore): void {
  app.get(
    '/api/settings/providers',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Providers of the personal provider file, with the file health',
        tags: TAGS,
        response: { 200: providerListSchema },
      },
    },
    async (_req, reply) => {
      const snap = await store.read();
      reply.header('etag', snap.etag);
      return providerListOf(snap);
    },
  );

  app.get(
    '/api/settings/providers/:providerId',
    {
      config: { scope: 'view' },
      schema: { summary: 'One provider', tags: TAGS, params: providerParams, response: { 200: providerViewSchema, 404: errorBodySchema } },
    },
    async (req, reply) => {
      const snap = await store.read();
      reply.header('etag', snap.etag);
      return viewOf(snap, req.params.providerId);
    },
  );
}

/** Creates a provider. */
function createProviderRoute(app: ZodApp, write: ProviderWrite): void {
  app.post(
    '/api/settings/providers',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Create a provider (apiKey is write-only)',
        tags: TAGS,
        headers: ifMatchHeaders,
        body: providerCreateSchema,
        response: { 201: providerViewSchema, ...errors },
      },
    },
    async (req, reply) => {
      const snap = await write(req, reply, 'create', req.body.providerId, (d) => edits.createProvider(d, req.body));
      return reply.code(201).send(viewOf(snap, req.body.providerId));
    },
  );
}

/** Replaces (PUT) or updates (PATCH) the fields of a provider. */
function replaceProviderRoutes(app: ZodApp, write: ProviderWrite): void {
  app.put(
    '/api/settings/providers/:providerId',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Replace the fields of a provider; apiKey omitted = keep',
        tags: TAGS,
        params: providerParams,
        headers: ifMatchHeaders,
        body: providerPutSchema,
        response: { 200: providerViewSchema, ...errors },
      },
    },
    async (req, reply) =>
      viewOf(
        await write(req, reply, 'replace', req.params.providerId, (d) => edits.updateProvider(d, req.params.providerId, req.body)),
        req.params.providerId,
      ),
  );

  app.patch(
    '/api/settings/providers/:providerId',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Update some fields of a provider; apiKey omitted = keep, null = remove',
        tags: TAGS,
        params: providerParams,
        headers: ifMatchHeaders,
        body: providerPatchSchema,
        response: { 200: providerViewSchema, ...errors },
      },
    },
    async (req, reply) =>
      viewOf(
        await write(req, reply, 'update', req.params.providerId, (d) => edits.updateProvider(d, req.params.providerId, req.body)),
        req.params.providerId,
      ),
  );
}

/** Deletes a provider and its model rules. */
function deleteProviderRoute(app: ZodApp, write: ProviderWrite): void {
  app.delete(
    '/api/settings/providers/:providerId',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Delete a provider and its model rules',
        tags: TAGS,
        params: providerParams,
        headers: ifMatchHeaders,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await write(req, reply, 'delete', req.params.providerId, (d) => edits.deleteProvider(d, req.params.providerId));
      return reply.code(204).send(null);
    },
  );
}

/** Enables or disables a provider. */
function enableProviderRoutes(app: ZodApp, write: ProviderWrite): void {
  for (const [suffix, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.post(
      `/api/settings/providers/:providerId/${suffix}`,
      {
        config: { scope: 'admin' },
        schema: {
          summary: `${suffix[0]!.toUpperCase()}${suffix.slice(1)} a provider`,
          tags: TAGS,
          params: providerParams,
          headers: ifMatchHeaders,
          response: { 200: providerViewSchema, ...errors },
        },
      },
      async (req, reply) =>
        viewOf(
          await write(req, reply, suffix, req.params.providerId, (d) => edits.setEnabled(d, req.params.providerId, enabled)),
          req.params.providerId,
        ),
    );
  }
}

/** Sets or removes the rule of one model. */
function modelRuleRoutes(app: ZodApp, write: ProviderWrite): void {
  app.put(
    '/api/settings/providers/:providerId/models/:modelId/rule',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Set the smart or manual rule of one model (§9.2)',
        tags: TAGS,
        params: modelParams,
        headers: ifMatchHeaders,
        body: modelRuleWriteSchema,
        response: { 200: modelRuleViewSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { providerId, modelId } = req.params;
      const snap = await write(req, reply, 'model-rule', providerId, (d) => edits.upsertModelRule(d, providerId, modelId, req.body));
      const rule = snap.draft ? toModelRuleViews(snap.draft, providerId).find((r) => r.modelId === modelId) : undefined;
      if (!rule) throw new HubError('HUB_ERR_INTERNAL');
      return rule;
    },
  );

  app.delete(
    '/api/settings/providers/:providerId/models/:modelId/rule',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Remove the rule of one model',
        tags: TAGS,
        params: modelParams,
        headers: ifMatchHeaders,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      const { providerId, modelId } = req.params;
      await write(req, reply, 'model-rule-delete', providerId, (d) => edits.deleteModelRule(d, providerId, modelId));
      return reply.code(204).send(null);
    },
  );
}

/** Tests one model of a provider against the app-server; a provider's refusal is a result, never a hub failure. */
function connectivityTestRoute(app: ZodApp, opts: SettingsProviderRoutesOptions): void {
  app.post(
    '/api/settings/providers/:providerId/test',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Test one model of a provider (provider/testModelConnectivity; refreshes the registry first)',
        tags: TAGS,
        params: providerParams,
        body: z.object({ modelId: z.string().min(1).max(256), reasoningLevel: z.string().min(1).max(64).optional() }).strict(),
        response: {
          200: z.object({ success: z.boolean(), message: z.string().optional() }),
          404: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
          504: errorBodySchema,
        },
      },
    },
    async (req) => {
      const snap = await opts.store.read();
      viewOf(snap, req.params.providerId);
      const rule = snap.draft?.config.providerConfigRules.providerRules.find((r) => r.providerId === req.params.providerId);
      const key = asString(asObject(asObject(rule?.config).access).apiKey);
      // A provider may echo the key in its error text; it must not reach the client (CFG-05).
      const redact = (text: string) => (key && key.length > 0 ? text.split(key).join('[redacted]') : text);
      const selection = {
        providerId: req.params.providerId,
        modelId: req.body.modelId,
        ...(req.body.reasoningLevel ? { options: { reasoningLevel: req.body.reasoningLevel } } : {}),
      };
      try {
        await opts.appServer.testModelConnectivity(opts.workspace, selection, 60_000);
        return { success: true };
      } catch (error) {
        // The test ran and the provider said no: that is a result, not a hub failure (§4.19).
        if (error instanceof AppServerError && error.fault.kind === 'rpc') return { success: false, message: redact(error.fault.message) };
        throw error;
      }
    },
  );
}

/** The models the app-server offers now. */
function modelCatalogRoute(app: ZodApp, catalog: ModelCatalog): void {
  app.get(
    '/api/settings/models',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Models the app-server offers now (settings.model.available)',
        tags: TAGS,
        response: { 200: z.object({ models: z.array(modelOptionSchema) }), 502: errorBodySchema, 503: errorBodySchema },
      },
    },
    async () => ({ models: await catalog.list() }),
  );
}

/** Previous versions of the provider file, and restoring one. */
function backupRoutes(app: ZodApp, { store, catalog }: SettingsProviderRoutesOptions): void {
  app.get(
    '/api/settings/provider-backups',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Previous versions of the provider file (newest first)',
        tags: TAGS,
        response: {
          200: z.object({ backups: z.array(z.object({ id: z.string(), createdAt: z.string(), bytes: z.number(), valid: z.boolean() })) }),
        },
      },
    },
    async () => ({ backups: await store.listBackups() }),
  );

  app.post(
    '/api/settings/provider-backups/:backupId/restore',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Make a backup the current provider file (the current one is backed up first)',
        tags: TAGS,
        params: z.object({ backupId: z.string().min(1).max(64) }),
        headers: ifMatchHeaders,
        response: { 200: providerListSchema, 404: errorBodySchema, 412: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (req, reply) => {
      const snap = await store.restoreBackup(req.params.backupId, { ifMatch: ifMatch(req) });
      catalog.invalidate();
      req.log.info({ backupId: req.params.backupId, by: req.identity?.name }, 'provider file restored from backup');
      reply.header('etag', snap.etag);
      return providerListOf(snap);
    },
  );
}
