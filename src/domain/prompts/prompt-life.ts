/**
 * One prompt's life, as a state machine with one table (ARCHITECTURE.md §4.4). Every fact the
 * hub learns about a prompt — taken off the queue, its `session/send` answered or refused, its
 * turn started or ended, a ready boundary, a stop, a stop never confirmed, the child gone — is
 * an event of this machine, and the table below says what it means in each phase. Pure: no
 * I/O, no clock; the prompt flow (prompt-flow.ts) does what a step's `effect` says.
 *
 *   queued ──admit──▶ admitted ──accepted──▶ sent ──turn_started──▶ running
 *                        └──────────────turn_started──────────────────▲
 *   admitted | sent | running ──stop──▶ stopping
 *   admitted | sent | running | stopping ──busy (-32010)──▶ queued
 *   admitted | sent | running | stopping ──turn_ended | ready | accepted (a boundary passed)
 *       | stop_unconfirmed | send_failed | lost | close──▶ ended(reason)
 *   queued ──withdraw | lost | close──▶ ended(reason)
 *
 * `ended` is final: whatever the child says later about that prompt changes nothing (a stop
 * asked before the send was answered is still sent when the answer comes, `send_stop`).
 *
 * The child's quirks (APP-SERVER.md §4.8, §11 item 7) are events too: a `prompt_completed`
 * that only means the child queued the input behind a background turn waits for the prompt's
 * own turn (`waits_own_turn`); a ready boundary that passed while the send was in flight ends
 * the prompt when the answer comes; a stop the child never confirms ends it `cancelled` by
 * `stop_unconfirmed` (the watchdog's event).
 */

/** Where one prompt is. `admitted`: taken off the queue and written, not answered yet. */
export type PromptPhase = 'queued' | 'admitted' | 'sent' | 'running' | 'stopping' | 'ended';

/** Why a prompt ended. */
export type PromptEndReason =
  /** Its turn (or its ready boundary) ended it normally. */
  | 'completed'
  /** The agent reported its turn failed (`turn.failed`, `prompt_failed`). */
  | 'failed'
  /** Cancelled: withdrawn from the queue by its client, or a stop the child never confirmed. */
  | 'cancelled'
  /** `session/send` failed for a reason other than busy or the child's exit. */
  | 'send_failed'
  /** The agent's process went away. */
  | 'lost'
  /** The hub is closing. */
  | 'closed';

/** The child's ready boundaries so far (per session, PromptQueue counts them). */
export interface Boundaries {
  count: number;
  /** The last one was `prompt_failed`. */
  failed: boolean;
}

/** What can happen to a prompt. */
export type PromptEvent =
  /** The queue pump took it: it is written to the child now (`boundary` = boundaries seen). */
  | { type: 'admit'; boundary: number }
  /** `state.updated prompt_started`: the child took a prompt in flight (before its ACK). */
  | { type: 'prompt_started'; boundary: number }
  /** `session/send` was answered. */
  | { type: 'accepted'; boundaries: Boundaries; backgroundRunning: boolean }
  /** `session/send` was refused -32010 (a prompt is already running). */
  | { type: 'busy'; boundary: number }
  /** `session/send` failed otherwise; `gone` = cut off by the child's exit (`lost` follows). */
  | { type: 'send_failed'; gone: boolean }
  /** `turn.steerQueued` for input `inputId`. */
  | { type: 'steer_queued'; inputId: string | undefined }
  /** A non-background `turn.started`. */
  | { type: 'turn_started'; turnId: string; inputId: string | undefined }
  /** A non-background `turn.completed` / `turn.failed`. */
  | { type: 'turn_ended'; turnId: string; inputId: string | undefined; outcome: 'completed' | 'failed' }
  /** `state.updated prompt_completed|prompt_failed`: the child's ready boundary. */
  | { type: 'ready'; failed: boolean; backgroundRunning: boolean }
  /** `session/cancel` while it is the session's running prompt. */
  | { type: 'stop' }
  /** The stop watchdog: the child did not end the stopped turn in time. */
  | { type: 'stop_unconfirmed' }
  /** `session/cancel` of its own client while it waits in the queue. */
  | { type: 'withdraw' }
  /** The agent's process went away. */
  | { type: 'lost' }
  /** The hub is closing. */
  | { type: 'close' };

