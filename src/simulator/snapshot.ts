import type { StrictSettings } from '../wire/settings.js';
import type { StrictSnapshot } from '../wire/snapshot.js';
import type { ModelRegistry } from './models.js';
import { toModelOption } from './models.js';
import type { SessionRuntime } from './session-runtime.js';
import { REVIEW_COMMAND } from './scenarios/review.js';

/** Which models a Settings object lists: all (create/resume, §4.1) or only the current one. */
export type AvailableScope = 'all' | 'current';

/** The session Settings object of §3.6 (also the `state.updated` patch, §5.8). */
export function buildSettings(rt: SessionRuntime, registry: ModelRegistry, scope: AvailableScope): StrictSettings {
  const sel = rt.info.model;
  const entry = sel ? registry.find(sel.providerId, sel.modelId) : undefined;
  const available = scope === 'all' ? registry.available() : entry ? [toModelOption(entry)] : [];
  const levels = entry?.levels ?? [];
  const current = rt.currentSelection();
  return {
    model: {
      ...(current ? { current } : {}),
      available,
      ...(sel ? { lastUsed: { providerId: sel.providerId, modelId: sel.modelId } } : {}),
    },
    thoughtLevel: {
      enabled: levels.length > 0,
      ...(rt.thoughtLevel && levels.includes(rt.thoughtLevel) ? { current: rt.thoughtLevel } : {}),
      ...(entry?.defaultLevel ? { defaultLevel: entry.defaultLevel } : {}),
      available: levels.map((v) => ({ value: v, label: v })),
    },
    mode: { current: rt.info.mode },
    permission: { mode: rt.info.mode },
  };
}

/** A full session snapshot (§3.6) with every required field. */
export function buildSnapshot(rt: SessionRuntime, registry: ModelRegistry, scope: AvailableScope, messageLimit?: number): StrictSnapshot {
  const sel = rt.info.model;
  const entry = sel ? registry.find(sel.providerId, sel.modelId) : undefined;
  const contextWindow = entry?.contextWindow ?? 128_000;
  const messages =
    messageLimit !== undefined && rt.messages.length > messageLimit ? rt.messages.slice(rt.messages.length - messageLimit) : rt.messages;
  const active = rt.activeTurn;
  return {
    protocol: { name: 'ZCode Protocol', version: 1 },
    session: { ...rt.info, ...(rt.goal ? { target: rt.goal } : {}) },
    settings: buildSettings(rt, registry, scope),
    projection: {
      sessionId: rt.sessionId,
      status: rt.info.status,
      mode: rt.info.mode,
      turnCount: rt.turnCount,
      totalTokenCount: rt.usage.totalTokens,
      contextUsed: rt.contextUsed,
      contextWindow,
      ...(rt.currentTurnId ? { currentTurnId: rt.currentTurnId } : {}),
      pendingPermissions: rt.pendingPermissions,
      activeToolCalls: rt.activeToolCalls,
      backgroundJobs: [...rt.backgroundJobs.values()].map((t) => ({ ...t })),
      target: rt.goal,
      ...(rt.lastError ? { lastError: rt.lastError } : {}),
    },
    runtime: {
      eventSeq: rt.log.lastSeq(),
      stateRevision: rt.stateRevision,
      ...(rt.log.deliveryKind ? { deliveryKind: rt.log.deliveryKind } : {}),
      ...(active ? { activeTurnId: active.turnId, activeTurnKind: active.kind } : {}),
      pendingRequestIds: [...rt.pendingRequestIds],
      apiRetry: null,
      contextUsage: { used: rt.contextUsed, size: contextWindow },
    },
    // Kept in the simulator's own store format (session-store.ts); test/wire reads them with the strict reading.
    messages: messages as unknown as StrictSnapshot['messages'],
    ...(rt.goal
      ? {
          goalStats: {
            timeUsedSeconds: rt.goal.timeUsedSeconds,
            tokensUsed: rt.goal.tokensUsed,
            tokenBudget: rt.goal.tokenBudget,
            contextUsed: rt.contextUsed,
            contextWindow,
            toolCallCount: 0,
            iterationCount: 0,
          },
        }
      : {}),
    todos: rt.todos,
    todoGroups: rt.todos.length > 0 ? [{ id: `todos_${rt.sessionId}`, source: 'session', todos: rt.todos }] : [],
    slashCommands: [
      { name: 'compact', description: 'Summarise the conversation to free context', source: 'builtin' },
      { name: 'goal', description: 'Set or manage a long-running goal', inputHint: '<objective>', source: 'builtin' },
      REVIEW_COMMAND,
    ],
  };
}
