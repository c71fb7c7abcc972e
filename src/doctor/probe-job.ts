/**
 * The daemon's `doctor --probe` for the web app's doctor screen (`POST /api/doctor/probe`): one
 * probe at a time, run in the background because a real CLI's probe outlasts an HTTP request
 * (two turns of up to limits.probeTurnTimeoutMs each), its last outcome kept for `GET`.
 *
 *   idle ──start──▶ running ──report──▶ done
 *                      │  ▲               │
 *                      │  └────start──────┤ (and from failed)
 *                      └──error──▶ failed ┘
 *
 * `start` while running is refused (the caller answers 409); `abort` (shutdown) asks a running
 * probe to stop its child and finish early. The run itself is injected.
 */
import type { ProbeReport } from './probe-report.js';

export type ProbeJobState =
  | { state: 'idle' }
  | { state: 'running'; startedAt: number }
  | { state: 'done'; startedAt: number; finishedAt: number; report: ProbeReport }
  | { state: 'failed'; startedAt: number; finishedAt: number; error: string };

export class ProbeJob {
  private current: ProbeJobState = { state: 'idle' };
  private running: Promise<void> | undefined;
  private controller: AbortController | undefined;

  constructor(
    private readonly run: (options: { prompt: boolean; signal: AbortSignal }) => Promise<ProbeReport>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The state, as the route answers it. */
  status(): ProbeJobState {
    return this.current;
  }

  /** Starts a probe; false (and nothing changes) while one runs. */
  start(options: { prompt: boolean }): boolean {
    if (this.current.state === 'running') return false;
    const startedAt = this.now();
    this.current = { state: 'running', startedAt };
    const controller = new AbortController();
    this.controller = controller;
    this.running = this.run({ ...options, signal: controller.signal }).then(
      (report) => {
        this.current = { state: 'done', startedAt, finishedAt: this.now(), report };
      },
      (err: unknown) => {
        this.current = { state: 'failed', startedAt, finishedAt: this.now(), error: err instanceof Error ? err.message : String(err) };
      },
    );
    return true;
  }

  /** Abandons a running probe (its run stops its child and finishes early); nothing when none runs. */
  abort(): void {
    if (this.current.state === 'running') this.controller?.abort();
  }

  /** Resolves when no probe runs (shutdown waits for the probe's child to be stopped). */
  async settled(): Promise<void> {
    await this.running;
  }
}
