/**
 * The turn state machine of one session (ARCHITECTURE.md §4.4). Every change of the session's turn
 * state goes through one of the named transitions below, and each transition publishes the
 * change itself (the session's `_zcode/turn_state`), so no caller can change the state and
 * forget to tell the clients, and no caller can tell them twice.
 *
 *   idle ──start──▶ running ──awaitInput──▶ awaiting_input ──inputSettled──▶ running | idle
 *     ▲               │  ▲
 *     │               │  └───────────── (child's turn id bound by start) ──────────┐
 *     └──end|fail|interrupt◀── running | awaiting_input | stopping ◀──requestStop──┘
 *
 * A prompt start() handed over that did not become a turn (sendUndone) goes back to the child's
 * own turn that was running before it, or to idle.
 */

import type { ConnectionAuthor } from '../people/author.js';
import type { TurnEnded } from '../../acp/turn-ended.js';

export type TurnState = 'idle' | 'running' | 'awaiting_input' | 'stopping';

/** Who a prompt (and so a turn) came from: the connection and its verified author. */
export type Author = ConnectionAuthor;

/** What a failed or interrupted turn tells everyone (journaled, src/acp/turn-ended.ts). */
export interface AbnormalEnd {
  error: TurnEnded['error'];
  promptId?: string;
  turnId?: string;
}

/**
 * The part of the journal the agent's history does not hold yet (ARCHITECTURE.md §4.2): from the
 * first update of the running turn — or of a turn cut off by the agent's exit, whose answer the
 * agent never stored — to now. A joiner gets history before `startedAt`, then these journal
 * entries, so it sees everything said so far.
 */
export interface LiveTail {
  /** Journal seq of the tail's first update. */
  startSeq: number;
  /** Wall-clock ms when it began: history messages created from then on are in the tail. */
  startedAt: number;
  /** Kept after the turn (it was interrupted): only the journal has what was said. */
  kept: boolean;
}

/** What the session's running-turn record on disk hears of the tail (turn-record.ts). */
export interface TailHooks {
  opened(startedAt: number): void;
  closed(): void;
  /** The tail's turn runs (true) or ended (false). */
  running(active: boolean): void;
}

/** One session's turn: the state, the child's turn id and who asked. */
export class Turn {
  private current: TurnState = 'idle';
  private childTurnId: string | undefined;
  private author: Author | undefined;
  private liveTail: LiveTail | undefined;
  /** The child's own turn that was running when start() handed a prompt over (it holds the lock). */
  private displaced: { turnId: string; by: Author | undefined } | undefined;

  /**
   * @param publish tells the session's clients the state (wired by HubCore).
   * @param announce journals the marker of a failed or interrupted turn for every client.
   * @param tailHooks keeps the tail on disk across a hub restart (optional).
   * @param settled runs after every end — completed, cancelled, failed or interrupted — once the
   *   turn is idle; its messages have all been emitted by then (the session list's preview is written).
   * @param toolsEnded runs as every turn ends, before its marker: `close` when the turn ended other
   *   than normally (failed, interrupted, stopped), so the tool calls it left open are closed for
   *   everyone (src/acp/open-tool-calls.ts); otherwise they are the agent's and only forgotten.
   */
  constructor(
    private readonly publish: () => void,
    private readonly announce: (ended: TurnEnded) => void,
    private readonly tailHooks?: TailHooks,
    private readonly settled: () => void = () => undefined,
    private readonly toolsEnded: (close: boolean) => void = () => undefined,
  ) {}

  get state(): TurnState {
    return this.current;
  }

  /** The child's id of the running turn, once `turn.started` named it. */
  get turnId(): string | undefined {
    return this.childTurnId;
  }

  /** The client whose prompt started the running turn. */
  get by(): Author | undefined {
    return this.author;
  }

  /** True unless idle. */
  get active(): boolean {
    return this.current !== 'idle';
  }

  /** The journal range a joiner must get from the journal rather than from history. */
  get tail(): LiveTail | undefined {
    return this.liveTail;
  }

  /** A turn's first update is about to be journaled at `nextSeq` (an earlier open tail keeps its start). */
  openTail(nextSeq: number): void {
    if (this.liveTail !== undefined) return;
    this.liveTail = { startSeq: nextSeq, startedAt: Date.now(), kept: false };
    this.tailHooks?.opened(this.liveTail.startedAt);
  }

