import { z } from 'zod';

/** What the load client accepts from the hub (docs/CLIENT-PROTOCOL.md), checked with zod off the hot path. */

export const zcodeMetaSchema = z.looseObject({ seq: z.number().int().nonnegative(), epoch: z.string() });

export const sessionUpdateFrameSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  method: z.literal('session/update'),
  params: z.looseObject({
    sessionId: z.string(),
    update: z.looseObject({ sessionUpdate: z.string() }),
    _meta: z.looseObject({ zcode: zcodeMetaSchema }),
  }),
});

export const responseFrameSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.number(), z.string()]),
  result: z.unknown().optional(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
});

export const notificationFrameSchema = z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string(), params: z.unknown().optional() });

/** The `_meta.zcode` part of session/new, session/load and session/resume results. */
export const attachResultSchema = z.looseObject({
  sessionId: z.string().optional(),
  _meta: z.looseObject({ zcode: z.looseObject({ seq: z.number().int().nonnegative(), epoch: z.string() }) }),
});

export const promptResultSchema = z.looseObject({ stopReason: z.string() });

/** `_zcode/own_update` params: the seq of the echo of the client's own prompt. */
export const ownUpdateSchema = z.looseObject({ sessionId: z.string(), _meta: z.looseObject({ zcode: zcodeMetaSchema }) });
