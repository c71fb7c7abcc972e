/**
 * Web Push routes: the hub's VAPID public key, and subscribe / unsubscribe for this browser.
 * Any paired device (`view` and up) may be notified about sessions it can see.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PushNotifier } from '../../push/push-notifier.js';
import { pushSubscriptionSchema } from '../../push/subscription-store.js';

export interface PushRouteOptions {
  notifier: PushNotifier;
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
        summary: 'Register this browser for notifications',
        tags: ['push'],
        body: pushSubscriptionSchema,
        response: { 201: z.object({ ok: z.literal(true) }) },
      },
    },
    async (req, reply) => {
      const who = req.identity;
      opts.notifier.subscriptions.add(req.body, { device: who?.name ?? 'unknown', tokenId: who?.tokenId ?? 'unknown' });
      return reply.code(201).send({ ok: true as const });
    },
  );
  r.delete(
    '/api/push/subscriptions',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Unregister a browser',
        tags: ['push'],
        body: z.object({ endpoint: z.string().min(1).max(2048) }),
        response: { 200: z.object({ removed: z.boolean() }) },
      },
    },
    async (req) => ({ removed: opts.notifier.subscriptions.remove(req.body.endpoint) }),
  );
};
