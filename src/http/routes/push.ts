/**
 * Web Push routes: the hub's VAPID public key, and subscribe / unsubscribe for this browser.
 * Any paired device (`view` and up) may be notified about sessions it can see. A subscription
 * belongs to the token that registered it, its endpoint must be https on a public address, and
 * both acts are audited (docs/SECURITY.md "Push endpoints").
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditSink } from '../../auth/audit-log.js';
import type { Identity } from '../../auth/identity.js';
import { HubError } from '../../errors.js';
import { endpointRefusal } from '../../push/endpoint-guard.js';
import type { PushNotifier } from '../../push/push-notifier.js';
import { pushSubscriptionSchema } from '../../push/subscription-store.js';

export interface PushRouteOptions {
  notifier: PushNotifier;
  audit?: AuditSink;
}

function identityOf(identity: Identity | undefined): Identity {
  if (!identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
  return identity;
}

/** The endpoint's origin: what the audit log records (the path is the browser's push capability). */
function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid';
  }
}

/** `GET /api/push/vapid-public-key`, `POST /api/push/subscriptions`, `DELETE /api/push/subscriptions`. */
export const pushRoutes: FastifyPluginAsync<PushRouteOptions> = async (app, opts) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/push/vapid-public-key',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'VAPID public key for PushManager.subscribe',
        tags: ['push'],
        response: { 200: z.object({ publicKey: z.string() }) },
      },
    },
    async () => ({ publicKey: opts.notifier.publicKey }),
  );
  r.post(
    '/api/push/subscriptions',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Register this browser for notifications (https on a public address; a few per device)',
        tags: ['push'],
        body: pushSubscriptionSchema,
        response: { 201: z.object({ ok: z.literal(true) }) },
      },
    },
    async (req, reply) => {
      const who = identityOf(req.identity);
      const refused = await endpointRefusal(req.body.endpoint, opts.notifier.allowPrivateEndpoints);
      if (refused) throw new HubError('HUB_ERR_BAD_REQUEST', refused);
      const result = opts.notifier.subscriptions.add(req.body, { device: who.name, tokenId: who.tokenId });
      if (result.kind === 'taken') throw new HubError('HUB_ERR_CONFLICT', 'another device holds this push subscription');
      if (result.kind === 'full')
        throw new HubError('HUB_ERR_LIMIT', 'the hub holds as many push subscriptions as it keeps (limits.pushSubscriptionsMax)');
      opts.audit?.({
        identity: who,
        action: 'push.subscribe',
        detail: { endpoint: originOf(req.body.endpoint), result: result.kind, dropped: result.evicted.length },
      });
      return reply.code(201).send({ ok: true as const });
    },
  );
  r.delete(
    '/api/push/subscriptions',
    {
      config: { scope: 'view' },
      schema: {
        summary: "Unregister a browser (the device's own subscription; an admin may remove any)",
        tags: ['push'],
        body: z.object({ endpoint: z.string().min(1).max(2048) }),
        response: { 200: z.object({ removed: z.boolean() }) },
      },
    },
    async (req) => {
      const who = identityOf(req.identity);
      const result = opts.notifier.subscriptions.remove(req.body.endpoint, { tokenId: who.tokenId, admin: who.scope === 'admin' });
      if (result === 'not_yours') throw new HubError('HUB_ERR_FORBIDDEN', "another device's push subscription");
      if (result === 'removed')
        opts.audit?.({ identity: who, action: 'push.unsubscribe', detail: { endpoint: originOf(req.body.endpoint) } });
      return { removed: result === 'removed' };
    },
  );
};
