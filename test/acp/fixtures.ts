/** Event fixtures shaped like APP-SERVER.md §5.1's envelope example. */
import { parseSessionEvent, type ZCodeEvent } from '../../src/acp/zcode-event-schema.js';

let seq = 0;

/** A raw `session/event` params object (§5.1) for `type` with `payload`. */
export function rawEvent(type: string, payload: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  return {
    deliveryKind: 'desktop-continuous',
    eventId: `evt_${seq}`,
    payload,
    seq,
    sessionId: 'sess_9f2c',
    timestamp: 1790000001234 + seq,
    traceId: 'trace_1',
    turnId: 'turn_1',
    type,
    ...extra,
  };
}

/** A parsed event; throws when the fixture does not parse (a test bug). */
export function event(type: string, payload: unknown, extra: Record<string, unknown> = {}): ZCodeEvent {
  const parsed = parseSessionEvent(rawEvent(type, payload, extra));
  if (parsed.kind !== 'event') throw new Error(`fixture ${type} did not parse: ${JSON.stringify(parsed)}`);
  return parsed.event;
}
