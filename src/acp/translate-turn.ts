/**
 * Turn lifecycle → hub signals (APP-SERVER.md §5.5.1–§5.5.4). Turns produce no agent text:
 * their statistics go into `_meta.zcode.turn` of a `usage_update` and into the signal.
 */
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import {
  setBounded,
  TRANSLATION_LIMITS,
  type TranslationContext,
  type TranslationResult,
  type TurnOutcome,
  type TurnState,
} from './translation-context.js';
import type { EventPayload } from './zcode-event-schema.js';

/** The synthetic input source of background-task notification turns (§3.4, §5.5.1). */
export const BACKGROUND_TASK_SOURCE = 'background_task';

/** ACP stop reason and hub outcome for a `turn.completed.resultType` (§3.4), refined by the last model stop reason. */
export function mapResultType(resultType: string, lastModelStopReason?: string): { outcome: TurnOutcome; stopReason: StopReason } {
  switch (resultType) {
    case 'success': {
      const reason = lastModelStopReason?.toLowerCase();
      if (reason === 'refusal' || reason === 'content_filter' || reason === 'content-filter')
        return { outcome: 'success', stopReason: 'refusal' };
      if (reason === 'max_tokens' || reason === 'length') return { outcome: 'success', stopReason: 'max_tokens' };
      return { outcome: 'success', stopReason: 'end_turn' };
    }
    case 'cancelled':
      return { outcome: 'cancelled', stopReason: 'cancelled' };
    case 'error_max_turns':
    case 'error_max_tool_calls':
      return { outcome: 'limit', stopReason: 'max_turn_requests' };
    case 'error_max_budget':
      return { outcome: 'limit', stopReason: 'max_tokens' };
    case 'error_during_execution':
      return { outcome: 'failed', stopReason: 'end_turn' };
    default:
      // An unknown resultType still ends the turn; say so without guessing a limit.
      return { outcome: 'failed', stopReason: 'end_turn' };
  }
}

/** Looks up a turn by id, registering an unknown one (events may start mid-turn after a resubscribe). */
export function turnOf(ctx: TranslationContext, turnId: string | undefined): TurnState | undefined {
  if (turnId === undefined) return ctx.currentTurnId === undefined ? undefined : ctx.turns.get(ctx.currentTurnId);
  let turn = ctx.turns.get(turnId);
  if (turn === undefined) {
    turn = { turnId, background: false };
    setBounded(ctx.turns, turnId, turn, TRANSLATION_LIMITS.maxTrackedTurns);
  }
  return turn;
}

/** `turn.started` → `turn_started` signal; remembers whether it is a background-task turn. */
export function translateTurnStarted(
  ctx: TranslationContext,
  turnId: string | undefined,
  p: EventPayload<'turn.started'>,
): TranslationResult {
  const id = turnId ?? p.inputId ?? `turn_${ctx.turns.size + 1}`;
  const background = p.inputSource === BACKGROUND_TASK_SOURCE;
  const turn: TurnState = {
    turnId: id,
    background,
    ...(p.inputId === undefined ? {} : { inputId: p.inputId }),
    ...(p.inputSource === undefined ? {} : { inputSource: p.inputSource }),
  };
  setBounded(ctx.turns, id, turn, TRANSLATION_LIMITS.maxTrackedTurns);
  ctx.currentTurnId = id;
  return {
    updates: [],
    signals: [
      {
        type: 'turn_started',
        turnId: id,
        background,
        ...(p.inputId === undefined ? {} : { inputId: p.inputId }),
        ...(p.messageId === undefined ? {} : { messageId: p.messageId }),
        ...(p.inputSource === undefined ? {} : { inputSource: p.inputSource }),
        ...(p.inputVisibility === undefined ? {} : { inputVisibility: p.inputVisibility }),
      },
    ],
  };
}

/** `turn.completed` → `turn_ended` signal (+ a `usage_update` carrying the stats in `_meta` when the context size is known). */
export function translateTurnCompleted(
  ctx: TranslationContext,
  turnId: string | undefined,
  p: EventPayload<'turn.completed'>,
): TranslationResult {
  const turn = turnOf(ctx, turnId);
  const id = turn?.turnId ?? turnId ?? 'unknown';
  const { outcome, stopReason } = mapResultType(p.resultType, turn?.lastModelStopReason);
  const stats = {
    resultType: p.resultType,
    ...(p.tokenCount === undefined ? {} : { tokenCount: p.tokenCount }),
    ...(p.toolCallCount === undefined ? {} : { toolCallCount: p.toolCallCount }),
    ...(p.duration === undefined ? {} : { durationMs: p.duration }),
    ...(p.usage === undefined ? {} : { usage: p.usage }),
  };
  const inputId = p.inputId ?? turn?.inputId;
  const updates: SessionUpdate[] =
    ctx.contextUsed !== undefined && ctx.contextWindow !== undefined
      ? [
          {
            sessionUpdate: 'usage_update',
            used: ctx.contextUsed,
            size: ctx.contextWindow,
            _meta: { zcode: { turn: { turnId: id, ...stats } } },
          },
        ]
      : [];
  return {
    updates,
    signals: [
      {
        type: 'turn_ended',
        turnId: id,
        background: turn?.background ?? false,
        outcome,
        stopReason,
        stats,
        ...(inputId === undefined ? {} : { inputId }),
      },
    ],
  };
}

/** `turn.failed` → `turn_ended` with outcome `failed` and the error; never agent text. */
export function translateTurnFailed(
  ctx: TranslationContext,
  turnId: string | undefined,
  p: EventPayload<'turn.failed'>,
): TranslationResult {
  const turn = turnOf(ctx, turnId);
  const id = turn?.turnId ?? turnId ?? 'unknown';
  const inputId = p.inputId ?? turn?.inputId;
  return {
    updates: [],
    signals: [
      {
        type: 'turn_ended',
        turnId: id,
        background: turn?.background ?? false,
        outcome: 'failed',
        stopReason: 'end_turn',
        error: p.error,
        ...(inputId === undefined ? {} : { inputId }),
      },
    ],
  };
}

/** `turn.steerQueued` → a signal only: the text shows when it is drained into the conversation. */
export function translateSteerQueued(p: EventPayload<'turn.steerQueued'>): TranslationResult {
  return {
    updates: [],
    signals: [
      {
        type: 'steer_queued',
        ...(p.pendingInputId === undefined ? {} : { pendingInputId: p.pendingInputId }),
        ...(p.inputId === undefined ? {} : { inputId: p.inputId }),
        ...(p.queueLength === undefined ? {} : { queueLength: p.queueLength }),
        ...(p.source === undefined ? {} : { source: p.source }),
      },
    ],
  };
}

/** `turn.steerDrained` → one `user_message_chunk` per drained input text (e.g. plan feedback, §6.3). */
export function translateSteerDrained(p: EventPayload<'turn.steerDrained'>): TranslationResult {
  const updates: SessionUpdate[] = (p.drainedInputs ?? []).flatMap((d): SessionUpdate[] =>
    d.text === undefined || d.text.length === 0
      ? []
      : [
          {
            sessionUpdate: 'user_message_chunk',
            content: { type: 'text', text: d.text },
            ...(d.messageId === undefined ? {} : { messageId: d.messageId }),
            _meta: { zcode: { steer: { pendingInputId: d.pendingInputId ?? null } } },
          },
        ],
  );
  return { updates, signals: [] };
}
