/**
 * Fault suites run at full size with RUN_FAULTS=1 (TEST-PLAN CHD-01, WS-02, soak) and at a small
 * size otherwise, like test/settings/crash-writes.test.ts: the same code path every `npm test`,
 * the full count when asked for. Nothing is skipped either way.
 */
export const FULL = process.env.RUN_FAULTS === '1';

/** Picks the full-size or the everyday figure. */
export function scale(full: number, everyday: number): number {
  return FULL ? full : everyday;
}

/** Open handles and requests of this process (what "open handles flat" compares). */
export function openResources(): number {
  return process.getActiveResourcesInfo().length;
}

/** Waits until `probe` is true, polling; rejects with `what` after `timeoutMs`. */
export async function until(probe: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}
