/** What a probe returns while the state it waits for has not come: `false`, `null` or `undefined`. */
export type NotYet = false | null | undefined;

/**
 * Polls `probe` until it returns an answer, anything but `false`, `null` or `undefined` (so a
 * predicate such as `() => link.status().state === 'ready'` waits, and `0` or `''` is an answer):
 * tests wait for a state (a file, a health answer, an exit), never for an amount of time. Fails
 * with `what` after `timeoutMs`.
 */
export async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<Exclude<T, NotYet>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== null && v !== false) return v as Exclude<T, NotYet>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