  /** A tail restored from disk after a hub restart (already journaled again): kept, like an interrupted one. */
  restoreTail(tail: LiveTail): void {
    this.liveTail = { ...tail, kept: true };
  }

  /** A prompt of `by` was handed to the child: running, its turn id not known yet. */
  start(by: Author): void {
    // The child refuses a send while its own turn runs: that turn is what runs again then (sendUndone).
    this.displaced = this.childTurnId === undefined ? undefined : { turnId: this.childTurnId, by: this.author };
    this.current = 'running';
    this.author = by;
    this.childTurnId = undefined;
    this.tailHooks?.running(true);
    this.publish();
  }

  /**
   * The child named its running turn (`turn.started`, or a snapshot's `activeTurnId`): bind the
   * id; an idle session starts running (a turn nobody here asked for, e.g. after a restart).
   * `quiet` binds without publishing (a snapshot folded while opening, before anyone attached).
   */
  bind(turnId: string, quiet = false): void {
    this.displaced = undefined;
    this.childTurnId = turnId;
    if (this.current === 'idle') {
      this.current = 'running';
      this.tailHooks?.running(true);
    }
    if (!quiet) this.publish();
  }

  /**
   * The prompt start() handed over did not become a turn (refused, or its send failed): a turn
   * bound since runs on; else the child's own turn that was running before it (its tail still
   * open, a cancel must still stop it); else idle.
   */
  sendUndone(): void {
    const back = this.displaced;
    this.displaced = undefined;
    if (this.childTurnId === undefined && back !== undefined) {
      this.childTurnId = back.turnId;
      this.author = back.by;
    }
    if (this.childTurnId === undefined) this.end();
    else this.publish();
  }

  /** An interaction is pending: the turn waits for an answer. */
  awaitInput(): void {
    if (this.current === 'running' || this.current === 'idle') this.current = 'awaiting_input';
    this.publish();
  }

  /** An interaction was settled; `stillPending` are the session's other pending ones. */
  inputSettled(stillPending: number, promptRunning: boolean): void {
    if (this.current === 'awaiting_input' && stillPending === 0)
      this.current = promptRunning || this.childTurnId !== undefined ? 'running' : 'idle';
    this.publish();
  }

  /** `session/cancel`: stopping while something runs; returns whether there was anything to stop. */
  requestStop(promptRunning: boolean): boolean {
    const busy = promptRunning || this.current !== 'idle';
    if (busy) this.current = 'stopping';
    this.publish();
    return busy;
  }

  /** The turn ended (completed, cancelled, or a send that never became a turn): history has it now. */
  end(): void {
    this.toolsEnded(this.current === 'stopping');
    this.closeTail();
    this.reset();
    this.settled();
  }

  /** The turn ended with an error of the agent: everyone is told (journaled), then idle. */
  fail(end: AbnormalEnd): void {
    this.toolsEnded(true);
    this.announce(this.ended('failed', end));
    this.closeTail();
    this.reset();
    this.settled();
  }

  /**
   * The turn was cut off (the agent's process went away): everyone is told, then idle. The
   * agent never stored what it had said, so the tail stays: joiners still get it from the journal.
   */
  interrupt(end: AbnormalEnd): void {
    this.toolsEnded(true);
    this.announce(this.ended('interrupted', end));
    if (this.liveTail) this.liveTail.kept = true;
    this.reset();
    this.settled();
  }

  private closeTail(): void {
    if (this.liveTail && !this.liveTail.kept) {
      this.liveTail = undefined;
      this.tailHooks?.closed();
    }
  }

  /** The journal no longer holds the tail's start (trimmed): it is history's job now. */
  dropTail(): void {
    if (this.liveTail === undefined) return;
    this.liveTail = undefined;
    this.tailHooks?.closed();
  }

  /** Publishes unchanged state (the queue it carries changed). */
  changed(): void {
    this.publish();
  }

  private ended(outcome: TurnEnded['outcome'], end: AbnormalEnd): TurnEnded {
    const turnId = end.turnId ?? this.childTurnId;
    return {
      outcome,
      ...(turnId === undefined ? {} : { turnId }),
      ...(end.promptId === undefined ? {} : { promptId: end.promptId }),
      ...(this.author === undefined ? {} : { promptedBy: this.author }),
      error: end.error,
    };
  }

  private reset(): void {
    if (this.current !== 'idle') this.tailHooks?.running(false);
    this.current = 'idle';
    this.childTurnId = undefined;
    this.author = undefined;
    this.displaced = undefined;
    this.publish();
  }
}
