/**
 * Tool lifecycle → ACP tool cards (APP-SERVER.md §5.5.6 tool kinds, §5.5.7, §5.5.8).
 * One card per toolCallId: the first event that names it emits `tool_call`, later ones
 * `tool_call_update`. Bash cards carry terminal `_meta`; Edit/Write cards carry diffs.
 */
import type { SessionUpdate, ToolCallContent, ToolCallStatus } from '@agentclientprotocol/sdk';
import { assertNever } from '../errors.js';
import {
  diffContent,
  isRunInBackground,
  isTerminalTool,
  isTodoTool,
  todosToPlanEntries,
  toolKind,
  toolLocations,
  toolTitle,
  asInput,
} from './tool-info.js';
import {
  errorRawOutput,
  resultDisplay,
  resultFailed,
  resultRawOutput,
  resultText,
  tail,
  terminalContent,
  terminalExitMeta,
  terminalInfoMeta,
  terminalOutputMeta,
  textContent,
  unsentSuffix,
} from './tool-output.js';
import { setBounded, TRANSLATION_LIMITS, type ToolCardState, type TranslationContext } from './translation-context.js';
import type { EventPayload } from './zcode-event-schema.js';

type ToolUpdatedPayload = EventPayload<'tool.updated'>;
type StreamingPayload = EventPayload<'model.streaming'>;

const TOOL_UPDATE_KINDS = ['scheduled', 'started', 'progress', 'result', 'error', 'batch', 'raw'] as const;
type ToolUpdateKind = (typeof TOOL_UPDATE_KINDS)[number];

function isToolUpdateKind(kind: string): kind is ToolUpdateKind {
  return (TOOL_UPDATE_KINDS as readonly string[]).includes(kind);
}

/** Gets the card for `toolCallId`, creating an unannounced one; learns the tool name late. */
export function getCard(ctx: TranslationContext, toolCallId: string, toolName?: string): ToolCardState {
  let card = ctx.toolCards.get(toolCallId);
  if (card === undefined) {
    const name = toolName ?? '';
    card = {
      toolCallId,
      toolName: name,
      kind: toolKind(name),
      announced: false,
      status: 'pending',
      terminal: isTerminalTool(name),
      terminalSent: '',
      backgroundLaunch: false,
    };
    setBounded(ctx.toolCards, toolCallId, card, TRANSLATION_LIMITS.maxTrackedToolCalls);
  } else if (card.toolName === '' && toolName !== undefined && toolName !== '') {
    card.toolName = toolName;
    card.kind = toolKind(toolName);
    card.terminal = isTerminalTool(toolName);
  }
  return card;
}

/** Fields derived from the card's input (title, kind, locations, diff/terminal content). */
function inputFields(card: ToolCardState): {
  title: string;
  kind: ToolCardState['kind'];
  locations: ReturnType<typeof toolLocations>;
  content: ToolCallContent[];
} {
  const content = card.terminal ? [terminalContent(card.toolCallId)] : diffContent(card.toolName, card.input);
  return { title: toolTitle(card.toolName || 'tool', card.input), kind: card.kind, locations: toolLocations(card.input), content };
}

function cardMeta(card: ToolCardState, extra?: Record<string, unknown>): Record<string, unknown> {
  return { claudeCode: { toolName: card.toolName }, ...extra };
}

/** Emits `tool_call` for an unannounced card, with the given status. */
export function announce(card: ToolCardState, status: ToolCallStatus, extraMeta?: Record<string, unknown>): SessionUpdate {
  card.announced = true;
  card.status = status;
  const f = inputFields(card);
  const terminalMeta = card.terminal ? terminalInfoMeta(card.toolCallId, cwdOf(card.input)) : {};
  return {
    sessionUpdate: 'tool_call',
    toolCallId: card.toolCallId,
    title: f.title,
    kind: f.kind,
    status,
    ...(card.toolName ? { name: card.toolName } : {}),
    ...(f.content.length > 0 ? { content: f.content } : {}),
    ...(f.locations.length > 0 ? { locations: f.locations } : {}),
    ...(card.input === undefined ? {} : { rawInput: card.input }),
    _meta: cardMeta(card, { ...terminalMeta, ...extraMeta }),
  };
}

function cwdOf(input: unknown): string | undefined {
  const cwd = asInput(input)['cwd'];
  return typeof cwd === 'string' ? cwd : undefined;
}

/** A `tool_call_update` for a card; records the status. */
function cardUpdate(
  card: ToolCardState,
  fields: Omit<Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>, 'sessionUpdate' | 'toolCallId'>,
): SessionUpdate {
  if (fields.status) card.status = fields.status;
  return { sessionUpdate: 'tool_call_update', toolCallId: card.toolCallId, ...fields };
}

/** Ensures the card is announced; returns the `tool_call` when it was not. */
function ensureAnnounced(card: ToolCardState, status: ToolCallStatus, extraMeta?: Record<string, unknown>): SessionUpdate[] {
  return card.announced ? [] : [announce(card, status, extraMeta)];
}

