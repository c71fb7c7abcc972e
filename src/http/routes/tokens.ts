import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from '../../errors.js';
import type { AuthServices } from '../../auth/auth-services.js';
import { SCOPES, type Identity } from '../../auth/identity.js';
import { personNameSchema } from '../../auth/people.js';
import { tokenRecordSchema, type TokenRecord } from '../../auth/token-registry.js';
import { parseTtl } from '../../auth/ttl.js';
import type { ZodApp } from './zod-app.js';

/** A registry record as the API shows it; the JWT itself is only in the create response. */
export const tokenViewSchema = tokenRecordSchema.extend({ state: z.enum(['active', 'revoked', 'expired']) });
export type TokenView = z.infer<typeof tokenViewSchema>;

/** Record → API view with its current state. */
export function tokenView(record: TokenRecord, now: number = Date.now()): TokenView {
  const state = record.revokedAt !== undefined ? 'revoked' : record.expiresAt <= now ? 'expired' : 'active';
  return { ...record, state };
}

/** Device names: printable, bounded; they appear in presence lists and the audit log. */
export const deviceNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\p{Cc}·]+$/u, 'control characters and "·" are not allowed');

const createBody = z
  .object({
    name: deviceNameSchema,
    scope: z.enum(SCOPES),
    /** Whose device it is; default: a person named after the token. */
    person: personNameSchema.optional(),
    /** Lifetime like `30m`, `12h`, `7d`; default LIMITS.deviceTokenDefaultTtlMs. */
    ttl: z.string().max(20).optional(),
  })
  .strict();

const tokenIdParams = z.object({ id: z.string().min(1).max(100) });

/** Who is asking: every route here runs after the auth hook has set `req.identity`. */
function caller(identity: Identity | undefined): Identity {
  if (!identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
  return identity;
}

/** `/api/tokens` CRUD for admins (ARCHITECTURE.md §6, §7). */
export const tokenRoutes: FastifyPluginAsync<{ auth: AuthServices }> = async (app, { auth }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  listAndCreateRoutes(r, auth);
  reassignAndRevokeRoutes(r, auth);
};

/** The device tokens, and creating one (its secret shown once). */
function listAndCreateRoutes(r: ZodApp, auth: AuthServices): void {
  r.get(
    '/api/tokens',
    {
      config: { scope: 'admin' },
      schema: { summary: 'List device tokens', tags: ['tokens'], response: { 200: z.object({ tokens: z.array(tokenViewSchema) }) } },
    },
    async () => ({ tokens: auth.tokens.list().map((t) => tokenView(t)) }),
  );

  r.post(
    '/api/tokens',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Create a device token (shown once)',
        tags: ['tokens'],
        body: createBody,
        response: { 201: z.object({ token: z.string(), info: tokenViewSchema }) },
      },
    },
    async (req, reply) => {
      const ttlMs = req.body.ttl === undefined ? auth.limits.deviceTokenDefaultTtlMs : parseTtl(req.body.ttl);
      if (ttlMs === undefined) throw new HubError('HUB_ERR_BAD_REQUEST', 'ttl must look like 30m, 12h, 7d or 2w (at most a year)');
      const issued = await auth.tokens.create({
        name: req.body.name,
        ...(req.body.person === undefined ? {} : { person: req.body.person }),
        scope: req.body.scope,
        ttlMs,
        via: 'api',
      });
      const { record } = issued;
      auth.audit.record({
        identity: caller(req.identity),
        action: 'token.create',
        detail: { id: record.id, name: record.name, person: record.person, scope: record.scope, expiresAt: record.expiresAt },
      });
      reply.code(201);
      return { token: issued.token, info: tokenView(issued.record) };
    },
  );
}

/** Giving a token to another person, and revoking one (its live sockets close). */
function reassignAndRevokeRoutes(r: ZodApp, auth: AuthServices): void {
  r.patch(
    '/api/tokens/:id',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Give a device token to another person (docs/SECURITY.md "People")',
        tags: ['tokens'],
        params: tokenIdParams,
        body: z.object({ person: personNameSchema }).strict(),
        response: { 200: z.object({ info: tokenViewSchema }) },
      },
    },
    async (req) => {
      if (req.params.id === 'admin') throw new HubError('HUB_ERR_BAD_REQUEST', "The admin token's person is always admin");
      const changed = auth.tokens.setPerson(req.params.id, req.body.person);
      if (!changed) throw new HubError('HUB_ERR_NOT_FOUND', 'No such token');
      auth.audit.record({
        identity: caller(req.identity),
        action: 'token.person',
        detail: { id: changed.record.id, name: changed.record.name, from: changed.from, to: changed.record.person },
      });
      return { info: tokenView(changed.record) };
    },
  );

  r.delete(
    '/api/tokens/:id',
    {
      config: { scope: 'admin' },
      schema: {
        summary: 'Revoke a device token; its live sockets close',
        tags: ['tokens'],
        params: tokenIdParams,
        response: { 200: z.object({ info: tokenViewSchema }) },
      },
    },
    async (req) => {
      if (req.params.id === 'admin')
        throw new HubError('HUB_ERR_BAD_REQUEST', 'The admin token is replaced by deleting <state-dir>/admin.token and restarting');
      const record = auth.tokens.revoke(req.params.id);
      if (!record) throw new HubError('HUB_ERR_NOT_FOUND', 'No such token');
      auth.audit.record({ identity: caller(req.identity), action: 'token.revoke', detail: { id: record.id, name: record.name } });
      return { info: tokenView(record) };
    },
  );
}
