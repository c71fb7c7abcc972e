/**
 * Streaming delta coalescing of APP-SERVER.md §5.3, as a pure state machine: feed it the
 * source events in order (visible or filtered) and it returns what goes on the wire.
 * Replay recomputes the same boundaries because the input order and timestamps are the same.
 */
export interface EventDraft {
  eventId: string;
  sessionId: string;
  timestamp: number;
  type: string;
  payload: Record<string, unknown>;
  turnId?: string;
  traceId?: string;
}

/** §5.3 thresholds: flush at 2,048 chars / 250 ms (text, reasoning), 4,096 / 750 ms (tool input). */
export const COALESCE = {
  textMaxChars: 2048,
  textWindowMs: 250,
  toolInputMaxChars: 4096,
  toolInputWindowMs: 750,
} as const;

interface Pending {
  key: string;
  delta: string;
  last: EventDraft;
  maxChars: number;
  windowMs: number;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Returns the batch key of a coalescible delta, or undefined for every other event. */
export function deltaKey(e: EventDraft): { key: string; maxChars: number; windowMs: number } | undefined {
  if (e.type !== 'model.streaming') return undefined;
  const p = e.payload;
  const kind = p['kind'];
  const isText = kind === 'text_delta' || kind === 'reasoning_delta';
  const isTool = kind === 'tool_input_delta' && str(p['toolCallId']).length > 0;
  if (!isText && !isTool) return undefined;
  const key = [
    kind,
    str(p['assistantMessageId']),
    str(p['inputId']),
    str(p['partId']),
    str(p['parentToolCallId']),
    str(p['toolCallId']),
  ].join('\u0000');
  return isText
    ? { key, maxChars: COALESCE.textMaxChars, windowMs: COALESCE.textWindowMs }
    : { key, maxChars: COALESCE.toolInputMaxChars, windowMs: COALESCE.toolInputWindowMs };
}

/** One coalescer per (session runtime, delivery kind). */
export class DeltaCoalescer {
  /** Keys that already emitted their first delta since the last non-delta event → last flush time. */
  private readonly lastFlush = new Map<string, number>();
  private pending: Pending | undefined;

  constructor(private readonly enabled = true) {}

  /** Feeds one source event; `visible=false` marks events the legacy stream filters (e.g. text_end). */
  push(e: EventDraft, visible = true): EventDraft[] {
    if (!this.enabled) return visible ? [e] : [];
    const out: EventDraft[] = [];
    const k = deltaKey(e);
    if (!k) {
      // §5.3 rule 2/3: any non-delta event (even a filtered one) flushes and resets every key.
      this.flushInto(out);
      this.lastFlush.clear();
      if (visible) out.push(e);
      return out;
    }
    if (this.pending && this.pending.key !== k.key) this.flushInto(out);
    const last = this.lastFlush.get(k.key);
    if (last === undefined) {
      // Rule 1: the first delta of a batch key is emitted immediately.
      this.lastFlush.set(k.key, e.timestamp);
      out.push(e);
      return out;
    }
    if (!this.pending) this.pending = { key: k.key, delta: '', last: e, maxChars: k.maxChars, windowMs: k.windowMs };
    this.pending.delta += str(e.payload['delta']);
    this.pending.last = e;
    if (this.pending.delta.length >= k.maxChars || e.timestamp - last >= k.windowMs) this.flushInto(out);
    return out;
  }

  /** True while a merged batch waits for its flush condition. */
  get hasPending(): boolean {
    return this.pending !== undefined;
  }

  private flushInto(out: EventDraft[]): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    this.lastFlush.set(p.key, p.last.timestamp);
    // Rule 4: the merged event carries the concatenated delta and the last event's envelope.
    out.push({ ...p.last, payload: { ...p.last.payload, delta: p.delta } });
  }
}
