/**
 * A per-second budget for log lines: the first `perSecond` calls in each one-second window are
 * allowed, the rest are counted. The count of a finished window is reported once, lazily, by the
 * next call (or by `flush`), so a flood costs one counter increment per line.
 */
export class LogBudget {
  private windowStart = -Infinity;
  private used = 0;
  private suppressed = 0;

  constructor(
    private readonly perSecond: number,
    private readonly onSuppressed: (count: number) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when this line may be logged. */
  allow(): boolean {
    const t = this.now();
    if (t - this.windowStart >= 1000) {
      this.flush();
      this.windowStart = t;
      this.used = 0;
    }
    if (this.used < this.perSecond) {
      this.used++;
      return true;
    }
    this.suppressed++;
    return false;
  }

  /** Reports lines suppressed so far (if any) and resets the count. */
  flush(): void {
    if (this.suppressed > 0) {
      const n = this.suppressed;
      this.suppressed = 0;
      this.onSuppressed(n);
    }
  }
}
