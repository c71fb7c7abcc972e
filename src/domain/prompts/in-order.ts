/**
 * Async steps that must finish in the order they were asked for, per key: a prompt's admission
 * awaits I/O (the workspace-root realpath, the child's open), and two prompts of one session
 * must join its FIFO in the order they arrived, not in the order their checks happen to finish.
 */
export class InOrder<T> {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `step` once every earlier step of `key` has settled (whatever its outcome). */
  run(key: string, step: () => Promise<T>): Promise<T> {
    const earlier = this.tails.get(key) ?? Promise.resolve();
    const mine = earlier.then(step, step);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return mine;
  }
}
