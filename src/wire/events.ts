/**
 * The `session/event` envelope (docs/APP-SERVER.md §5.1), defined once: the simulator emits it
 * to the strict reading; the hub reads it leniently (src/acp/zcode-event-schema.ts), where older
 * CLIs leave out the event id, the timestamp or the delivery kind.
 */
import { z } from 'zod';
import { drift, message } from './message.js';

export const DELIVERY_KINDS = ['desktop-continuous', 'web-remote-replayable'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

const optStr = z.string().optional();

export const sessionEventEnvelope = message({
  eventId: drift(z.string(), optStr),
  sessionId: z.string().min(1),
  seq: z.number().int().nonnegative(),
  timestamp: drift(z.number(), z.number().optional()),
  type: z.string().min(1),
  /** Parsed per type afterwards by the hub (EVENT_PAYLOAD_SCHEMAS). */
  payload: drift(z.record(z.string(), z.unknown()), z.unknown().optional()),
  turnId: optStr,
  traceId: optStr,
  deliveryKind: drift(z.enum(DELIVERY_KINDS), optStr),
});
