import { performance } from 'node:perf_hooks';
import type { StrictPayload } from '../../wire/event-payloads.js';
import { newId } from '../session-runtime.js';
import type { TurnContext } from '../turn/turn-context.js';
import { monotonicMs } from '../monotonic-clock.js';

/** Largest rate / size / duration one prompt may ask for (a typo must not pin the child). */
const MAX_PROMPT_RATE = 1_000_000;
const MAX_PROMPT_BYTES = 1024 * 1024;
const MAX_PROMPT_DURATION_MS = 3_600_000;

/**
 * Per-prompt overrides of the bench stream: `rate=N`, `bytes=B`, `ms=D` anywhere in the prompt
 * text (whole words; out-of-range or malformed values are ignored), so a benchmark can step the
 * offered rate without restarting the child.
 */
export function benchOverrides(prompt: string): { eventRate?: number; eventBytes?: number; eventDurationMs?: number } {
  const pick = (key: string, max: number): number | undefined => {
    const m = new RegExp(`(?:^|\\s)${key}=(\\d{1,9})(?=\\s|$)`).exec(prompt);
    const n = m ? Number(m[1]) : Number.NaN;
    return Number.isInteger(n) && n > 0 && n <= max ? n : undefined;
  };
  const eventRate = pick('rate', MAX_PROMPT_RATE);
  const eventBytes = pick('bytes', MAX_PROMPT_BYTES);
  const eventDurationMs = pick('ms', MAX_PROMPT_DURATION_MS);
  return { ...(eventRate ? { eventRate } : {}), ...(eventBytes ? { eventBytes } : {}), ...(eventDurationMs ? { eventDurationMs } : {}) };
}

/**
 * Benchmark stream (`--event-rate N --event-bytes B --event-duration-ms D`): N `text_delta`
 * events per second of about B bytes for D ms, coalescing disabled; a prompt may override each
 * ({@link benchOverrides}). Each delta starts with
 * `[simSentAt=<ms>] ` and the payload carries `simSentAt` too: the send time on the machine's
 * monotonic clock ({@link monotonicMs}) for latency measurement.
 */
export async function benchScenario(ctx: TurnContext): Promise<void> {
  const { eventRate = 0, eventBytes, eventDurationMs } = { ...ctx.sim.options, ...benchOverrides(ctx.prompt) };
  const partId = newId('prt');
  // The stream's size is fixed by its options, not by how often this loop got the CPU: a late
  // tick sends what fell due meanwhile, and the last one sends the rest, so a busy machine gets
  // the same count in bursts instead of fewer events.
  const total = Math.floor((eventDurationMs / 1000) * eventRate);
  const started = performance.now();
  let sent = 0;
  while (true) {
    const elapsed = performance.now() - started;
    const due = elapsed >= eventDurationMs ? total : Math.min(total, Math.floor((elapsed / 1000) * eventRate));
    for (; sent < due; sent++) {
      const simSentAt = monotonicMs();
      const prefix = `[simSentAt=${simSentAt.toFixed(3)}] `;
      const delta = prefix + 'x'.repeat(Math.max(0, eventBytes - prefix.length));
      // `simSentAt` is the one key outside the contract (the benchmark's send stamp), like the
      // keys the real server leaks through (docs/APP-SERVER.md §5.6); only bench mode sends it.
      const payload: StrictPayload<'model.streaming'> & { simSentAt: number } = {
        kind: 'text_delta',
        delta,
        done: false,
        assistantMessageId: ctx.assistantMessageId,
        partId,
        simSentAt,
      };
      ctx.emit('model.streaming', payload);
    }
    if (elapsed >= eventDurationMs) break;
    await new Promise((r) => setTimeout(r, 5));
    ctx.checkAborted();
  }
  // Keep the stored message small: the streamed bytes are not history.
  ctx.text = `[bench stream: ${sent} events of ~${eventBytes} bytes]`;
  ctx.parts.push({ partId, sessionId: ctx.rt.sessionId, messageId: ctx.assistantMessageId, type: 'text', text: ctx.text });
}