export type PromptEventType = PromptEvent['type'];

/** What the prompt flow must do after a step (besides answering an ended prompt). */
export type PromptEffect =
  /** First admission: echo the prompt's text to the other clients. */
  | 'echo'
  /** The send was answered after a stop was asked: stop its turn now. */
  | 'send_stop'
  /** Refused busy after a boundary passed: the queue may move at once. */
  | 'boundary_passed'
  /** Refused busy: wait for the child's boundary (busy-retry.ts). */
  | 'await_boundary'
  /** A `prompt_completed` that is not this prompt's end: the lock is free, its own turn is still to run. */
  | 'waits_own_turn';

/** The outcome of one event. */
export interface PromptStep {
  readonly from: PromptPhase;
  readonly to: PromptPhase;
  /** False when the event means nothing in `from`: nothing changed. */
  readonly applied: boolean;
  readonly effect?: PromptEffect;
}

/** What the machine remembers besides the phase. */
interface Memory {
  readonly promptId: string;
  /** Boundaries seen when the send was written (or when the child took it, `prompt_started`). */
  boundaryAtSend: number;
  accepted: boolean;
  echoed: boolean;
  /** The child queued the input behind a turn that holds no lock (§4.8 rule 4). */
  queuedInChild: boolean;
  /** Stopped before the send was answered: its turn is stopped as soon as it is taken. */
  stopOnAccept: boolean;
  stopping: boolean;
  turnId: string | undefined;
  reason: PromptEndReason | undefined;
}

/** A row's answer: a phase to go to (`live` = the one the memory says), `ignore`, with an effect. */
type Outcome = { to: PromptPhase | 'live'; effect?: PromptEffect; reason?: PromptEndReason } | 'ignore';
type Rule<E extends PromptEventType> = (m: Memory, event: Extract<PromptEvent, { type: E }>) => Outcome;
type Row = { readonly [E in PromptEventType]: Rule<E> };

const ignore = (): Outcome => 'ignore';
const end = (reason: PromptEndReason): Outcome => ({ to: 'ended', reason });

/** The child answered `prompt_completed` early for an input it queued, not yet for its own turn. */
function waitsForOwnTurn(m: Memory, backgroundRunning: boolean): boolean {
  if (m.turnId !== undefined) return false;
  if (!m.queuedInChild && backgroundRunning) m.queuedInChild = true;
  return m.queuedInChild;
}

/** Waiting in the FIFO. */
const QUEUED: Row = {
  admit: (m, e) => {
    m.boundaryAtSend = e.boundary;
    m.stopping = false;
    if (m.echoed) return { to: 'live' };
    m.echoed = true;
    return { to: 'live', effect: 'echo' };
  },
  prompt_started: ignore,
  accepted: ignore,
  busy: ignore,
  send_failed: ignore,
  steer_queued: ignore,
  turn_started: ignore,
  turn_ended: ignore,
  ready: ignore,
  stop: ignore,
  stop_unconfirmed: ignore,
  withdraw: () => end('cancelled'),
  lost: () => end('lost'),
  close: () => end('closed'),
};