/** Records a newly learned input; returns the updates it causes (card fields, plan for TodoWrite). */
function learnInput(card: ToolCardState, input: unknown): SessionUpdate[] {
  if (input === undefined) return [];
  const first = card.input === undefined;
  card.input = input;
  if (isRunInBackground(input) && card.terminal) card.backgroundLaunch = true;
  const updates: SessionUpdate[] = [];
  if (card.announced) {
    const f = inputFields(card);
    updates.push(
      cardUpdate(card, {
        title: f.title,
        kind: f.kind,
        rawInput: input,
        ...(f.content.length > 0 ? { content: f.content } : {}),
        ...(f.locations.length > 0 ? { locations: f.locations } : {}),
      }),
    );
  }
  // TodoWrite carries the whole todo list: it is the session's plan (APP-SERVER.md §14.5).
  if (first && isTodoTool(card.toolName)) {
    const entries = todosToPlanEntries(asInput(input)['todos']);
    if (entries !== undefined) updates.push({ sessionUpdate: 'plan', entries });
  }
  return updates;
}

/** `model.streaming` tool kinds (§5.5.6): start announces the card, `tool_call` delivers the input. */
export function translateToolStreaming(ctx: TranslationContext, p: StreamingPayload): SessionUpdate[] {
  if (p.toolCallId === undefined) return [];
  switch (p.kind) {
    case 'tool_input_start': {
      const card = getCard(ctx, p.toolCallId, p.toolName);
      return ensureAnnounced(card, 'pending');
    }
    case 'tool_call': {
      const card = getCard(ctx, p.toolCallId, p.toolName);
      if (!card.announced) {
        card.input = p.input;
        if (isRunInBackground(p.input) && card.terminal) card.backgroundLaunch = true;
        const plan = isTodoTool(card.toolName) ? todosToPlanEntries(asInput(p.input)['todos']) : undefined;
        return [announce(card, 'pending'), ...(plan === undefined ? [] : [{ sessionUpdate: 'plan' as const, entries: plan }])];
      }
      return learnInput(card, p.input);
    }
    default:
      // tool_input_delta / tool_input_end: partial JSON, nothing to show until `tool_call`.
      return [];
  }
}

function subagentMeta(p: ToolUpdatedPayload): Record<string, unknown> | undefined {
  if (p.source !== 'subagent' && p.parentToolCallId === undefined && p.childSessionId === undefined) return undefined;
  return {
    zcode: {
      subagent: {
        ...(p.parentToolCallId === undefined ? {} : { parentToolCallId: p.parentToolCallId }),
        ...(p.childSessionId === undefined ? {} : { childSessionId: p.childSessionId }),
        ...(p.agentId === undefined ? {} : { agentId: p.agentId }),
        ...(p.agentType === undefined ? {} : { agentType: p.agentType }),
      },
    },
  };
}

/**
 * The card a `tool.updated` belongs to. A sub-agent mirror that names the child's own call
 * (`childToolCallId`, §5.5.7) is keyed by it: its `toolCallId` may be the parent's Agent call,
 * and the history replay keys the child's cards by the child's call id too (subagent-history.ts).
 */
function cardKey(p: ToolUpdatedPayload): string | undefined {
  const mirror = p.source === 'subagent' || p.childSessionId !== undefined;
  return mirror && p.childToolCallId !== undefined ? p.childToolCallId : p.toolCallId;
}

/** `tool.updated` (§5.5.7) → tool_call / tool_call_update. */
export function translateToolUpdated(ctx: TranslationContext, p: ToolUpdatedPayload): SessionUpdate[] {
  if (!isToolUpdateKind(p.kind)) return [];
  const kind = p.kind;
  switch (kind) {
    case 'batch':
    case 'raw':
      // batch only summarises cards already closed one by one; raw is never produced by S.
      return [];
    case 'scheduled':
    case 'started':
    case 'progress':
    case 'result':
    case 'error': {
      const key = cardKey(p);
      if (key === undefined) return [];
      const card = getCard(ctx, key, p.toolName);
      return toolStep(card, kind, p);
    }
    default:
      return assertNever(kind, 'tool.updated kind');
  }
}

function toolStep(
  card: ToolCardState,
  kind: 'scheduled' | 'started' | 'progress' | 'result' | 'error',
  p: ToolUpdatedPayload,
): SessionUpdate[] {
  const meta = subagentMeta(p);
  switch (kind) {
    case 'scheduled': {
      // `input` is omitted when `model.streaming tool_call` already delivered it (§5.5.7).
      const input = p.inputOmitted === true ? undefined : p.input;
      if (!card.announced) {
        if (input !== undefined) {
          card.input = input;
          if (isRunInBackground(input) && card.terminal) card.backgroundLaunch = true;
        }
        const plan = input !== undefined && isTodoTool(card.toolName) ? todosToPlanEntries(asInput(input)['todos']) : undefined;
        return [announce(card, 'pending', meta), ...(plan === undefined ? [] : [{ sessionUpdate: 'plan' as const, entries: plan }])];
      }
      return input === undefined || card.input !== undefined ? [] : learnInput(card, input);
    }
    case 'started':
      return card.announced ? [cardUpdate(card, { status: 'in_progress' })] : [announce(card, 'in_progress', meta)];
    case 'progress':
      return [...ensureAnnounced(card, 'in_progress', meta), ...progressUpdate(card, p)];
    case 'result':
      return [...ensureAnnounced(card, 'in_progress', meta), ...resultUpdate(card, p.result, meta)];
    case 'error': {
      const message = p.error?.message ?? 'Tool failed';
      const exit = card.terminal ? terminalExitMeta(card.toolCallId, 1) : undefined;
      return [
        ...ensureAnnounced(card, 'in_progress', meta),
        cardUpdate(card, {
          status: 'failed',
          content: [...(card.terminal ? [terminalContent(card.toolCallId)] : []), textContent(message)],
          rawOutput: errorRawOutput(p.error ?? message),
          ...(exit === undefined ? {} : { _meta: exit }),
        }),
      ];
    }
    default:
      return assertNever(kind, 'tool step');
  }
}

