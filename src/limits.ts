/**
 * Every bound the hub enforces, in one place (HUB-DESIGN §8). Each is configurable through
 * the config schema and each has a test that crosses it. Sizes are bytes, times milliseconds.
 */
export const LIMITS = {
  /** Largest WebSocket message accepted from a client (image prompts); crossing it closes 1009. */
  wsMaxMessageBytes: 16 * 1024 * 1024,
  /** Largest REST body; crossing it answers 413. */
  httpBodyLimitBytes: 256 * 1024,
  /** Bytes queued towards one client before it is closed 4008 (slow consumer). */
  clientOutboundBudgetBytes: 4 * 1024 * 1024,
  /** Longest line accepted on the child's stdout; a longer one faults and restarts the child. */
  childStdoutLineBytes: 64 * 1024 * 1024,
  /** Bytes queued for the child's stdin while it does not read; further requests fail fast. */
  childStdinQueueBytes: 16 * 1024 * 1024,
  /** Default timeout of a forward request to the app-server. */
  forwardRequestTimeoutMs: 30_000,
  /** Timeout of session/create and session/resume (they wait on reverse requests). */
  sessionOpenTimeoutMs: 60_000,
  /** Journal ring per session: updates kept. */
  journalMaxUpdates: 20_000,
  /** Journal ring per session: serialized bytes kept. */
  journalMaxBytes: 32 * 1024 * 1024,
  /** Updates replayed by a full session/load without `_meta.zcode.limit`. */
  replayMaxMessages: 2_000,
  /** Time a socket may stay unauthenticated. */
  preAuthDeadlineMs: 10_000,
  /** Bytes an unauthenticated socket may send. */
  preAuthMaxBytes: 64 * 1024,
  /** Open WebSocket connections per token. */
  connectionsPerToken: 32,
  /** Open WebSocket connections in total. */
  connectionsTotal: 1_024,
  /** Pending interactions per session. */
  pendingInteractionsPerSession: 256,
  /** Backend restart backoff: first delay. */
  restartBackoffBaseMs: 500,
  /** Backend restart backoff: cap. */
  restartBackoffMaxMs: 30_000,
  /** Crashes within `crashWindowMs` that put the backend in `failed`. */
  crashLoopCount: 5,
  crashWindowMs: 60_000,
  /** Stop ladder: stdin EOF, wait, SIGTERM, wait, SIGKILL. */
  stopGraceMs: 2_000,
  /** WebSocket heartbeat interval; a missed pong terminates the socket. */
  heartbeatIntervalMs: 30_000,
  /** Child stderr lines kept for diagnostics (doctor, /api/status). */
  stderrRingLines: 200,
  /** Child stderr lines logged per second before the rest are counted, not logged. */
  stderrLogLinesPerSecond: 50,
  /** Protocol violations on one socket before it is closed 4400. */
  protocolViolationsBeforeClose: 20,
} as const;

export type Limits = { -readonly [K in keyof typeof LIMITS]: number };
