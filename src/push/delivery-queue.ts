/**
 * Push deliveries run through here: at most `inFlight` at once, at most `queuedMax` waiting;
 * past that a delivery is dropped at once (its promise says so), so a burst of finished turns
 * against slow endpoints costs bounded sockets and memory (docs/SECURITY.md "Push endpoints").
 * Decided without `await`: `run` either starts, queues or drops synchronously.
 */

/** What `run` resolves with when the job never ran. */
export const DROPPED = Symbol('dropped');

export class DeliveryQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private droppedCount = 0;

  constructor(
    private readonly inFlight: number,
    private readonly queuedMax: number,
  ) {}

  /** Runs `job` when a slot is free; resolves with its result, or DROPPED when the queue is full. */
  run<T>(job: () => Promise<T>): Promise<T | typeof DROPPED> {
    if (this.running >= this.inFlight && this.waiting.length >= this.queuedMax) {
      this.droppedCount++;
      return Promise.resolve(DROPPED);
    }
    return new Promise((resolve) => {
      const start = (): void => {
        this.running++;
        job()
          .then(resolve, () => resolve(DROPPED))
          .finally(() => {
            this.running--;
            this.waiting.shift()?.();
          });
      };
      if (this.running < this.inFlight) start();
      else this.waiting.push(start);
    });
  }

  /** Deliveries running now, waiting, and dropped so far. */
  get stats(): { running: number; waiting: number; dropped: number } {
    return { running: this.running, waiting: this.waiting.length, dropped: this.droppedCount };
  }
}
