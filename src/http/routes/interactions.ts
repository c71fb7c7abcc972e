import { isLocalPeer } from '../../policy/local-peer.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authorSchema, partialAnswerSchema } from '../../zcode-ext/schemas.js';
import { partialAnswerParams } from '../../zcode-ext/requests.js';
import { HubError } from '../../errors.js';
import type { RestHub, RestAnswer } from '../hub-api.js';

/** `InteractionView` (docs/CLIENT-PROTOCOL.md "Interactions"). */
export const interactionViewSchema = z.object({
  interactionId: z.string(),
  sessionId: z.string(),
  kind: z.enum(['permission', 'question', 'plan_approval']),
  toolCallId: z.string().optional(),
  title: z.string(),
  options: z.array(z.object({ optionId: z.string(), name: z.string(), kind: z.string() })).optional(),
  questions: z
    .array(
      z.object({
        question: z.string(),
        header: z.string(),
        options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
        multiSelect: z.boolean(),
      }),
    )
    .optional(),
  plan: z.string().optional(),
  /** A permission's tool call as its request carries it: what is approved (docs/CLIENT-PROTOCOL.md "Interactions"). */
  toolCall: z.looseObject({ toolCallId: z.string() }).optional(),
  createdAt: z.number(),
  state: z.enum(['pending', 'resolved', 'cancelled', 'lost', 'expired']),
  resolvedBy: authorSchema.extend({ rule: z.string().optional(), grant: z.string().optional() }).optional(),
  outcome: z.unknown().optional(),
  /** Waiting under an `ask` approval rule: for whom, and the votes so far (docs/CLIENT-PROTOCOL.md "Approval rules"). */
  approval: z
    .object({
      rule: z.object({ id: z.string(), description: z.string().optional() }),
      waitingFor: z.string(),
      quorum: z.number().int(),
      allowed: z.array(z.string()),
      progress: z.string().optional(),
      state: z.enum(['open', 'allowed', 'denied']),
    })
    .optional(),
  /** Settled by an `allow`/`deny` rule with no one asked. */
  rule: z.object({ id: z.string(), description: z.string().optional(), decision: z.enum(['allow', 'deny']) }).optional(),
  /** Allowed by an "always allow" grant the hub keeps, with no one asked. */
  grant: z.object({ id: z.string(), by: z.string(), at: z.number() }).optional(),
  /** Whether the caller's token may answer it now. */
  mayAnswer: z.boolean().optional(),
  /** A question's answers kept so far (docs/CLIENT-PROTOCOL.md "Partial answers"). */
  partialAnswers: z.array(partialAnswerSchema).optional(),
});

/** The REST answer body (docs/CLIENT-PROTOCOL.md "REST answer body"). */
const answerBody = z.union([
  z.object({ optionId: z.string().min(1).max(256) }).strict(),
  z
    .object({ answers: z.record(z.string().max(4096), z.union([z.string().max(64 * 1024), z.array(z.string().max(64 * 1024)).max(100)])) })
    .strict(),
  z.object({ approve: z.literal(true) }).strict(),
  z
    .object({
      feedback: z
        .string()
        .min(1)
        .max(64 * 1024),
    })
    .strict(),
  z.object({ decline: z.literal(true) }).strict(),
]) satisfies z.ZodType<RestAnswer>;

export interface InteractionRouteOptions {
  hub: RestHub;
}

/**
 * The interaction inbox over REST (ARCHITECTURE.md §4.5): list pending interactions across sessions
 * and answer one — the same race as ACP answers; a late answer gets 409 `HUB_ERR_ALREADY_RESOLVED`
 * naming the winner in `details.resolvedBy`. `/partial` is `_zcode/partial_answer` over REST.
 */
export const interactionRoutes: FastifyPluginAsync<InteractionRouteOptions> = async (app, { hub }) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/interactions',
    {
      config: { scope: 'view' },
      schema: {
        summary: 'Pending interactions (permissions, questions, plan approvals) across sessions',
        tags: ['interactions'],
        querystring: z.object({ sessionId: z.string().max(256).optional() }),
        response: { 200: z.object({ interactions: z.array(interactionViewSchema) }) },
      },
    },
    async (req) => ({
      interactions: hub.listInteractions(
        req.query.sessionId,
        req.identity === undefined ? undefined : { identity: req.identity, local: isLocalPeer(req.raw.socket.remoteAddress, req.headers) },
      ),
    }),
  );

  r.post(
    '/api/interactions/:id/answer',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'Answer an interaction; 409 when another client answered first',
        tags: ['interactions'],
        params: z.object({ id: z.string().min(1).max(256) }),
        body: answerBody,
        response: { 200: z.object({ interaction: interactionViewSchema }) },
      },
    },
    async (req) => {
      if (!req.identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
      // Locality for `localOnly` rules: a loopback peer that forwards nobody (src/policy/local-peer.ts).
      const local = isLocalPeer(req.raw.socket.remoteAddress, req.headers);
      return { interaction: await hub.answerInteraction(req.params.id, req.body, { identity: req.identity, local }) };
    },
  );

  r.post(
    '/api/interactions/:id/partial',
    {
      config: { scope: 'operate' },
      schema: {
        summary: 'Answer one question of a pending question; the hub keeps it, the last one answers the question',
        tags: ['interactions'],
        params: z.object({ id: z.string().min(1).max(256) }),
        body: partialAnswerParams.omit({ interactionId: true }).strict(),
        response: { 200: z.object({ interaction: interactionViewSchema }) },
      },
    },
    async (req) => {
      if (!req.identity) throw new HubError('HUB_ERR_UNAUTHENTICATED');
      const local = isLocalPeer(req.raw.socket.remoteAddress, req.headers);
      return { interaction: hub.partialAnswer(req.params.id, req.body, { identity: req.identity, local }) };
    },
  );
};
