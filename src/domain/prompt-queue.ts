/**
 * Per-session prompt queue (ARCHITECTURE.md §4.4): FIFO, never pre-empts the running turn. Pure
 * state — the hub does the I/O. A prompt is sent only when the child is `ready`, i.e. after
 * `state.updated {reason: prompt_completed|prompt_failed}` (APP-SERVER.md §11.6), and each
 * prompt settles at the end of *its own* turn (§5.7).
 */
import type { TraceContext } from '../trace-context.js';
import type { ErrorDetail } from '../acp/zcode-event-schema.js';
import type { ConnectionAuthor } from './author.js';
import type { Boundaries, PromptLife } from './prompt-life.js';
import type { ContentBlock, StopReason } from '@agentclientprotocol/sdk';

/** How a prompt ended, as the ACP `session/prompt` response carries it. */
export interface PromptResult {
  stopReason: StopReason;
  turnId?: string;
  usage?: unknown;
}

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

/** FIFO of prompts for one session plus the one that is running. */
export class PromptQueue {
  private readonly waiting: QueuedPrompt[] = [];
  private runningPrompt: QueuedPrompt | undefined;
  /** False between a send and the child's ready boundary (`prompt_completed` / `prompt_failed`). */
  private childReady = true;
  /** The child's ready boundaries so far: a send's answer and a busy refusal are judged by them. */
  private readonly seen: Boundaries = { count: 0, failed: false };
  /** The background-task turn running in the child (it holds no lock, APP-SERVER.md §4.8 rule 4). */
  private backgroundTurn: string | undefined;
  /** The last failed `turn.terminal` telemetry: the reason of a `prompt_failed` without turn events. */
  private terminalError: ErrorDetail | undefined;

  /** The prompt whose turn is running (or being sent). */
  get running(): QueuedPrompt | undefined {
    return this.runningPrompt;
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
    const ahead = this.waiting.length + (this.runningPrompt ? 1 : 0);
    this.waiting.push(prompt);
    return ahead;
  }

  /**
   * The next prompt to send, taken off the queue and marked running — only when nothing is
   * running and the child said it is ready. Returns undefined otherwise.
   */
  takeNext(): QueuedPrompt | undefined {
    if (this.runningPrompt || !this.childReady) return undefined;
    const next = this.waiting.shift();
    if (!next) return undefined;
    this.runningPrompt = next;
    this.childReady = false;
    return next;
  }

  /** The child refused with -32010 (busy): the prompt goes back to the head and waits for the boundary. */
  requeueHead(prompt: QueuedPrompt): void {
    if (this.runningPrompt === prompt) this.runningPrompt = undefined;
    this.waiting.unshift(prompt);
    this.childReady = false;
  }

  /** The send failed for another reason: the prompt leaves the queue (the caller rejects it). */
  dropRunning(prompt: QueuedPrompt): void {
    if (this.runningPrompt === prompt) this.runningPrompt = undefined;
    this.childReady = true;
  }

  /** The running prompt's turn ended: it leaves the queue. The next one waits for `markReady`. */
  finishRunning(): QueuedPrompt | undefined {
    const done = this.runningPrompt;
    this.runningPrompt = undefined;
    return done;
  }

  /** The child's ready boundary (`state.updated prompt_completed|prompt_failed`, or a fresh child). */
  markReady(): void {
    this.childReady = true;
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
    const all = [...(this.runningPrompt ? [this.runningPrompt] : []), ...this.waiting];
    this.runningPrompt = undefined;
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
