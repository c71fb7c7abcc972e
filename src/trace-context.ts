/**
 * W3C trace context carried through the hub (ACP reserves `traceparent`, `tracestate` and
 * `baggage` at the root of `params._meta`, RFD "Meta Field Propagation Conventions"). The
 * gateway reads them from a client's request and runs its handler inside that context; every
 * log line written meanwhile carries the ids (logger.ts mixin) and every request the backend
 * link sends to the child carries them in the app-server's envelope `trace` field
 * (APP-SERVER.md §1.3). AsyncLocalStorage keeps the layers free of extra parameters.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

/** The trace context of the request being handled, and the hub's own span in it. */
export interface TraceContext {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** The caller's span (the client's `parent-id`). */
  parentId: string;
  /** The hub's span for this request; the child's `traceparent` names it as parent. */
  spanId: string;
  /** `trace-flags` (2 hex digits, e.g. `01` sampled). */
  flags: string;
  tracestate?: string;
  baggage?: string;
}

/** W3C Trace Context, section 3.3.1: `tracestate` has at most 32 members; 512 characters keeps the common cap. */
export const TRACESTATE_MAX_CHARS = 512;
/** W3C Baggage, section 3.3.2: a baggage string is at most 8,192 bytes. */
export const BAGGAGE_MAX_CHARS = 8_192;

// W3C Trace Context, section 3.2.2: version-traceid-parentid-flags; version ff is invalid.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;
// Printable ASCII only: these values reach log lines and the child's stdin.
const PRINTABLE = /^[\x20-\x7e]*$/;

const store = new AsyncLocalStorage<TraceContext>();

/**
 * The trace context of a request's `_meta`, or undefined when it has none or an invalid
 * `traceparent` (W3C: an invalid header is ignored, never an error). An over-long or
 * non-printable `tracestate`/`baggage` is dropped on its own.
 */
export function traceFromMeta(meta: unknown): TraceContext | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const m = meta as Record<string, unknown>;
  const tp = m['traceparent'];
  if (typeof tp !== 'string' || tp.length > 256) return undefined;
  const match = TRACEPARENT.exec(tp.trim().toLowerCase());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined) || ALL_ZERO.test(traceId) || ALL_ZERO.test(parentId)) return undefined;
  const ctx: TraceContext = { traceId, parentId, spanId: randomBytes(8).toString('hex'), flags };
  const ts = m['tracestate'];
  if (typeof ts === 'string' && ts.length <= TRACESTATE_MAX_CHARS && PRINTABLE.test(ts)) ctx.tracestate = ts;
  const bg = m['baggage'];
  if (typeof bg === 'string' && bg.length <= BAGGAGE_MAX_CHARS && PRINTABLE.test(bg)) ctx.baggage = bg;
  return ctx;
}

/** Runs `fn` with `ctx` as the current trace context (a no-op wrapper without one). */
export function withTrace<T>(ctx: TraceContext | undefined, fn: () => T): T {
  return ctx ? store.run(ctx, fn) : fn();
}

/** The trace context of the code running now, if a traced request started it. */
export function currentTrace(): TraceContext | undefined {
  return store.getStore();
}

/** `{trace}` for the current context, or `{}` — for objects that outlive the request (a queued prompt). */
export function traceField(): { trace?: TraceContext } {
  const ctx = store.getStore();
  return ctx ? { trace: ctx } : {};
}

/** The `traceparent` that names the hub's span as parent (sent on to the child). */
export function outgoingTraceparent(ctx: TraceContext): string {
  return `00-${ctx.traceId}-${ctx.spanId}-${ctx.flags}`;
}

/** Fields merged into every log line written inside a traced request (pino `mixin`). */
export function traceLogFields(): Record<string, string> {
  const ctx = store.getStore();
  return ctx ? { traceId: ctx.traceId, spanId: ctx.spanId } : {};
}

/**
 * The app-server envelope's `trace` (APP-SERVER.md §1.3, strict: `traceId`, `parentId`,
 * `spanId`, `traceparent`) for the current context, or undefined. `tracestate` and `baggage`
 * have no slot there; they are logged with the request instead.
 */
export function childTrace(): { traceId: string; parentId: string; spanId: string; traceparent: string } | undefined {
  const ctx = store.getStore();
  return ctx ? { traceId: ctx.traceId, parentId: ctx.parentId, spanId: ctx.spanId, traceparent: outgoingTraceparent(ctx) } : undefined;
}
