/**
 * ZCode `session/event` → ACP `session/update` (APP-SERVER.md §5.4, ARCHITECTURE.md §5).
 * `translateEvent` is pure apart from the explicit per-session `TranslationContext` it reads
 * and updates; the same event with the same context always gives the same result.
 *
 * Rules per type (every one of §5.4's 25 names is handled; anything else is ignored):
 * - `model.streaming`: text_delta → agent_message_chunk, reasoning_delta → agent_thought_chunk,
 *   tool_input_start / tool_call → the tool card (translate-tool.ts).
 * - `tool.updated`, `permission.*`: tool cards (translate-tool.ts).
 * - `session.updated`: background tasks, usage, mode, model, todos (translate-session-updated.ts).
 * - `turn.*`: signals; stats in `_meta` only (translate-turn.ts).
 * - `message.upserted`: nothing. User messages are echoed by the hub when it sends the prompt
 *   (ARCHITECTURE.md §4.4); assistant text already streamed as deltas; the payload has no role
 *   (§5.5.5), so it cannot be told apart safely. Replays come from `session/messages`.
 * - `session.titleUpdated` → session_info_update; `session.closed` → signal.
 * - `checkpoint.created`, `rewind.triggered`, `streamRecovery.updated`, `session.created`,
 *   `session.resumed` and the declared-but-never-produced types: nothing shown.
 * Events of `inputSource: "background_task"` turns are translated and tagged
 * `_meta.zcode.backgroundTurn` so the domain never ends a user's prompt on them (APP-SERVER.md §11.12).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { assertNever } from '../errors.js';
import { translateSessionUpdated } from './translate-session-updated.js';
import {
  translatePermissionRequested,
  translatePermissionResolved,
  translateToolStreaming,
  translateToolUpdated,
} from './translate-tool.js';
import {
  translateSteerDrained,
  translateSteerQueued,
  translateTurnCompleted,
  translateTurnFailed,
  translateTurnStarted,
} from './translate-turn.js';
import { emptyResult, type TranslationContext, type TranslationResult } from './translation-context.js';
import { parseSessionEvent, type ZCodeEvent } from './zcode-event-schema.js';

/**
 * Parses raw `session/event` params and translates them; unknown or invalid events give an empty
 * result. Fields removed to parse an event, or an event that could not be parsed at all, are
 * reported in `dropped` so the caller can log them: nothing is dropped silently (§5.6).
 */
export function translateRawEvent(params: unknown, ctx: TranslationContext): TranslationResult {
  const parsed = parseSessionEvent(params);
  const type = typeof (params as { type?: unknown } | null)?.type === 'string' ? (params as { type: string }).type : undefined;
  if (parsed.kind === 'invalid') {
    const fields = [...parsed.dropped, ...parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)];
    return { ...emptyResult(), dropped: { type, fields, wholeEvent: true } };
  }
  const result = parsed.kind === 'event' ? translateEvent(parsed.event, ctx) : emptyResult();
  return parsed.dropped.length === 0 ? result : { ...result, dropped: { type, fields: parsed.dropped, wholeEvent: false } };
}

/** Translates one parsed ZCode event into ACP updates and hub signals, updating `ctx`. */
export function translateEvent(event: ZCodeEvent, ctx: TranslationContext): TranslationResult {
  const result = dispatch(event, ctx);
  return tagBackgroundTurn(result, event, ctx);
}

function updatesOnly(updates: SessionUpdate[]): TranslationResult {
  return { updates, signals: [] };
}

function dispatch(event: ZCodeEvent, ctx: TranslationContext): TranslationResult {
  switch (event.type) {
    case 'model.streaming': {
      const p = event.payload;
      switch (p.kind) {
        case 'text_delta':
          return updatesOnly(chunk('agent_message_chunk', p.delta, p.assistantMessageId));
        case 'reasoning_delta':
          return updatesOnly(chunk('agent_thought_chunk', p.delta, p.assistantMessageId));
        default:
          return updatesOnly(translateToolStreaming(ctx, p));
      }
    }
    case 'tool.updated':
      return updatesOnly(translateToolUpdated(ctx, event.payload));
    case 'permission.requested':
      return updatesOnly(translatePermissionRequested(ctx, event.payload));
    case 'permission.resolved':
      return updatesOnly(translatePermissionResolved(ctx, event.payload));
    case 'session.updated':
      return translateSessionUpdated(ctx, event.payload, event.turnId);
    case 'turn.started':
      return translateTurnStarted(ctx, event.turnId, event.payload);
    case 'turn.completed':
      return translateTurnCompleted(ctx, event.turnId, event.payload);
    case 'turn.failed':
      return translateTurnFailed(ctx, event.turnId, event.payload);
    case 'turn.steerQueued':
      return translateSteerQueued(event.payload);
    case 'turn.steerDrained':
      return translateSteerDrained(event.payload);
    case 'session.titleUpdated': {
      const { title, source } = event.payload;
      const updatedAt = event.timestamp === undefined ? undefined : new Date(event.timestamp).toISOString();
      return {
        updates: [{ sessionUpdate: 'session_info_update', title, ...(updatedAt === undefined ? {} : { updatedAt }) }],
        signals: [{ type: 'title_changed', title, ...(source === undefined ? {} : { source }) }],
      };
    }
    case 'session.created':
      if (event.payload.contextWindow !== undefined && event.payload.contextWindow > 0) ctx.contextWindow = event.payload.contextWindow;
      return emptyResult();
    case 'session.closed':
      return {
        updates: [],
        signals: [{ type: 'session_closed', ...(event.payload.reason === undefined ? {} : { reason: event.payload.reason }) }],
      };
    case 'message.upserted':
    case 'session.resumed':
    case 'checkpoint.created':
    case 'rewind.triggered':
    case 'streamRecovery.updated':
    case 'message.removed':
    case 'part.started':
    case 'part.delta':
    case 'part.upserted':
    case 'part.removed':
    case 'userInput.requested':
    case 'userInput.resolved':
      return emptyResult();
    default:
      return assertNever(event, 'session/event type');
  }
}

function chunk(
  kind: 'agent_message_chunk' | 'agent_thought_chunk',
  delta: string | undefined,
  messageId: string | undefined,
): SessionUpdate[] {
  if (delta === undefined || delta.length === 0) return [];
  return [{ sessionUpdate: kind, content: { type: 'text', text: delta }, ...(messageId === undefined ? {} : { messageId }) }];
}

/** Adds `_meta.zcode.backgroundTurn` to every update of a background-task turn. */
function tagBackgroundTurn(result: TranslationResult, event: ZCodeEvent, ctx: TranslationContext): TranslationResult {
  if (result.updates.length === 0 || event.turnId === undefined) return result;
  const turn = ctx.turns.get(event.turnId);
  if (turn?.background !== true) return result;
  const tag = { turnId: turn.turnId, inputSource: turn.inputSource ?? 'background_task' };
  return { ...result, updates: result.updates.map((u) => withZcodeMeta(u, { backgroundTurn: tag })) };
}

/** Merges keys into `update._meta.zcode`, keeping other `_meta` keys. */
export function withZcodeMeta(update: SessionUpdate, extra: Record<string, unknown>): SessionUpdate {
  const meta: Record<string, unknown> = update._meta ?? {};
  const zcode = meta['zcode'] !== null && typeof meta['zcode'] === 'object' ? (meta['zcode'] as Record<string, unknown>) : {};
  return { ...update, _meta: { ...meta, zcode: { ...zcode, ...extra } } };
}
