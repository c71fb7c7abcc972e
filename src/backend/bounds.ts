/**
 * Bounds internal to the backend link that are not operator-facing limits (those live in
 * src/limits.ts). Every map, ring and timer of src/backend is bounded by one of these or by a
 * `config.limits` value (STYLE.md habit 6).
 */
export const BACKEND_BOUNDS = {
  /** Settled interaction answers kept per epoch to answer late re-announcements (APP-SERVER.md §1.7 rule 5). */
  settledInteractionsLru: 1_024,
  /** Interactions waiting on the domain at once per epoch; beyond it the child gets an error answer. */
  unsettledInteractions: 4_096,
  /** A stderr line longer than this is truncated in the ring and the log (the rest is dropped). */
  stderrLineChars: 4_096,
  /** Unterminated stderr bytes buffered before they are flushed as a (truncated) line. */
  stderrPartialBytes: 64 * 1024,
  /** Junk-line warnings (non-JSON, invalid UTF-8, no envelope) logged per second before counting. */
  junkWarningsPerSecond: 5,
  /** After the child's exit, wait this long for stdout to end before failing pending requests 'gone'. */
  exitDrainMs: 50,
  /** After the final SIGKILL of the stop ladder, wait this long for the exit event. */
  killWaitMs: 2_000,
  /** A pidfile's recorded start time may differ from the process's by this much and still match. */
  pidStartToleranceMs: 5_000,
  /** Chars of a junk line quoted in its warning (never the whole line). */
  junkPreviewChars: 80,
} as const;
