import { performance } from 'node:perf_hooks';
import { newId } from '../session-runtime.js';
import type { TurnContext } from '../turn/turn-context.js';

/**
 * Benchmark stream (`--event-rate N --event-bytes B --event-duration-ms D`): N `text_delta`
 * events per second of about B bytes for D ms, coalescing disabled. Each delta starts with
 * `[simSentAt=<ms>] ` and the payload carries `simSentAt` too: the high-resolution send time
 * `performance.timeOrigin + performance.now()` (epoch ms, fractional) for latency measurement.
 */
export async function benchScenario(ctx: TurnContext): Promise<void> {
  const { eventRate = 0, eventBytes, eventDurationMs } = ctx.sim.options;
  const partId = newId('prt');
  const started = performance.now();
  let sent = 0;
  while (true) {
    const elapsed = performance.now() - started;
    if (elapsed >= eventDurationMs) break;
    const due = Math.floor((elapsed / 1000) * eventRate);
    for (; sent < due; sent++) {
      const simSentAt = performance.timeOrigin + performance.now();
      const prefix = `[simSentAt=${simSentAt.toFixed(3)}] `;
      const delta = prefix + 'x'.repeat(Math.max(0, eventBytes - prefix.length));
      ctx.emit('model.streaming', { kind: 'text_delta', delta, done: false, assistantMessageId: ctx.assistantMessageId, partId, simSentAt });
    }
    await new Promise((r) => setTimeout(r, 5));
    ctx.checkAborted();
  }
  // Keep the stored message small: the streamed bytes are not history.
  ctx.text = `[bench stream: ${sent} events of ~${eventBytes} bytes]`;
  ctx.parts.push({ partId, sessionId: ctx.rt.sessionId, messageId: ctx.assistantMessageId, type: 'text', text: ctx.text });
}
