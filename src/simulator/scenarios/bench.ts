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
 * offered rate without restarting the child. `slot=S` (ms, 0 or more, up to 3 decimals) puts the
 * stream on the shared grid ({@link gridTimes}).
 */
export function benchOverrides(prompt: string): {
  eventRate?: number;
  eventBytes?: number;
  eventDurationMs?: number;
  slotMs?: number;
} {
  const word = (key: string, digits: string) => new RegExp(`(?:^|\\s)${key}=(${digits})(?=\\s|$)`).exec(prompt)?.[1];
  const pick = (key: string, max: number): number | undefined => {
    const n = Number(word(key, '\\d{1,9}') ?? Number.NaN);
    return Number.isInteger(n) && n > 0 && n <= max ? n : undefined;
  };
  const eventRate = pick('rate', MAX_PROMPT_RATE);
  const eventBytes = pick('bytes', MAX_PROMPT_BYTES);
  const eventDurationMs = pick('ms', MAX_PROMPT_DURATION_MS);
  const slotText = word('slot', '\\d{1,7}(?:\\.\\d{1,3})?');
  return {
    ...(eventRate ? { eventRate } : {}),
    ...(eventBytes ? { eventBytes } : {}),
    ...(eventDurationMs ? { eventDurationMs } : {}),
    ...(slotText === undefined ? {} : { slotMs: Number(slotText) }),
  };
}

/**
 * When each of a gridded stream's events falls due, on the machine's monotonic clock (the same in
 * every process): every `1000 / rate` ms, at the instants ≡ `slotMs` (mod that period), from the
 * first one at or after `nowMs`. Two streams with the same rate and slot tick together wherever
 * they run; ten streams given slots a tenth of the period apart never meet. A team's sessions
 * prompted a few ms apart otherwise tick wherever their prompts happened to land, so two runs —
 * or the hub and the bare baseline in one run — stream different arrangements of the same events.
 */
export function* gridTimes(nowMs: number, rate: number, slotMs: number, count: number): Generator<number> {
  const period = 1000 / rate;
  const offset = slotMs % period;
  const first = Math.ceil((nowMs - offset) / period) * period + offset;
  for (let n = 0; n < count; n++) yield first + n * period;
}

/**
 * Benchmark stream (`--event-rate N --event-bytes B --event-duration-ms D`): N `text_delta`
 * events per second of about B bytes for D ms, coalescing disabled; a prompt may override each
 * ({@link benchOverrides}). Each delta starts with
 * `[simSentAt=<ms>] ` and the payload carries `simSentAt` too: the send time on the machine's
 * monotonic clock ({@link monotonicMs}) for latency measurement.
 */
export async function benchScenario(ctx: TurnContext): Promise<void> {
  const { eventRate = 0, eventBytes, eventDurationMs, slotMs } = { ...ctx.sim.options, ...benchOverrides(ctx.prompt) };
  const partId = newId('prt');
  const send = (): void => {
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
  };
  // The stream's size is fixed by its options, not by how often this loop got the CPU: a late
  // tick sends what fell due meanwhile, so a busy machine gets the same count in bursts instead of fewer events.
  const total = Math.floor((eventDurationMs / 1000) * eventRate);
  const sent =
    slotMs === undefined ? await paced(ctx, send, total, eventRate, eventDurationMs) : await gridded(ctx, send, total, eventRate, slotMs);
  // Keep the stored message small: the streamed bytes are not history.
  ctx.text = `[bench stream: ${sent} events of ~${eventBytes} bytes]`;
  ctx.parts.push({ partId, sessionId: ctx.rt.sessionId, messageId: ctx.assistantMessageId, type: 'text', text: ctx.text });
}

/** Sends what fell due since the prompt every 5 ms, the rest at the end; resolves with the count sent. */
async function paced(ctx: TurnContext, send: () => void, total: number, rate: number, durationMs: number): Promise<number> {
  const started = performance.now();
  let sent = 0;
  while (true) {
    const elapsed = performance.now() - started;
    const due = elapsed >= durationMs ? total : Math.min(total, Math.floor((elapsed / 1000) * rate));
    for (; sent < due; sent++) send();
    if (elapsed >= durationMs) return sent;
    await new Promise((r) => setTimeout(r, 5));
    ctx.checkAborted();
  }
}

/** The clock a gridded stream keeps: the machine's monotonic one and a timer in production. */
export interface GridClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: GridClock = { now: monotonicMs, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** Sends each event at its instant on the grid ({@link gridTimes}), sleeping until the next; resolves with the count sent. */
async function gridded(ctx: TurnContext, send: () => void, total: number, rate: number, slotMs: number): Promise<number> {
  await sendOnGrid(gridTimes(realClock.now(), rate, slotMs, total), send, realClock, () => ctx.checkAborted());
  return total;
}

/**
 * Calls `send` once per instant of `times`, never before it: a timer may fire up to a loop
 * iteration early on this clock (it counts from the loop's cached time), so it sleeps again until
 * the instant has passed. A late wake sends what fell due meanwhile at once, in order.
 */
export async function sendOnGrid(times: Iterable<number>, send: () => void, clock: GridClock, checkAborted: () => void): Promise<void> {
  for (const at of times) {
    for (let wait = at - clock.now(); wait > 0; wait = at - clock.now()) await clock.sleep(wait);
    checkAborted();
    send();
  }
}
