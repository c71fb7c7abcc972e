import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import client from 'prom-client';

/** What the gauges read, taken once per scrape (no bookkeeping on the hot path). */
export interface MetricsSnapshot {
  clients: Array<{ profile: string }>;
  attachedSessions: number;
  journals: Array<{ updates: number; bytes: number }>;
  pendingInteractionAgesMs: number[];
  backend: { restarts: number; state: string };
  totals: { updatesSent: number; bytesSent: number; serializations: number };
}

/** Produces the snapshot a scrape reads. */
export type MetricsSource = () => MetricsSnapshot;

/** Events the hub reports as they happen (each call is O(1)). */
export interface MetricsSink {
  slowConsumerClosed(): void;
  interactionAnswered(waitedMs: number): void;
  backendRequestDone(method: string, ms: number, ok: boolean): void;
  connectionRefused(limit: string): void;
}

/**
 * Sampling interval of the two event-loop delay monitors (prom-client's and the p99 gauge's).
 * Each sample wakes an idle daemon: at prom-client's 10 ms and 20 ms here they cost 0.8 % of a
 * core with nobody connected (idle CPU); at 100 ms a stall still shows in the p99.
 */
export const LOOP_DELAY_RESOLUTION_MS = 100;

/**
 * Node's delay monitor records the whole interval between two samples, the sampling interval
 * included (an idle loop reads 100 ms at a 100 ms resolution): the delay is what lies beyond it.
 */
export function delayBeyondIntervalSeconds(recordedNs: number, resolutionMs: number): number {
  return Math.max(0, recordedNs / 1e9 - resolutionMs / 1000);
}

/**
 * The Prometheus metrics of the daemon (prom-client, one registry per daemon so tests can run
 * several). Counters of things that happen are fed through {@link MetricsSink}; sizes and totals
 * are read from {@link MetricsSources} when scraped.
 */
export class HubMetrics implements MetricsSink {
  readonly registry = new client.Registry();
  private readonly slowCloses: client.Counter;
  private readonly refusedConnections: client.Counter;
  private readonly answerSeconds: client.Histogram;
  private readonly backendSeconds: client.Histogram;
  private readonly loopDelay: IntervalHistogram;
  private source: MetricsSource | undefined;
  /** The snapshot of the scrape in progress: every gauge reads this one, not the hub again. */
  private current: MetricsSnapshot | undefined;

  // biome-ignore lint/complexity/noExcessiveLinesPerFunction: one declarative list of the hub's metrics; each entry is a name, its help text and how it is read
  constructor() {
    const r = [this.registry];
    client.collectDefaultMetrics({
      register: this.registry,
      prefix: 'zcode_hub_process_',
      eventLoopMonitoringPrecision: LOOP_DELAY_RESOLUTION_MS,
    });
    this.loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
    this.loopDelay.enable();
    const self = this;
    this.slowCloses = new client.Counter({
      name: 'zcode_hub_slow_consumer_closes_total',
      help: 'Clients closed with 4008 for exceeding their outbound budget',
      registers: r,
    });
    this.refusedConnections = new client.Counter({
      name: 'zcode_hub_connections_refused_total',
      help: 'New authenticated connections refused over a cap (authConnectionsPerToken: 429, authConnectionsTotal: 503)',
      labelNames: ['limit'],
      registers: r,
    });
    this.answerSeconds = new client.Histogram({
      name: 'zcode_hub_interaction_answer_seconds',
      help: 'Time from an interaction opening to its winning answer',
      buckets: [1, 5, 15, 30, 60, 120, 300, 900, 3600],
      registers: r,
    });
    this.backendSeconds = new client.Histogram({
      name: 'zcode_hub_backend_request_seconds',
      help: 'Latency of forward requests to the app-server',
      labelNames: ['method', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: r,
    });
    new client.Gauge({
      name: 'zcode_hub_clients',
      help: 'Connected WebSocket clients by wire profile',
      labelNames: ['profile'],
      registers: r,
      collect() {
        this.reset();
        const counts = new Map<string, number>([
          ['acp', 0],
          ['legacy', 0],
        ]);
        for (const c of self.current?.clients ?? []) counts.set(c.profile, (counts.get(c.profile) ?? 0) + 1);
        for (const [profile, n] of counts) this.set({ profile }, n);
      },
    });
    const gauge = (name: string, help: string, read: (s: MetricsSnapshot) => number) =>
      new client.Gauge({
        name,
        help,
        registers: r,
        collect() {
          if (self.current) this.set(read(self.current));
        },
      });
    gauge('zcode_hub_attached_sessions', 'Sessions with at least one attached client', (s) => s.attachedSessions);
    gauge('zcode_hub_journal_updates', 'Updates held in all session journals', (s) => s.journals.reduce((a, j) => a + j.updates, 0));
    gauge('zcode_hub_journal_bytes', 'Bytes held in all session journals', (s) => s.journals.reduce((a, j) => a + j.bytes, 0));
    gauge('zcode_hub_pending_interactions', 'Interactions waiting for an answer', (s) => s.pendingInteractionAgesMs.length);
    gauge(
      'zcode_hub_oldest_pending_interaction_seconds',
      'Age of the oldest pending interaction',
      (s) => Math.max(0, ...s.pendingInteractionAgesMs) / 1000,
    );
    gauge('zcode_hub_backend_restarts', 'Crashes of the app-server child since the daemon started', (s) => s.backend.restarts);
    gauge('zcode_hub_backend_ready', '1 when the app-server child is ready', (s) => (s.backend.state === 'ready' ? 1 : 0));
    gauge('zcode_hub_updates_sent_total', 'Frames sent to clients (counter semantics)', (s) => s.totals.updatesSent);
    gauge('zcode_hub_bytes_sent_total', 'Bytes sent to clients (counter semantics)', (s) => s.totals.bytesSent);
    gauge('zcode_hub_serializations_total', 'Events serialized for broadcast (counter semantics)', (s) => s.totals.serializations);
    gauge('zcode_hub_event_loop_delay_p99_seconds', 'Event-loop delay, 99th percentile since the last scrape', () => {
      const v = delayBeyondIntervalSeconds(this.loopDelay.percentile(99), LOOP_DELAY_RESOLUTION_MS);
      this.loopDelay.reset();
      return v;
    });
  }

  /** Connects the scrape-time source (after the hub and gateway exist). */
  attach(source: MetricsSource): void {
    this.source = source;
  }

  slowConsumerClosed(): void {
    this.slowCloses.inc();
  }

  connectionRefused(limit: string): void {
    this.refusedConnections.inc({ limit });
  }

  interactionAnswered(waitedMs: number): void {
    this.answerSeconds.observe(waitedMs / 1000);
  }

  backendRequestDone(method: string, ms: number, ok: boolean): void {
    this.backendSeconds.observe({ method, outcome: ok ? 'ok' : 'error' }, ms / 1000);
  }

  /** Prometheus text exposition. */
  async render(): Promise<string> {
    const snapshot = this.source?.();
    this.current = snapshot;
    try {
      return await this.registry.metrics();
    } finally {
      // A concurrent scrape may have installed its own snapshot meanwhile; leave that one.
      if (this.current === snapshot) this.current = undefined;
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    this.loopDelay.disable();
    this.registry.clear();
  }
}