/** New terminal output for a card: the unsent part of `text` and the `_meta` carrying it. */
export function terminalDelta(card: ToolCardState, text: string): Record<string, unknown> | undefined {
  const delta = unsentSuffix(card.terminalSent, text);
  if (delta.length === 0) return undefined;
  card.terminalSent = tail(card.terminalSent + delta);
  return terminalOutputMeta(card.toolCallId, delta, card.terminalSent);
}

function progressUpdate(card: ToolCardState, p: ToolUpdatedPayload): SessionUpdate[] {
  const text = p.stdoutTail ?? p.outputPreview;
  if (card.terminal) {
    const meta = text === undefined ? undefined : terminalDelta(card, text);
    if (meta === undefined) return card.status === 'in_progress' ? [] : [cardUpdate(card, { status: 'in_progress' })];
    return [cardUpdate(card, { status: 'in_progress', _meta: meta })];
  }
  if (text !== undefined && text.length > 0) return [cardUpdate(card, { status: 'in_progress', content: [textContent(text)] })];
  return card.status === 'in_progress' ? [] : [cardUpdate(card, { status: 'in_progress' })];
}

function resultUpdate(card: ToolCardState, result: unknown, meta: Record<string, unknown> | undefined): SessionUpdate[] {
  const text = resultText(result);
  const failed = resultFailed(result);
  // One rawOutput shape live and replayed (tool-output.ts); the live-only `display` goes to `_meta.zcode`.
  const rawOutput = resultRawOutput(result);
  const display = resultDisplay(result);
  const shown = display === undefined ? {} : { display };
  if (card.terminal) {
    const output = terminalDelta(card, text);
    if (card.backgroundLaunch && !failed) {
      // Background Bash: the launch card stays open for the task's lifecycle (APP-SERVER.md §14.7).
      return [
        cardUpdate(card, {
          status: 'in_progress',
          rawOutput,
          _meta: { ...output, zcode: { ...zc(output), ...shown, backgroundLaunch: true } },
        }),
      ];
    }
    return [
      cardUpdate(card, {
        status: failed ? 'failed' : 'completed',
        rawOutput,
        _meta: {
          ...output,
          ...(display === undefined ? {} : { zcode: { ...zc(output), ...shown } }),
          ...terminalExitMeta(card.toolCallId, failed ? 1 : 0),
        },
      }),
    ];
  }
  const diffs = card.kind === 'edit' ? diffContent(card.toolName, card.input) : [];
  const content = diffs.length > 0 && !failed ? diffs : text.length > 0 ? [...diffs, textContent(text)] : diffs;
  const cardMetaOut = display === undefined ? meta : { ...meta, zcode: { ...zc(meta), ...shown } };
  return [
    cardUpdate(card, {
      status: failed ? 'failed' : 'completed',
      rawOutput,
      ...(content.length > 0 ? { content } : {}),
      ...(cardMetaOut === undefined ? {} : { _meta: cardMetaOut }),
    }),
  ];
}

function zc(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const z = meta?.['zcode'];
  return z !== null && typeof z === 'object' ? (z as Record<string, unknown>) : {};
}

/** `permission.requested` (§5.5.8): observer event; at most (re)opens the card as pending. */
export function translatePermissionRequested(ctx: TranslationContext, p: EventPayload<'permission.requested'>): SessionUpdate[] {
  const card = getCard(ctx, p.toolCallId, p.toolName);
  if (!card.announced) {
    if (p.input !== undefined) card.input = p.input;
    return [announce(card, 'pending')];
  }
  return card.status === 'pending' ? [] : [cardUpdate(card, { status: 'pending' })];
}

/** `permission.resolved` (§5.5.8): a denial fails the card; an approval changes nothing visible. */
export function translatePermissionResolved(ctx: TranslationContext, p: EventPayload<'permission.resolved'>): SessionUpdate[] {
  if (p.decision !== 'deny') return [];
  const card = ctx.toolCards.get(p.toolCallId);
  if (card === undefined || !card.announced || card.status === 'completed' || card.status === 'failed') return [];
  return [cardUpdate(card, { status: 'failed', ...(p.reason ? { content: [textContent(p.reason)] } : {}) })];
}
