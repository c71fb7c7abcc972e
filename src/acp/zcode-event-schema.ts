/**
 * Lenient zod schemas of the app-server's `session/event` and `state.updated` notifications
 * (APP-SERVER.md §5). Every object is loose: the server forwards internal payloads with keys
 * its own published schemas do not list, so the hub must never drop an event for an unknown
 * key (§5.6). Only the fields the translator reads are typed; most are optional because seeds
 * show older CLIs omitting them.
 */
import { z } from 'zod';
import { errorDetailLenient } from '../wire/error-detail.js';
import { EVENT_PAYLOADS } from '../wire/event-payloads.js';
import { sessionEventEnvelope } from '../wire/events.js';
import { modelSelection } from '../wire/model.js';
import { reasoning, settings } from '../wire/settings.js';
import { usage, type Usage } from '../wire/turn-events.js';
import { parseLenient } from './lenient-parse.js';
import { plainCheck } from './plain-check.js';

const optStr = z.string().optional();

/** ErrorDetail (§5.5.4), the lenient reading of src/wire/error-detail.ts: a bare string is the message. */
export const errorDetailSchema = errorDetailLenient;
export type { ErrorDetail } from '../wire/error-detail.js';

/** The `session/event` envelope (§5.1), the lenient reading of src/wire/events.ts; `payload` is parsed per type afterwards. */
export const sessionEventEnvelopeSchema = sessionEventEnvelope.lenient;
export type SessionEventEnvelope = z.infer<typeof sessionEventEnvelopeSchema>;

/** Turn usage (§5.5.3) and model_complete usage (§5.5.9), the lenient reading of src/wire/turn-events.ts; all optional. */
export const usageSchema = usage.lenient;
export type ZCodeUsage = Usage;

const loose = z.looseObject({});

/** The hub's reading of each payload (§5.4): the lenient reading of its one definition in src/wire. */
export const EVENT_PAYLOAD_SCHEMAS = lenientReadings(EVENT_PAYLOADS);

function lenientReadings<T extends Record<string, { lenient: z.ZodType }>>(defs: T): { [K in keyof T]: T[K]['lenient'] } {
  return Object.fromEntries(Object.entries(defs).map(([k, d]) => [k, d.lenient])) as { [K in keyof T]: T[K]['lenient'] };
}

export type ZCodeEventType = keyof typeof EVENT_PAYLOAD_SCHEMAS;
export type EventPayload<K extends ZCodeEventType> = z.infer<(typeof EVENT_PAYLOAD_SCHEMAS)[K]>;

/** The envelope fields the translator reads (a loose type's index signature would erase them under `Omit`). */
export interface EventEnvelopeFields {
  eventId?: string;
  sessionId: string;
  seq: number;
  timestamp?: number;
  turnId?: string;
  traceId?: string;
  deliveryKind?: string;
}

/** A parsed `session/event`, discriminated by `type`. */
export type ZCodeEvent = {
  [K in ZCodeEventType]: EventEnvelopeFields & { type: K; payload: EventPayload<K> };
}[ZCodeEventType];

/**
 * Outcome of parsing: a known event, an unknown type (ignored, §11 #25), or invalid params.
 * `dropped` names the fields removed to parse it (nulls, drifted types; §5.6) — for the log.
 */
export type ParsedSessionEvent =
  | { kind: 'event'; event: ZCodeEvent; dropped: string[] }
  | { kind: 'unknown'; envelope: SessionEventEnvelope; dropped: string[] }
  | { kind: 'invalid'; error: z.ZodError; dropped: string[] };

/** True for the 25 protocol type names of §5.4. */
export function isKnownEventType(type: string): type is ZCodeEventType {
  return Object.hasOwn(EVENT_PAYLOAD_SCHEMAS, type);
}

/** The well-formed case of the envelope and of each payload schema that has one (plain-check.ts). */
const plainEnvelope = plainCheck(sessionEventEnvelopeSchema);
const plainPayloads = new Map(
  Object.entries(EVENT_PAYLOAD_SCHEMAS).flatMap(([type, schema]) => {
    const check = plainCheck(schema);
    return check ? [[type, check] as const] : [];
  }),
);

/** Parses `session/event` params leniently: unknown keys pass, unknown types are reported, not thrown. */
export function parseSessionEvent(params: unknown): ParsedSessionEvent {
  // Nearly every event is already what the schemas read: taken as it is, without zod's copies of
  // the event, its payload and a result per field (about 3 KB of heap per streamed event,
  // BENCHMARKS.md, tenth session).
  if (plainEnvelope?.(params)) {
    const { type, payload } = params as { type: string; payload?: unknown };
    if (isKnownEventType(type) && payload !== undefined && plainPayloads.get(type)?.(payload))
      return { kind: 'event', event: params as ZCodeEvent, dropped: [] };
  }
  const envelope = parseLenient(sessionEventEnvelopeSchema, params);
  if (!envelope.success) return { kind: 'invalid', error: envelope.error, dropped: envelope.dropped };
  const { type } = envelope.data;
  if (!isKnownEventType(type)) return { kind: 'unknown', envelope: envelope.data, dropped: envelope.dropped };
  const payload = parseLenient<unknown>(EVENT_PAYLOAD_SCHEMAS[type], envelope.data.payload ?? {});
  const dropped = [...envelope.dropped, ...payload.dropped.map((d) => `payload.${d}`)];
  if (!payload.success) return { kind: 'invalid', error: payload.error, dropped };
  return { kind: 'event', event: { ...envelope.data, type, payload: payload.data } as ZCodeEvent, dropped };
}

/** `state.updated` params (§5.8); `patch` is `{status}` or a Settings object depending on `reason`. */
export const stateUpdatedParamsSchema = z.looseObject({
  type: z.literal('state.updated').optional(),
  scope: z.string().default('session'),
  workspace: loose.optional(),
  sessionId: optStr,
  revision: z.number().int().nonnegative().default(0),
  reason: optStr,
  patch: z.unknown().optional(),
});
export type StateUpdatedParams = z.infer<typeof stateUpdatedParamsSchema>;

/**
 * A ModelSelection as found in events and settings (§3.2), tolerant of old `modelID` spellings:
 * the lenient reading of the one definition in src/wire/model.ts.
 */
export const modelSelectionSchema = modelSelection.lenient;
export type { ModelSelectionLike } from '../wire/model.js';

/** A ModelOption's `reasoning` (§3.6), the lenient reading of src/wire/settings.ts. */
export const reasoningSchema = reasoning.lenient;

/** The Settings object carried by snapshots and most `state.updated` patches (§3.6), read leniently. */
export const settingsPatchSchema = settings.lenient;
export type { SettingsPatch } from '../wire/settings.js';
