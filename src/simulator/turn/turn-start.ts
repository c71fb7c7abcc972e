import type { ModelSelection } from '../schemas/common.js';
import { newId, type ActiveTurn, type SessionRuntime, type TurnOrigin } from '../session-runtime.js';
import type { SimulatorCore } from '../simulator-core.js';
import type { Behaviour } from '../scenarios/select.js';
import { publishTitleFrame, scheduleGeneratedTitle } from '../v4-conversation.js';
import { TurnContext } from './turn-context.js';

/** What starts a turn (§4.8, §4.13, §5.5.1, §7.3). */
export interface TurnInput {
  text: string;
  origin: TurnOrigin;
  kind?: 'regular' | 'compact';
  /** Legacy lock turn (send/compact/goal): releases the -32010 lock, then writes `state.updated` (§4.8). */
  lock?: { success: string; cancelled: string; failed: string };
  inputId?: string;
  queryId?: string;
  inputSource?: string;
  inputVisibility?: 'user-visible' | 'model-only';
  behaviour?: Behaviour;
  /** The input was queued behind a running turn: `turn.steerDrained` when it starts (§5.5.2). */
  drained?: { pendingInputId: string; targetTurnId: string };
  /** Model resolution failed after the ACK: no turn events, only `prompt_failed` (§4.8 rule 3). */
  rejectBeforeStart?: string;
  /** Called once the turn has an id (e.g. to answer v4 with it). */
  onStart?: (turn: ActiveTurn) => void;
}

/** What the end of a turn needs from its start: the context, the user message it answers, when it began and on which model. */
export interface TurnOpening {
  ctx: TurnContext;
  userMessageId: string;
  started: number;
  selection: ModelSelection | undefined;
}

/**
 * The start phase (§5.5.1): the turn becomes the session's running one, `turn.started` and the
 * user message are written, a first input names an untitled session, and the session is saved.
 */
export function openTurn(sim: SimulatorCore, rt: SessionRuntime, input: TurnInput): TurnOpening {
  const turn = activateTurn(rt, input);
  const ctx = new TurnContext(sim, rt, turn, input.text, input.inputId);
  const opening: TurnOpening = { ctx, userMessageId: newId('msg'), started: Date.now(), selection: rt.currentSelection() };
  announceStart(opening, input);
  recordUserMessage(opening, input);
  ctx.emit('message.upserted', { content: input.text });
  if (rt.info.title === '' && input.inputVisibility !== 'model-only' && input.kind !== 'compact') setFirstTitle(opening, input.text);
  const sel = opening.selection;
  ctx.emit('session.updated', { messageCount: rt.messages.length, providerId: sel?.providerId, modelId: sel?.modelId, iteration: 1 });
  rt.persist();
  return opening;
}

/** The turn gets its ids and becomes the session's active one; a legacy stop asked before it started stops it at once. */
function activateTurn(rt: SessionRuntime, input: TurnInput): ActiveTurn {
  const turn: ActiveTurn = {
    turnId: newId('turn'),
    origin: input.origin,
    kind: input.kind ?? 'regular',
    abort: new AbortController(),
    foregroundExecutionId: newId('fx'),
    steerInbox: [],
  };
  rt.activeTurn = turn;
  if (rt.stopRequested && input.origin === 'legacy') turn.abort.abort();
  rt.stopRequested = false;
  rt.currentTurnId = turn.turnId;
  rt.info.status = 'running';
  input.onStart?.(turn);
  return turn;
}

/** `turn.steerDrained` for an input that waited in the queue, then `turn.started` (§5.5.1, §5.5.2). */
function announceStart({ ctx, userMessageId, started }: TurnOpening, input: TurnInput): void {
  const rt = ctx.rt;
  if (input.drained) {
    ctx.emit('turn.steerDrained', {
      pendingInputIds: [input.drained.pendingInputId],
      targetTurnId: input.drained.targetTurnId,
      injectedMessageIds: [userMessageId],
    });
  }
  ctx.emit('turn.started', {
    turnNumber: rt.turnCount + 1,
    input: input.text,
    executionStartedAt: started,
    messageId: userMessageId,
    foregroundExecutionId: ctx.turn.foregroundExecutionId,
    ...(input.inputId ? { inputId: input.inputId } : {}),
    ...(input.queryId ? { queryId: input.queryId } : {}),
    ...(input.inputSource ? { inputSource: input.inputSource } : {}),
    ...(input.inputVisibility ? { inputVisibility: input.inputVisibility } : {}),
  });
  rt.operationEvent('turn-started', { turnId: ctx.turnId });
}

/** The user message joins the history; an input only the model sees is marked synthetic. */
function recordUserMessage({ ctx, userMessageId, started, selection }: TurnOpening, input: TurnInput): void {
  const rt = ctx.rt;
  const synthetic = input.inputVisibility === 'model-only';
  rt.messages.push({
    info: {
      messageId: userMessageId,
      sessionId: rt.sessionId,
      role: 'user',
      time: { created: started },
      agent: rt.info.mode,
      ...(selection ? { model: selection } : {}),
      ...(synthetic ? { synthetic: true, visibility: 'model-only', source: input.inputSource } : {}),
    },
    parts: [
      {
        partId: newId('prt'),
        sessionId: rt.sessionId,
        messageId: userMessageId,
        type: 'text',
        text: input.text,
        ...(synthetic ? { synthetic: true } : {}),
      },
    ],
  });
}

/** An untitled session is named after the first line of its first input. */
function setFirstTitle({ ctx, userMessageId }: TurnOpening, text: string): void {
  const { sim, rt } = ctx;
  const title = text.trim().split('\n')[0]?.slice(0, 60) || 'New session';
  rt.info.title = title;
  rt.info.titleSource = 'first_input';
  // Newer CLIs announce titles only in v4 frames, and generate a better one later (APP-SERVER.md §14.4).
  if (sim.options.v4Titles) scheduleGeneratedTitle(sim, rt, text);
  else ctx.emit('session.titleUpdated', { messageID: userMessageId, previousTitle: '', source: 'first_input', title });
  publishTitleFrame(sim, rt);
}
