/**
 * Milliseconds (fractional) on the machine's monotonic clock, the same in every process.
 * `performance.timeOrigin + performance.now()` need not be: each process fixes it from a wall-clock
 * read at start, so two processes may disagree (a B-SCALE run measured a p50 of 0 ms with it).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
