/**
 * The small, explicit per-session state the event translator needs between events, and the
 * result type it returns. One context per ZCode session; the domain owns it and passes it to
 * every `translateEvent` call for that session. Every map is bounded (STYLE habit 6).
 */
import type { SessionUpdate, StopReason, ToolKind } from '@agentclientprotocol/sdk';
import type { ErrorDetail, ModelSelectionLike, ZCodeUsage } from './zcode-event-schema.js';

/** Bounds of the translation state (per session). */
export const TRANSLATION_LIMITS = {
  /** Tool cards remembered per session; the oldest is forgotten first. */
  maxTrackedToolCalls: 2_000,
  /** Background tasks remembered per session. */
  maxTrackedBackgroundTasks: 256,
  /** Turns remembered per session (for tagging events of background turns). */
  maxTrackedTurns: 64,
  /** Characters of tool output placed in a text content block or `_meta.zcode.outputText` (the tail is kept). */
  maxToolOutputChars: 64 * 1024,
} as const;

/** What the translator remembers about one tool call card. */
export interface ToolCardState {
  toolCallId: string;
  toolName: string;
  kind: ToolKind;
  /** The card was created (a `tool_call` was emitted). */
  announced: boolean;
  status: 'pending' | 'in_progress' | 'completed' | 'failed';
  /** Cached tool input (from `model.streaming tool_call` or `tool.updated scheduled`). */
  input?: unknown;
  /** Output rendered as a terminal (`_meta.terminal_*`): Bash and other execute tools. */
  terminal: boolean;
  /** Terminal text already sent through `_meta.terminal_output` (bounded tail, for delta and dedupe). */
  terminalSent: string;
  /** A `run_in_background` Bash launch: the card stays open for the background task (APP-SERVER.md §14.7). */
  backgroundLaunch: boolean;
}

/** What the translator remembers about one turn. */
export interface TurnState {
  turnId: string;
  inputId?: string;
  inputSource?: string;
  /** `inputSource: "background_task"`: translated, but never ends a user's prompt (§11 #12). */
  background: boolean;
  /** Last `model_complete.stopReason` seen in this turn (refusal / max_tokens detection). */
  lastModelStopReason?: string;
}

/** Per-session translation state. Create with `createTranslationContext`. */
export interface TranslationContext {
  sessionId: string;
  /** Tool cards by toolCallId (insertion order = age). */
  toolCards: Map<string, ToolCardState>;
  /** Background task id → the toolCallId of the card showing it. */
  backgroundTasks: Map<string, string>;
  /** Turns by turnId (insertion order = age). */
  turns: Map<string, TurnState>;
  /** The most recently started turn. */
  currentTurnId?: string;
  /** Context window last learned (session.created, model_selected, model_complete). */
  contextWindow?: number;
  /** Context tokens used after the last model request. */
  contextUsed?: number;
}

/** Creates an empty translation context for one session. */
export function createTranslationContext(sessionId: string): TranslationContext {
  return { sessionId, toolCards: new Map(), backgroundTasks: new Map(), turns: new Map() };
}

/** How a turn ended, for the domain's prompt correlation (§5.5.3/§5.5.4). */
export type TurnOutcome = 'success' | 'cancelled' | 'limit' | 'failed';

/** Turn statistics; they travel in `_meta`/`usage_update`, never as agent text (ARCHITECTURE.md §5). */
export interface TurnStats {
  tokenCount?: number;
  toolCallCount?: number;
  durationMs?: number;
  resultType?: string;
  usage?: ZCodeUsage;
}

/** Hub-level facts the domain needs beside the ACP updates. */
export type TurnSignal =
  | {
      type: 'turn_started';
      turnId: string;
      inputId?: string;
      /** The agent's id of the turn's user message (names the prompt's author in replay). */
      messageId?: string;
      inputSource?: string;
      inputVisibility?: string;
      /** A background-task notification turn: show it, but do not treat it as the user's turn. */
      background: boolean;
    }
  | {
      type: 'turn_ended';
      turnId: string;
      inputId?: string;
      background: boolean;
      outcome: TurnOutcome;
      stopReason: StopReason;
      stats?: TurnStats;
      error?: ErrorDetail;
    }
  | { type: 'steer_queued'; pendingInputId?: string; inputId?: string; queueLength?: number; source?: string }
  | { type: 'title_changed'; title: string; source?: string }
  | { type: 'mode_changed'; mode: string; previousMode?: string }
  | { type: 'model_changed'; model: ModelSelectionLike; reasoningLevel?: string; contextWindow?: number }
  | { type: 'usage'; usage: ZCodeUsage; contextWindow?: number; used?: number }
  | { type: 'background_task'; taskId: string; status: string; toolCallId: string; done: boolean }
  | { type: 'session_closed'; reason?: string };

/** What one event translates to. */
export interface TranslationResult {
  updates: SessionUpdate[];
  signals: TurnSignal[];
  /** What parsing had to drop (fields, or the whole event), for the caller to log (§5.6). */
  dropped?: { type: string | undefined; fields: string[]; wholeEvent: boolean };
}

/** The empty result. */
export function emptyResult(): TranslationResult {
  return { updates: [], signals: [] };
}

/** Sets `key` in a Map, forgetting the oldest entries beyond `max`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}
