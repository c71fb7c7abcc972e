import type { EventType, StrictPayload } from '../../wire/event-payloads.js';
import type { SimulatorCore } from '../simulator-core.js';
import type { StoredMessage } from '../session-store.js';
import { newId, type ActiveTurn, type SessionRuntime, type Todo } from '../session-runtime.js';

/** Raised by a scenario to end the turn with `turn.failed` (§5.5.4). */
export class TurnFailure extends Error {
  constructor(
    readonly detail: { type: string; message: string; code?: string; retryable?: boolean; attribution?: Record<string, unknown> },
    readonly turnPhase = 'model_request',
  ) {
    super(detail.message);
  }
}

/** Raised when the turn was stopped; the runner turns it into `resultType:"cancelled"`. */
export class TurnAborted extends Error {
  constructor() {
    super('Turn aborted');
  }
}

type Part = StoredMessage['parts'][number];

export interface ToolOutcome {
  success: boolean;
  content: string;
  display?: { kind: string; [key: string]: unknown };
}

/**
 * What a scenario script sees of its turn: streaming helpers that emit the §5 events in the
 * §5.7 order, tool calls, interactions and steering. Every wait is abortable by stop.
 */
export class TurnContext {
  readonly assistantMessageId = newId('msg');
  readonly parts: Part[] = [];
  text = '';
  reasoningText = '';
  toolCallCount = 0;
  readonly toolCalls: { id: string; name: string; input: unknown }[] = [];
  readonly startedAt = Date.now();

  constructor(
    readonly sim: SimulatorCore,
    readonly rt: SessionRuntime,
    readonly turn: ActiveTurn,
    readonly prompt: string,
    readonly inputId: string | undefined,
  ) {}

  get turnId(): string {
    return this.turn.turnId;
  }

  get signal(): AbortSignal {
    return this.turn.abort.signal;
  }

  /** Throws TurnAborted when the turn was stopped. */
  checkAborted(): void {
    if (this.signal.aborted) throw new TurnAborted();
  }

