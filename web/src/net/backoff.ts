import { WEB_LIMITS } from '../limits.js';

/**
 * Delay before reconnect attempt `attempt` (0-based): base × 2^attempt capped, with "equal
 * jitter" (half fixed, half random) so a hub restart is not met by every phone at once.
 */
export function backoffDelay(
  attempt: number,
  random: number,
  base: number = WEB_LIMITS.reconnectBaseMs,
  cap: number = WEB_LIMITS.reconnectMaxMs,
): number {
  const exp = Math.min(cap, base * 2 ** Math.max(0, Math.min(attempt, 30)));
  const r = Math.min(1, Math.max(0, random));
  return Math.round(exp / 2 + (exp / 2) * r);
}