/** The session's running prompt (admitted, sent, running or stopping: the memory says which). */
const LIVE: Row = {
  admit: ignore,
  prompt_started: (m, e) => {
    // Boundaries before the child took it belong to earlier turns (prompt-flow.ts onPromptStarted).
    if (m.accepted) return 'ignore';
    m.boundaryAtSend = e.boundary;
    return { to: 'live' };
  },
  accepted: (m, e) => {
    m.accepted = true;
    const effect = m.stopOnAccept ? ('send_stop' as const) : undefined;
    const withEffect = effect === undefined ? {} : { effect };
    if (!e.boundaries.failed && waitsForOwnTurn(m, e.backgroundRunning)) return { to: 'live', ...withEffect };
    // The turn may already be over: a boundary passed while the answer was in flight (§4.8 #3).
    if (m.turnId === undefined && e.boundaries.count !== m.boundaryAtSend)
      return { to: 'ended', reason: e.boundaries.failed ? 'failed' : 'completed', ...withEffect };
    return { to: 'live', ...withEffect };
  },
  busy: (m, e) => {
    m.stopping = false;
    return { to: 'queued', effect: e.boundary !== m.boundaryAtSend ? 'boundary_passed' : 'await_boundary' };
  },
  send_failed: (_m, e) => (e.gone ? 'ignore' : end('send_failed')),
  steer_queued: (m, e) => {
    if (e.inputId !== m.promptId) return 'ignore';
    m.queuedInChild = true;
    return { to: 'live' };
  },
  turn_started: (m, e) => {
    if (m.turnId !== undefined || (e.inputId !== undefined && e.inputId !== m.promptId)) return 'ignore';
    m.turnId = e.turnId;
    return { to: 'live' };
  },
  turn_ended: (m, e) => {
    if (e.inputId !== m.promptId && (m.turnId === undefined || e.turnId !== m.turnId)) return 'ignore';
    return end(e.outcome === 'failed' ? 'failed' : 'completed');
  },
  ready: (m, e) => {
    if (!e.failed && waitsForOwnTurn(m, e.backgroundRunning)) return { to: 'live', effect: 'waits_own_turn' };
    // Ends a prompt that never produced turn events (§4.8 #3) or whose turn.* was missed.
    if (m.accepted || m.turnId !== undefined) return end(e.failed ? 'failed' : 'completed');
    return 'ignore';
  },
  stop: (m) => {
    m.stopping = true;
    if (!m.accepted) m.stopOnAccept = true;
    return { to: 'live' };
  },
  stop_unconfirmed: () => end('cancelled'),
  withdraw: ignore,
  lost: () => end('lost'),
  close: () => end('closed'),
};

/** Final. Only a late send answer still matters: the stop asked before it goes out. */
const ENDED: Row = {
  admit: ignore,
  prompt_started: ignore,
  accepted: (m) => (m.stopOnAccept ? { to: 'ended', effect: 'send_stop' } : 'ignore'),
  busy: ignore,
  send_failed: ignore,
  steer_queued: ignore,
  turn_started: ignore,
  turn_ended: ignore,
  ready: ignore,
  stop: ignore,
  stop_unconfirmed: ignore,
  withdraw: ignore,
  lost: ignore,
  close: ignore,
};

/** The table: every event in every phase. */
export const PROMPT_TABLE: { readonly [P in PromptPhase]: Row } = {
  queued: QUEUED,
  admitted: LIVE,
  sent: LIVE,
  running: LIVE,
  stopping: LIVE,
  ended: ENDED,
};

/** Every event type, in table order (for the exhaustive tests). */
export const PROMPT_EVENT_TYPES = Object.keys(QUEUED) as PromptEventType[];

/** The life of one prompt. */
export class PromptLife {
  private current: PromptPhase = 'queued';
  private readonly m: Memory;

  constructor(promptId: string) {
    this.m = {
      promptId,
      boundaryAtSend: 0,
      accepted: false,
      echoed: false,
      queuedInChild: false,
      stopOnAccept: false,
      stopping: false,
      turnId: undefined,
      reason: undefined,
    };
  }

  get phase(): PromptPhase {
    return this.current;
  }

  /** True while it is the session's running prompt (admitted, sent, running or stopping). */
  get live(): boolean {
    return this.current !== 'queued' && this.current !== 'ended';
  }

  /** Why it ended (undefined before). */
  get reason(): PromptEndReason | undefined {
    return this.m.reason;
  }

  /** The child's id of its turn, once `turn.started` named it. */
  get turnId(): string | undefined {
    return this.m.turnId;
  }

  /** The child answered its `session/send`. */
  get accepted(): boolean {
    return this.m.accepted;
  }

  /** Applies one event (see the table). */
  apply(event: PromptEvent): PromptStep {
    const from = this.current;
    const rule = PROMPT_TABLE[from][event.type] as (m: Memory, e: PromptEvent) => Outcome;
    const out = rule(this.m, event);
    if (out === 'ignore') return { from, to: from, applied: false };
    if (out.reason !== undefined) this.m.reason = out.reason;
    this.current = out.to === 'live' ? this.livePhase() : out.to;
    return { from, to: this.current, applied: true, ...(out.effect === undefined ? {} : { effect: out.effect }) };
  }

  private livePhase(): PromptPhase {
    if (this.m.stopping) return 'stopping';
    if (this.m.turnId !== undefined) return 'running';
    return this.m.accepted ? 'sent' : 'admitted';
  }
}
