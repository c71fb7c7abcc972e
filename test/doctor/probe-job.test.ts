/** The doctor screen's probe job (src/doctor/probe-job.ts): its states and the one-at-a-time rule. */
import { describe, expect, it } from 'vitest';
import { ProbeJob } from '../../src/doctor/probe-job.js';
import type { ProbeReport } from '../../src/doctor/probe-report.js';

const REPORT: ProbeReport = { hub: '0.0.0', backend: { kind: 'sim' }, verdict: 'pass', rows: [], stderrTail: [] };

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ProbeJob', () => {
  it('idle → running → done, a second start refused while running, then allowed again', async () => {
    let clock = 100;
    const runs: Array<ReturnType<typeof deferred<ProbeReport>>> = [];
    const asked: boolean[] = [];
    const job = new ProbeJob(
      (o) => {
        asked.push(o.prompt);
        const d = deferred<ProbeReport>();
        runs.push(d);
        return d.promise;
      },
      () => clock,
    );
    expect(job.status()).toEqual({ state: 'idle' });
    expect(job.start({ prompt: false })).toBe(true);
    expect(job.status()).toEqual({ state: 'running', startedAt: 100 });
    expect(job.start({ prompt: true })).toBe(false);
    expect(runs).toHaveLength(1);
    clock = 250;
    runs[0]!.resolve(REPORT);
    await job.settled();
    expect(job.status()).toEqual({ state: 'done', startedAt: 100, finishedAt: 250, report: REPORT });
    expect(job.start({ prompt: true })).toBe(true);
    expect(asked).toEqual([false, true]);
    runs[1]!.reject(new Error('--zcode-cli /x does not exist'));
    await job.settled();
    expect(job.status()).toEqual({ state: 'failed', startedAt: 250, finishedAt: 250, error: '--zcode-cli /x does not exist' });
    expect(job.start({ prompt: true })).toBe(true);
    expect(job.status().state).toBe('running');
  });

  it('abort asks the running probe to stop (its signal), and does nothing when none runs', async () => {
    const signals: AbortSignal[] = [];
    const job = new ProbeJob(
      (o) =>
        new Promise<ProbeReport>((resolve) => {
          signals.push(o.signal);
          o.signal.addEventListener('abort', () => resolve({ ...REPORT, verdict: 'fail' }));
        }),
    );
    job.abort();
    job.start({ prompt: true });
    expect(signals[0]?.aborted).toBe(false);
    job.abort();
    await job.settled();
    expect(signals[0]?.aborted).toBe(true);
    expect(job.status()).toMatchObject({ state: 'done', report: { verdict: 'fail' } });
  });
});
