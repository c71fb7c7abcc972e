import { z } from 'zod';

/**
 * The IPC contract between the bench runner and its load-client process (bench/load-client.ts).
 * Both sides parse what they receive with these schemas (STYLE.md habit 3): the load process is
 * a separate program, and a wrong message must fail loudly rather than skew a figure.
 */

const clientSet = z.union([z.literal('all'), z.array(z.number().int().nonnegative())]);

export const commandSchema = z.discriminatedUnion('op', [
  /**
   * Opens `count` sockets (tokens used round-robin) and runs `initialize` on each (ACP) or nothing (bare baseline).
   * With `wsUrls`, the op's i-th socket connects to `wsUrls[i % wsUrls.length]` (the bare baseline's sessions, dealt
   * round-robin as a hub team is); `wsUrl` stays the one a reconnect uses.
   */
  z.object({
    op: z.literal('connect'),
    wsUrl: z.string(),
    wsUrls: z.array(z.string()).min(1).optional(),
    tokens: z.array(z.string()),
    count: z.number().int().positive(),
    protocol: z.enum(['acp', 'bare']),
  }),
  /** `session/new` on one client; answers `{sessionId, seq, epoch}`. */
  z.object({ op: z.literal('newSession'), client: z.number().int().nonnegative(), cwd: z.string() }),
  /** Attaches clients to a session with `session/load` or `session/resume`; `afterSeq: 'own'` = each client's last seen seq. */
  z.object({
    op: z.literal('attach'),
    sessionId: z.string(),
    method: z.enum(['session/load', 'session/resume']),
    clients: clientSet,
    afterSeq: z.union([z.number().int().nonnegative(), z.literal('own')]).optional(),
    epoch: z.string().optional(),
  }),
  /** Sends `session/prompt` from one client; answers when that turn ends. */
  z.object({ op: z.literal('prompt'), client: z.number().int().nonnegative(), sessionId: z.string(), text: z.string() }),
  /** The client stops reading its socket (FAN-02): the hub's outbound buffer for it grows. */
  z.object({ op: z.literal('stall'), client: z.number().int().nonnegative() }),
  /** Forgets counters and latency samples (between warm-up and the measured window). */
  z.object({ op: z.literal('reset') }),
  /** Forgets latency samples and frame counts only (after warm-up); seq continuity keeps counting. */
  z.object({ op: z.literal('resetLatency') }),
  /** Resolves when every open client of the set has seen `seq` (or the timeout passes). */
  z.object({ op: z.literal('waitSeq'), seq: z.number().int().nonnegative(), clients: clientSet, timeoutMs: z.number().positive() }),
  /** Resolves when the clients of the set have together received `frames` bench frames (or the timeout / an idle gap passes). */
  z.object({
    op: z.literal('waitFrames'),
    frames: z.number().int().nonnegative(),
    clients: clientSet,
    timeoutMs: z.number().positive(),
    idleMs: z.number().positive(),
  }),
  /** Closes the sockets of the set (1000) and waits for the close handshakes. */
  z.object({ op: z.literal('close'), clients: clientSet }),
  /**
   * B-REC: every client of the set opens a new socket, initializes and `session/load`s with its
   * own last seq; answers the time until all of them have seen `targetSeq`.
   */
  z.object({
    op: z.literal('reconnect'),
    sessionId: z.string(),
    clients: clientSet,
    targetSeq: z.number().int().nonnegative(),
    epoch: z.string(),
    timeoutMs: z.number().positive(),
  }),
  /**
   * B-SCALE: a reconnect storm over several sessions — every client of every group opens a new
   * socket, initializes and `session/load`s with its own last seq, `concurrency` reconnects in
   * flight at once (the next starts as one ends), from `addresses` loopback source addresses
   * (127.0.0.2…, as devices behind different addresses); answers the time until each has seen
   * its group's `targetSeq`.
   */
  z.object({
    op: z.literal('reconnectMany'),
    groups: z.array(
      z.object({ sessionId: z.string(), clients: z.array(z.number().int().nonnegative()), targetSeq: z.number().int().nonnegative() }),
    ),
    epoch: z.string(),
    concurrency: z.number().int().positive(),
    addresses: z.number().int().min(1).max(250).default(1),
    timeoutMs: z.number().positive(),
  }),
  /** Per-client and aggregate statistics of the set. */
  z.object({ op: z.literal('report'), clients: clientSet }),
  z.object({ op: z.literal('exit') }),
]);
export type Command = z.infer<typeof commandSchema>;

export const envelopeSchema = z.object({ id: z.number().int(), command: commandSchema });

/** Aggregate figures of a set of clients (latency in milliseconds). */
export const reportSchema = z.object({
  clients: z.number().int(),
  open: z.number().int(),
  updates: z.number().int(),
  benchFrames: z.number().int(),
  firstReceiveAt: z.number().nullable(),
  lastReceiveAt: z.number().nullable(),
  complete: z.boolean(),
  problems: z.array(z.string()),
  latency: z.object({
    count: z.number(),
    p50: z.number(),
    p90: z.number(),
    p99: z.number(),
    p999: z.number(),
    max: z.number(),
    mean: z.number(),
  }),
  closes: z.record(z.string(), z.number()),
  firstSeq: z.array(z.number().nullable()),
  lastSeq: z.array(z.number().nullable()),
  stalledAt: z.number().nullable(),
  /** The load process's own event-loop delay (ms) since the last `resetLatency`. */
  loopDelay: z.object({ p99: z.number(), max: z.number() }),
  /** Frames other than session/update since the last reset, by method (`response` for answers). */
  otherFrames: z.record(z.string(), z.number()),
  /** Where the slow samples (over `SLOW_SAMPLE_MS`) fell: the busiest 100-ms windows, in ms after the last reset. */
  slowWindows: z.array(z.object({ atMs: z.number(), slow: z.number() })),
});
export type LoadReport = z.infer<typeof reportSchema>;

export const replySchema = z.object({ id: z.number().int(), ok: z.boolean(), error: z.string().optional(), value: z.unknown().optional() });
export type Reply = z.infer<typeof replySchema>;

export const sessionOpenedSchema = z.object({ sessionId: z.string(), seq: z.number(), epoch: z.string() });
export const attachedSchema = z.object({
  attached: z.number().int(),
  ms: z.number(),
  seq: z.number().nullable(),
  epoch: z.string().nullable(),
});
export const promptDoneSchema = z.object({ stopReason: z.string() });
export const waitDoneSchema = z.object({ reached: z.boolean(), ms: z.number(), frames: z.number().int().optional() });
