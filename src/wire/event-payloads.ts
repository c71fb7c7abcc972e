/**
 * Which payload each `session/event` type carries (docs/APP-SERVER.md §5.4): the 25 protocol
 * names, each with the one definition of its payload (src/wire/*-events.ts). The simulator emits
 * `StrictPayload<K>` and the strict test reads its events with `strictPayload`; the hub parses
 * each payload with the lenient reading (src/acp/zcode-event-schema.ts).
 */
import type { z } from 'zod';
import { messageUpserted, openPayload, sessionClosed, sessionCreated, sessionResumed, sessionTitleUpdated } from './session-events.js';
import { modelStreaming, permissionRequested, permissionResolved, toolUpdated } from './tool-events.js';
import { turnCompleted, turnFailed, turnStarted, turnSteerDrained, turnSteerQueued } from './turn-events.js';

export const EVENT_PAYLOADS = {
  'session.created': sessionCreated,
  'session.resumed': sessionResumed,
  'session.titleUpdated': sessionTitleUpdated,
  'session.closed': sessionClosed,
  'turn.started': turnStarted,
  'turn.steerQueued': turnSteerQueued,
  'turn.steerDrained': turnSteerDrained,
  'turn.completed': turnCompleted,
  'turn.failed': turnFailed,
  'message.upserted': messageUpserted,
  'model.streaming': modelStreaming,
  'tool.updated': toolUpdated,
  'permission.requested': permissionRequested,
  'permission.resolved': permissionResolved,
  'checkpoint.created': openPayload,
  'rewind.triggered': openPayload,
  'streamRecovery.updated': openPayload,
  'session.updated': openPayload,
  // Declared in the union, never produced by the CLI's mapper (§5.4): parsed, then ignored.
  'message.removed': openPayload,
  'part.started': openPayload,
  'part.delta': openPayload,
  'part.upserted': openPayload,
  'part.removed': openPayload,
  'userInput.requested': openPayload,
  'userInput.resolved': openPayload,
} as const;

export type EventType = keyof typeof EVENT_PAYLOADS;

/** A payload as the CLI sends it (what the simulator emits). */
export type StrictPayload<K extends EventType> = z.input<(typeof EVENT_PAYLOADS)[K]['strict']>;

/** The strict reading of a type's payload; undefined for a name that is not one of the 25. */
export function strictPayload(type: string): z.ZodType | undefined {
  return Object.hasOwn(EVENT_PAYLOADS, type) ? EVENT_PAYLOADS[type as EventType].strict : undefined;
}
