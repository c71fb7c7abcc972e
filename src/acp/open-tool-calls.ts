/**
 * The tool calls a turn announced and the agent has not finished. When a turn ends other than
 * normally — the agent failed it, its process went away, the hub restarted under it, a stop cut
 * it — nothing will ever finish them, so the hub closes each with a `tool_call_update` of status
 * `failed` (ACP's word for a tool call that did not complete), journaled before the turn's end
 * marker: every client, live or replaying, then shows none of them pending. A background task
 * (`_meta.backgroundTask`) is left out: it outlives its turn, and task-outputs.ts ends it. Pure.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { LIMITS } from '../limits.js';

/** The message a closed tool call carries (`_meta.zcode.unfinished`). */
export const UNFINISHED_TOOL_MESSAGE = 'The turn ended before this tool call finished; it did not run to the end.';

const finished = (status: unknown): boolean => status === 'completed' || status === 'failed';

const isTask = (update: SessionUpdate): boolean => {
  const meta = update._meta;
  return typeof meta === 'object' && meta !== null && 'backgroundTask' in meta;
};

/**
 * One session's (or one replayed turn's) unfinished tool calls, in the order they were announced.
 * At most `max` (`LIMITS.openToolCallsMax`): a newer one past it forgets the oldest, which the hub
 * then can not close — it stays as the agent left it until the agent finishes it.
 */
export class OpenToolCalls {
  private readonly open = new Set<string>();

  constructor(private readonly max: number = LIMITS.openToolCallsMax) {}

  /** Notes one update (any kind; only tool calls count). */
  note(update: SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    const id = update.toolCallId;
    if (finished(update.status) || isTask(update)) this.open.delete(id);
    else if (update.sessionUpdate === 'tool_call' && !this.open.has(id)) {
      if (this.open.size >= this.max) this.forgetOldest();
      this.open.add(id);
    }
  }

  private forgetOldest(): void {
    const oldest = this.open.values().next();
    if (oldest.done !== true) this.open.delete(oldest.value);
  }

  /** How many are open. */
  get size(): number {
    return this.open.size;
  }

  /** Forgets them all (the turn ended normally: what is still open is the agent's to finish). */
  clear(): void {
    this.open.clear();
  }

  /** The updates that close every open one, oldest first; none is open afterwards. */
  closeAll(): SessionUpdate[] {
    const out: SessionUpdate[] = [...this.open].map((toolCallId) => ({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'failed',
      _meta: { zcode: { unfinished: { message: UNFINISHED_TOOL_MESSAGE } } },
    }));
    this.open.clear();
    return out;
  }

  /** A turn's end: the updates that close what it left open when `close` (it ended other than normally), else none — the agent finishes them. */
  end(close: boolean): SessionUpdate[] {
    if (close) return this.closeAll();
    this.clear();
    return [];
  }
}
