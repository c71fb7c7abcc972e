/**
 * Per-session prompt queue (ARCHITECTURE.md §4.4): FIFO, never pre-empts the running turn. Pure
 * state — the hub does the I/O. A prompt is sent only when the child is `ready`, i.e. after
 * `state.updated {reason: prompt_completed|prompt_failed}` (APP-SERVER.md §11.6), and each
 * prompt settles at the end of *its own* turn (§5.7).
 */
import type { TraceContext } from '../../trace-context.js';
import type { ErrorDetail } from '../../acp/zcode-event-schema.js';
import type { ConnectionAuthor } from '../people/author.js';
import type { Boundaries, PromptLife, PromptStep } from './prompt-life.js';
import type { ContentBlock, StopReason } from '@agentclientprotocol/sdk';

/** How a prompt ended, as the ACP `session/prompt` response carries it. */
export interface PromptResult {
  stopReason: StopReason;
  turnId?: string;
  usage?: unknown;
}

/** A `session/prompt` answer: how it ended, and how many prompts were ahead of it when it was queued. */
export type PromptAnswer = PromptResult & { queuedBehind: number };

/** One prompt waiting for, or running in, a turn. */
export interface QueuedPrompt {
  /** Hub id; also sent to the child as `inputId` so turn events can be matched (§4.8). */
  promptId: string;
  clientId: string;
  /** Who asked (turn_state `queue[]`, `promptedBy`). */
  by: ConnectionAuthor;
  /** First characters of the text, for the queue shown to every client. */
  preview: string;
  content: ContentBlock[];
  /** Where it is, from queued to ended, and its turn id once the child named it (prompt-life.ts). */
  readonly life: PromptLife;
  /** The W3C trace context of the request that asked (a queued prompt is sent in it later). */
  trace?: TraceContext;
  resolve: (result: PromptResult) => void;
  reject: (err: unknown) => void;
}

/** Characters of a prompt shown in `_zcode/turn_state.queue[].preview`. */
export const PROMPT_PREVIEW_CHARS = 120;

/**
 * FIFO of prompts for one session plus the one that is running. Which one runs is not kept
 * here: it is the prompt last taken, for as long as its own machine says it is live
 * (prompt-life.ts) — an event that ends it or sends it back to `queued` frees the slot.
 */
export class PromptQueue {
  private readonly waiting: QueuedPrompt[] = [];
  /** The prompt last taken off the queue (running while its life is live). */
  private taken: QueuedPrompt | undefined;
  /** False between a send and the child's ready boundary (`prompt_completed` / `prompt_failed`). */
  private childReady = true;
  /** The child's ready boundaries so far: a send's answer and a busy refusal are judged by them. */
  private readonly seen: Boundaries = { count: 0, failed: false };
  /** The background-task turn running in the child (it holds no lock, APP-SERVER.md §4.8 rule 4). */
  private backgroundTurn: string | undefined;
  /** The last failed `turn.terminal` telemetry: the reason of a `prompt_failed` without turn events. */
  private terminalError: ErrorDetail | undefined;

  /** The prompt whose turn is running (or being sent): admitted, sent, running or stopping. */
  get running(): QueuedPrompt | undefined {
    return this.taken?.life.live ? this.taken : undefined;
  }

  /** Prompts waiting behind the running one, in order. */
  get queued(): readonly QueuedPrompt[] {
    return this.waiting;
  }

  get ready(): boolean {
    return this.childReady;
  }

  /** The ready boundaries seen so far (a copy). */
  get boundaries(): Boundaries {
    return { ...this.seen };
  }

  /** One more ready boundary (`prompt_completed`, or `prompt_failed` when `failed`). */
  noteBoundary(failed: boolean): void {
    this.seen.count += 1;
    this.seen.failed = failed;
  }

  /** True while a background-task turn runs in the child. */
  get backgroundRunning(): boolean {
    return this.backgroundTurn !== undefined;
  }

  /** A background-task turn started (or, `ended`, ended) in the child. */
  noteBackgroundTurn(turnId: string, ended: boolean): void {
    if (!ended) this.backgroundTurn = turnId;
    else if (this.backgroundTurn === turnId) this.backgroundTurn = undefined;
  }

  /** A failed `turn.terminal` telemetry, kept for the `prompt_failed` that may follow. */
  noteTerminalFailure(error: ErrorDetail): void {
    this.terminalError = error;
  }

  /** The kept terminal failure, forgotten as it is taken. */
  takeTerminalFailure(): ErrorDetail | undefined {
    const e = this.terminalError;
    this.terminalError = undefined;
    return e;
  }

  /** Appends a prompt; returns how many prompts are ahead of it. */
  enqueue(prompt: QueuedPrompt): number {
    const ahead = this.waiting.length + (this.running ? 1 : 0);
    this.waiting.push(prompt);
    return ahead;
  }

  /**
   * The next prompt to send, taken off the queue and admitted (its machine's `admit` event, at
   * the boundaries seen so far) — only when nothing is running and the child said it is ready.
   * Returns undefined otherwise. It stops running when its machine ends it; the next one then
   * waits for `markReady`.
   */
  takeNext(): { prompt: QueuedPrompt; step: PromptStep } | undefined {
    if (this.running || !this.childReady) return undefined;
    const next = this.waiting.shift();
    if (!next) return undefined;
    this.taken = next;
    this.childReady = false;
    return { prompt: next, step: next.life.apply({ type: 'admit', boundary: this.seen.count }) };
  }

  /** Refused -32010 (busy; its machine is `queued` again): back to the head, waiting for the boundary. */
  requeueHead(prompt: QueuedPrompt): void {
    if (this.taken === prompt) this.taken = undefined;
    this.waiting.unshift(prompt);
    this.childReady = false;
  }

  /** The send failed for another reason (its machine ended it): the child is ready for the next one. */
  dropRunning(prompt: QueuedPrompt): void {
    if (this.taken === prompt) this.taken = undefined;
    this.childReady = true;
  }

  /** The child's ready boundary (`state.updated prompt_completed|prompt_failed`, or a fresh child). */
  markReady(): void {
    this.childReady = true;
  }

  /** Removes one prompt still waiting (not running); false when it is not waiting (sent, or gone). */
  remove(prompt: QueuedPrompt): boolean {
    const i = this.waiting.indexOf(prompt);
    if (i === -1) return false;
    this.waiting.splice(i, 1);
    return true;
  }

  /** Removes and returns every queued (not running) prompt of one client — `session/cancel` (§4.4). */
  removeClient(clientId: string): QueuedPrompt[] {
    const removed: QueuedPrompt[] = [];
    for (let i = this.waiting.length - 1; i >= 0; i -= 1) {
      const p = this.waiting[i];
      if (p && p.clientId === clientId) {
        removed.unshift(p);
        this.waiting.splice(i, 1);
      }
    }
    return removed;
  }

  /** Removes everything (session closed for good); the caller settles them. */
  drain(): QueuedPrompt[] {
    const running = this.running;
    const all = [...(running ? [running] : []), ...this.waiting];
    this.taken = undefined;
    this.waiting.length = 0;
    return all;
  }
}

/** Text preview of a prompt for the queue display. */
export function promptPreview(content: readonly ContentBlock[]): string {
  const text = content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? b.uri : `[${b.type}]`))
    .join(' ')
    .trim();
  return text.length > PROMPT_PREVIEW_CHARS ? `${text.slice(0, PROMPT_PREVIEW_CHARS - 1)}…` : text;
}
