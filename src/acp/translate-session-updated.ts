/**
 * `session.updated` variants → ACP (APP-SERVER.md §5.5.9): background-task cards (APP-SERVER.md
 * §14.7), usage, mode and model changes, todo plans.
 */
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { assertNever } from '../errors.js';
import { classifySessionUpdated, type BackgroundTaskPayload } from './session-updated-kind.js';
import { todosToPlanEntries } from './tool-info.js';
import { terminalContent, terminalExitMeta, terminalInfoMeta, textContent } from './tool-output.js';
import { getCard, terminalDelta } from './translate-tool.js';
import { emptyResult, setBounded, TRANSLATION_LIMITS, type TranslationContext, type TranslationResult } from './translation-context.js';
import type { ZCodeUsage } from './zcode-event-schema.js';

/** Context tokens after a model request: `totalTokens` when reported, else input + output. */
export function contextUsedFrom(usage: ZCodeUsage): number | undefined {
  if (usage.totalTokens !== undefined) return usage.totalTokens;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/** Translates one `session.updated` payload. */
export function translateSessionUpdated(ctx: TranslationContext, payload: Record<string, unknown>, turnId?: string): TranslationResult {
  const variant = classifySessionUpdated(payload);
  switch (variant.kind) {
    case 'background_task':
      return translateBackgroundTask(ctx, variant.payload);
    case 'model_complete': {
      const p = variant.payload;
      if (p.contextWindow !== undefined) ctx.contextWindow = p.contextWindow;
      const used = contextUsedFrom(p.usage);
      if (used !== undefined) ctx.contextUsed = used;
      const turn = turnId === undefined ? undefined : ctx.turns.get(turnId);
      if (turn !== undefined) turn.lastModelStopReason = p.stopReason;
      const updates: SessionUpdate[] =
        used !== undefined && ctx.contextWindow !== undefined
          ? [{ sessionUpdate: 'usage_update', used, size: ctx.contextWindow, _meta: { zcode: { usage: p.usage } } }]
          : [];
      return {
        updates,
        signals: [
          {
            type: 'usage',
            usage: p.usage,
            ...(ctx.contextWindow === undefined ? {} : { contextWindow: ctx.contextWindow }),
            ...(used === undefined ? {} : { used }),
          },
        ],
      };
    }
    case 'model_selected': {
      const p = variant.payload;
      if (p.contextWindow !== undefined) ctx.contextWindow = p.contextWindow;
      // No config_option_update here: it must list every model, which only the domain knows
      // (state-mutation snapshots carry just the current one, §3.6). The domain builds it.
      return {
        updates: [],
        signals: [
          {
            type: 'model_changed',
            model: p.modelSelection,
            ...(p.effectiveReasoningLevel === undefined ? {} : { reasoningLevel: p.effectiveReasoningLevel }),
            ...(p.contextWindow === undefined ? {} : { contextWindow: p.contextWindow }),
          },
        ],
      };
    }
    case 'mode_changed':
      return {
        updates: [{ sessionUpdate: 'current_mode_update', currentModeId: variant.payload.mode }],
        signals: [{ type: 'mode_changed', mode: variant.payload.mode, previousMode: variant.payload.previousMode }],
      };
    case 'todos': {
      const entries = todosToPlanEntries(variant.payload.todos) ?? [];
      return { updates: [{ sessionUpdate: 'plan', entries }], signals: [] };
    }
    case 'other':
      return emptyResult();
    default:
      return assertNever(variant, 'session.updated variant');
  }
}

const BASH_TASK = new Set(['bash', 'Bash']);

/**
 * A background task's lifecycle (APP-SERVER.md §14.7): a background Bash task reuses its launch card
 * (the toolCallId is a tracked `run_in_background` launch); any other task (sub-agent,
 * workflow, or an unknown launch) gets a fresh `bg_<taskId>` card titled `[background] …`.
 */
export function translateBackgroundTask(ctx: TranslationContext, p: BackgroundTaskPayload): TranslationResult {
  const done = p.status !== 'running';
  const updates: SessionUpdate[] = [];
  let cardId = ctx.backgroundTasks.get(p.taskId);
  const firstSighting = cardId === undefined;
  if (cardId === undefined) {
    const launch = p.toolCallId === undefined ? undefined : ctx.toolCards.get(p.toolCallId);
    if (launch?.backgroundLaunch === true) {
      cardId = launch.toolCallId;
    } else {
      cardId = `bg_${p.taskId}`;
      const isBash = BASH_TASK.has(p.taskKind ?? '') || BASH_TASK.has(p.toolName ?? '');
      const card = getCard(ctx, cardId, isBash ? 'Bash' : (p.toolName ?? 'Agent'));
      card.kind = isBash ? 'execute' : 'other';
      card.terminal = isBash;
      card.announced = true;
      card.status = 'in_progress';
      updates.push({
        sessionUpdate: 'tool_call',
        toolCallId: cardId,
        title: `[background] ${p.description ?? p.command ?? p.taskId}`,
        kind: card.kind,
        status: 'in_progress',
        ...(isBash ? { content: [terminalContent(cardId)] } : {}),
        rawInput: {
          taskId: p.taskId,
          ...(p.command ? { command: p.command } : {}),
          ...(p.description ? { description: p.description } : {}),
        },
        _meta: { ...(isBash ? terminalInfoMeta(cardId) : {}), backgroundTask: taskMeta(p) },
      });
    }
    if (!done) setBounded(ctx.backgroundTasks, p.taskId, cardId, TRANSLATION_LIMITS.maxTrackedBackgroundTasks);
  }
  const card = getCard(ctx, cardId);
  const output = p.outputTail ?? p.stdoutTail;
  const outputMeta = card.terminal && output !== undefined ? terminalDelta(card, output) : undefined;
  const textOut: ToolCallContent[] | undefined = !card.terminal && output ? [textContent(output)] : undefined;
  if (!done) {
    card.status = 'in_progress';
    // The first `running` of a reused launch card, and later new output, update the card.
    const reusedFirst = firstSighting && updates.length === 0;
    if (reusedFirst || outputMeta !== undefined || textOut !== undefined) {
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: cardId,
        status: 'in_progress',
        ...(textOut === undefined ? {} : { content: textOut }),
        _meta: { ...outputMeta, backgroundTask: taskMeta(p) },
      });
    }
  } else {
    const ok = p.status === 'completed';
    card.status = ok ? 'completed' : 'failed';
    card.backgroundLaunch = false;
    ctx.backgroundTasks.delete(p.taskId);
    updates.push({
      sessionUpdate: 'tool_call_update',
      toolCallId: cardId,
      status: card.status,
      ...(textOut === undefined ? {} : { content: textOut }),
      // No rawOutput: the launch's `{success, content}` stays the card's, as a reload shows it;
      // the task's own fields are `_meta.backgroundTask`.
      _meta: {
        ...outputMeta,
        ...(card.terminal ? terminalExitMeta(cardId, ok ? 0 : 1) : {}),
        backgroundTask: taskMeta(p),
      },
    });
  }
  return { updates, signals: [{ type: 'background_task', taskId: p.taskId, status: p.status, toolCallId: cardId, done }] };
}

function taskMeta(p: BackgroundTaskPayload): Record<string, unknown> {
  return {
    taskId: p.taskId,
    status: p.status,
    ...(p.taskKind === undefined ? {} : { taskKind: p.taskKind }),
    ...(p.childSessionId === undefined ? {} : { childSessionId: p.childSessionId }),
    ...(p.outputPath === undefined ? {} : { outputPath: p.outputPath }),
    ...(p.status === 'cancelled' ? { cancelled: true } : {}),
  };
}
