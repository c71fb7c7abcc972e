/**
 * The output so far of a session's background tasks, for late joiners and reloads
 * (docs/CLIENT-PROTOCOL.md "Terminal output of background tasks"). A background task streams
 * into its card after the launching turn ended, so neither the agent's history (its card holds
 * the launch result) nor the running turn's tail has it: the hub keeps the last
 * `taskOutputMaxChars` of each task (a longer output is cut at the front, at a line start, and
 * marked trimmed),
 * for at most `taskOutputsMax` tasks per session (the oldest is forgotten first).
 * `snapshot`/`restore` carry it across a hub restart (task-output-files.ts keeps it on disk).
 */
import type { SessionUpdate, ToolCallStatus } from '@agentclientprotocol/sdk';

export interface TaskOutputLimits {
  /** Characters kept per task (its tail). */
  maxChars: number;
  /** Tasks kept per session. */
  maxTasks: number;
}

/** One task's kept output, as `snapshot` gives it and `restore` takes it back. */
export interface KeptTask {
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

  /**
   * Notes one emitted update: a card that is a background task (`_meta.backgroundTask`) and its
   * `terminal_output`. True when it changed what is kept.
   */
  note(update: SessionUpdate): boolean {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return false;
    const meta = record(update._meta);
    const task = record(meta?.['backgroundTask']);
    let kept = this.kept.get(update.toolCallId);
    if (kept === undefined) {
      if (task === undefined || this.limits.maxTasks < 1) return false;
      kept = { toolCallId: update.toolCallId, output: '', trimmed: false, status: undefined, task };
      this.keep(kept);
    }
    if (task !== undefined) kept.task = task;
    if (update.status !== undefined && update.status !== null) kept.status = update.status;
    const data = record(meta?.['terminal_output'])?.['data'];
    // A background launch's one-line result ends its line (as the built-in app shows it): the
    // task's output starts below it, not glued to the task id.
    const launch = record(meta?.['zcode'])?.['backgroundLaunch'] === true;
    if (typeof data === 'string' && data.length > 0) this.append(kept, launch && !data.endsWith('\n') ? `${data}\n` : data);
    return true;
  }

  /** What is kept, oldest task first (copies: later output does not change them). */
  snapshot(): KeptTask[] {
    return [...this.kept.values()].map((k) => ({ ...k }));
  }

  /**
   * Takes back tasks a previous hub run kept (before anything of this run), within this run's
   * limits. A task still running then is not running now — the agent process that ran it ended
   * with that hub — so it comes back ended: `failed`, its task status `interrupted`.
   */
  restore(tasks: readonly KeptTask[]): void {
    if (this.limits.maxTasks < 1) return;
    for (const t of tasks) {
      const running = t.status === undefined || t.status === 'pending' || t.status === 'in_progress';
      const kept: KeptTask = {
        toolCallId: t.toolCallId,
        output: '',
        trimmed: t.trimmed,
        status: running ? 'failed' : t.status,
        task: running ? { ...t.task, status: 'interrupted' } : t.task,
      };
      this.append(kept, t.output);
      this.keep(kept);
    }
  }

  private keep(kept: KeptTask): void {
    this.kept.delete(kept.toolCallId);
    this.kept.set(kept.toolCallId, kept);
    while (this.kept.size > this.limits.maxTasks) {
      const oldest = this.kept.keys().next().value;
      if (oldest === undefined) break;
      this.kept.delete(oldest);
    }
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

  /** How many kept tasks run now: their card is open and their task says `running` (as the clients' task cards read it). */
  running(): number {
    let n = 0;
    for (const k of this.kept.values()) if ((k.status === 'pending' || k.status === 'in_progress') && k.task['status'] === 'running') n++;
    return n;
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
