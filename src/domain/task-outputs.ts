/**
 * The output so far of a session's background tasks, for late joiners and reloads
 * (docs/CLIENT-PROTOCOL.md "Terminal output of background tasks"). A background task streams
 * into its card after the launching turn ended, so neither the agent's history (its card holds
 * the launch result) nor the running turn's tail has it: the hub keeps the last
 * `taskOutputMaxChars` of each task (a longer output is cut at the front, at a line start, and
 * marked trimmed),
 * for at most `taskOutputsMax` tasks per session (the oldest is forgotten first).
 */
import type { SessionUpdate, ToolCallStatus } from '@agentclientprotocol/sdk';

export interface TaskOutputLimits {
  /** Characters kept per task (its tail). */
  maxChars: number;
  /** Tasks kept per session. */
  maxTasks: number;
}

interface KeptTask {
  toolCallId: string;
  output: string;
  trimmed: boolean;
  status: ToolCallStatus | undefined;
  task: Record<string, unknown>;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Bounded output of one session's background tasks, fed by every update the hub emits. */
export class TaskOutputs {
  private readonly kept = new Map<string, KeptTask>();

  constructor(private readonly limits: TaskOutputLimits) {}

  /** Notes one emitted update: a card that is a background task (`_meta.backgroundTask`) and its `terminal_output`. */
  note(update: SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    const meta = record(update._meta);
    const task = record(meta?.['backgroundTask']);
    let kept = this.kept.get(update.toolCallId);
    if (kept === undefined) {
      if (task === undefined || this.limits.maxTasks < 1) return;
      kept = { toolCallId: update.toolCallId, output: '', trimmed: false, status: undefined, task };
      this.kept.set(update.toolCallId, kept);
      while (this.kept.size > this.limits.maxTasks) {
        const oldest = this.kept.keys().next().value;
        if (oldest === undefined) break;
        this.kept.delete(oldest);
      }
    }
    if (task !== undefined) kept.task = task;
    if (update.status !== undefined && update.status !== null) kept.status = update.status;
    const data = record(meta?.['terminal_output'])?.['data'];
    if (typeof data === 'string' && data.length > 0) this.append(kept, data);
  }

  private append(kept: KeptTask, data: string): void {
    const next = kept.output + data;
    const max = Math.max(0, this.limits.maxChars);
    if (next.length > max) {
      const cut = next.slice(next.length - max);
      // Start at a line: a cut inside an escape sequence would show its rest as text.
      const line = cut.indexOf('\n');
      kept.output = line >= 0 && line < cut.length - 1 ? cut.slice(line + 1) : cut;
      kept.trimmed = true;
    } else {
      kept.output = next;
    }
  }

  /** Number of tasks kept. */
  get size(): number {
    return this.kept.size;
  }

  /**
   * One `tool_call_update` per kept task, oldest first: its status, its task facts and its output
   * so far as `_meta.zcode.outputText` (the whole text, replacing what the client shows), with
   * `outputTrimmed: true` when earlier output was cut. Sent after a replay rebuilt from history,
   * for the cards `shown` says that replay (or history page) holds: a card the client has not
   * been sent would appear out of place.
   */
  replayUpdates(shown: (toolCallId: string) => boolean = () => true): SessionUpdate[] {
    return [...this.kept.values()]
      .filter((k) => shown(k.toolCallId))
      .map((k) => ({
        sessionUpdate: 'tool_call_update',
        toolCallId: k.toolCallId,
        ...(k.status === undefined ? {} : { status: k.status }),
        _meta: { zcode: { outputText: k.output, ...(k.trimmed ? { outputTrimmed: true } : {}) }, backgroundTask: k.task },
      }));
  }
}