  /** Sleeps `ms` × `--turn-delay-scale`; rejects with TurnAborted on stop. */
  sleep(ms: number): Promise<void> {
    const scaled = ms * this.sim.options.turnDelayScale;
    return new Promise((resolve, reject) => {
      if (this.signal.aborted) return reject(new TurnAborted());
      const onAbort = (): void => {
        clearTimeout(t);
        reject(new TurnAborted());
      };
      const t = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, scaled);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  emit<K extends EventType>(type: K, payload: StrictPayload<K>, visible = true): void {
    this.rt.emit(type, payload, this.turnId, visible);
  }

  /** Streams reasoning as many small `reasoning_delta` events (§5.5.6). */
  async reasoning(text: string, delayMs = 12): Promise<void> {
    const partId = newId('prt');
    this.reasoningText += text;
    await this.stream('reasoning', text, partId, delayMs);
    this.parts.push({ partId, sessionId: this.rt.sessionId, messageId: this.assistantMessageId, type: 'reasoning', text });
  }

  /** Streams answer text as many small `text_delta` events, then a filtered `text_end` (flushes §5.3 batches). */
  async say(text: string, delayMs = 15): Promise<void> {
    const partId = newId('prt');
    const part: Part = { partId, sessionId: this.rt.sessionId, messageId: this.assistantMessageId, type: 'text', text: '' };
    this.parts.push(part);
    try {
      await this.stream('text', text, partId, delayMs, (chunk) => {
        part['text'] = String(part['text']) + chunk;
        this.text += chunk;
      });
    } finally {
      if (String(part['text']).length === 0) this.parts.splice(this.parts.indexOf(part), 1);
    }
  }

  private async stream(
    kind: 'text' | 'reasoning',
    text: string,
    partId: string,
    delayMs: number,
    onChunk?: (c: string) => void,
  ): Promise<void> {
    const chunks = text.match(/\S*\s*/g)?.filter((c) => c.length > 0) ?? [];
    for (let i = 0; i < chunks.length; i += 2) {
      this.checkAborted();
      const delta = chunks.slice(i, i + 2).join('');
      onChunk?.(delta);
      this.emit('model.streaming', { kind: `${kind}_delta`, delta, done: false, assistantMessageId: this.assistantMessageId, partId });
      await this.sleep(delayMs);
    }
    // Internal end marker: filtered from the legacy stream but it flushes coalescing (§5.3 rule 2).
    this.emit(
      'model.streaming',
      { kind: `${kind}_end`, delta: '', done: true, assistantMessageId: this.assistantMessageId, partId },
      false,
    );
  }

  /** Announces a tool call through the model stream, then `tool.updated scheduled` with the input omitted (§5.5.7). */
  async scheduleTool(toolName: string, input: Record<string, unknown>): Promise<string> {
    const toolCallId = newId('call');
    const json = JSON.stringify(input);
    const base = { assistantMessageId: this.assistantMessageId, toolCallId, toolName };
    this.emit('model.streaming', { kind: 'tool_input_start', delta: '', done: false, ...base });
    for (let i = 0; i < json.length; i += 24) {
      this.emit('model.streaming', { kind: 'tool_input_delta', delta: json.slice(i, i + 24), done: false, ...base });
      await this.sleep(5);
    }
    this.emit('model.streaming', { kind: 'tool_input_end', delta: '', done: true, ...base });
    this.emit('model.streaming', { kind: 'tool_call', delta: '', done: true, ...base, input });
    this.emit('tool.updated', {
      kind: 'scheduled',
      toolCallId,
      toolName,
      assistantMessageId: this.assistantMessageId,
      inputOmitted: true,
      inputRef: 'model_stream',
      inputByteLength: Buffer.byteLength(json),
    });
    this.rt.activeToolCalls.push({ toolCallId, toolName, status: 'pending' });
    this.rt.operationEvent('tool-scheduled', { turnId: this.turnId, toolCallId, toolName });
    this.toolCalls.push({ id: toolCallId, name: toolName, input });
    this.toolCallCount++;
    return toolCallId;
  }

  /** Marks a scheduled tool as started. */
  startTool(toolCallId: string, toolName: string): number {
    const startedAt = Date.now();
    this.emit('tool.updated', { kind: 'started', toolCallId, toolName, startedAt });
    const a = this.rt.activeToolCalls.find((t) => t.toolCallId === toolCallId);
    if (a) Object.assign(a, { status: 'running', startedAt });
    this.rt.operationEvent('tool-started', { turnId: this.turnId, toolCallId, toolName });
    return startedAt;
  }

  /** Ends a tool with `result` or `error`, records its part, then the `batch` event. */
  finishTool(
    toolCallId: string,
    toolName: string,
    input: unknown,
    startedAt: number,
    outcome: ToolOutcome | { error: { type: string; message: string } },
  ): void {
    const completedAt = Date.now();
    if ('error' in outcome) {
      this.emit('tool.updated', { kind: 'error', toolCallId, toolName, error: outcome.error });
    } else {
      this.emit('tool.updated', {
        kind: 'result',
        toolCallId,
        toolName,
        result: { success: outcome.success, content: outcome.content, ...(outcome.display ? { display: outcome.display } : {}) },
        duration: completedAt - startedAt,
      });
    }
    const ok = !('error' in outcome) && outcome.success;
    this.emit('tool.updated', { kind: 'batch', toolCallIds: [toolCallId], successCount: ok ? 1 : 0, errorCount: ok ? 0 : 1 });
    this.rt.activeToolCalls = this.rt.activeToolCalls.filter((t) => t.toolCallId !== toolCallId);
    const state =
      'error' in outcome
        ? { status: 'error', input, error: outcome.error.message, startedAt, completedAt }
        : { status: 'completed', input, output: outcome.content, title: toolName, metadata: {}, startedAt, completedAt };
    this.parts.push({
      partId: newId('prt'),
      sessionId: this.rt.sessionId,
      messageId: this.assistantMessageId,
      type: 'tool',
      callId: toolCallId,
      tool: toolName,
      state,
    });
  }

  /**
   * Replaces the session's todo list and publishes it as a `session.updated {todos}` event.
   * SIMULATOR-ONLY: the real server has no such event (todos reach a host only as `TodoWrite`
   * tool input and in snapshots); the hub's plan view must not depend on it.
   */
  setTodos(todos: Todo[]): void {
    this.rt.todos = todos;
    this.emit('session.updated', { todos });
  }

  /** Drains steered inputs at a tool boundary: `turn.steerDrained` (§5.5.2, §7.4). Returns their texts. */
  drainSteers(): { text: string; source?: string }[] {
    const inbox = this.turn.steerInbox.splice(0);
    if (inbox.length === 0) return [];
    const drained = inbox.map((s) => ({
      pendingInputId: s.pendingInputId,
      messageId: newId('msg'),
      text: s.text,
      delivery: 'guide' as const,
    }));
    this.emit('turn.steerDrained', {
      pendingInputIds: inbox.map((s) => s.pendingInputId),
      targetTurnId: this.turnId,
      injectedMessageIds: drained.map((d) => d.messageId),
      drainedInputs: drained,
    });
    return inbox;
  }

  /** Queues a steer into this very turn (plan feedback): `turn.steerQueued` with its source. */
  queueSteer(text: string, source: 'plan_approval_feedback'): void {
    const pendingInputId = newId('input');
    this.turn.steerInbox.push({ pendingInputId, text, source });
    this.emit('turn.steerQueued', {
      pendingInputId,
      input: text,
      inputPreview: text.slice(0, 120),
      inputSize: text.length,
      source,
      delivery: 'guide',
      targetTurnId: this.turnId,
      queueLength: this.turn.steerInbox.length,
    });
  }

  /** Whether this session's mode asks before tools (every mode but yolo, ARCHITECTURE.md §4.1). */
  get asksPermission(): boolean {
    return this.rt.info.mode !== 'yolo';
  }
}
