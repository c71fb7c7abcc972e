/**
 * Polls `probe` until it returns something other than undefined: tests wait for a state (a file,
 * a health answer, an exit), never for an amount of time. Fails with `what` after `timeoutMs`.
 */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
