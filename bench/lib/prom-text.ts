import { delayBeyondIntervalSeconds, LOOP_DELAY_RESOLUTION_MS } from '../../src/metrics/hub-metrics.js';

/**
 * Reading figures out of a Prometheus text scrape of the daemon (`GET /metrics`), for benches
 * that attribute latency: the hub's own event-loop delay and its garbage-collector pauses.
 */

/** The sum over every sample of `name` whose labels include all of `labels` (0 when none matches). */
export function promSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    const labelText = rest[0] === '{' ? rest.slice(1, rest.indexOf('}')) : '';
    if (!Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`))) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) total += value;
  }
  return total;
}

const GC = 'zcode_hub_process_nodejs_gc_duration_seconds';

/** Garbage-collector work between two scrapes: pauses, their total, and those over 10 ms. */
export function gcBetween(before: string, after: string): { count: number; totalMs: number; over10ms: number } {
  const delta = (name: string, labels: Record<string, string> = {}) => promSum(after, name, labels) - promSum(before, name, labels);
  const count = delta(`${GC}_count`);
  return {
    count,
    totalMs: Math.round(delta(`${GC}_sum`) * 1000),
    over10ms: count - delta(`${GC}_bucket`, { le: '0.01' }),
  };
}

/** The hub's event-loop delay (ms) since its previous scrape: p99 and the longest (both monitors reset on every scrape). */
export function hubLoopDelayMs(text: string): { p99: number; max: number } {
  const maxRecorded = promSum(text, 'zcode_hub_process_nodejs_eventloop_lag_max_seconds') * 1e9;
  return {
    p99: promSum(text, 'zcode_hub_event_loop_delay_p99_seconds') * 1000,
    max: delayBeyondIntervalSeconds(maxRecorded, LOOP_DELAY_RESOLUTION_MS) * 1000,
  };
}
