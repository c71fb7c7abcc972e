/**
 * The backend link against the real simulator child's fault switches (src/simulator/faults.ts):
 * crash and respawn, crash loop, junk and oversize lines, a child that stops reading stdin, a
 * request never answered, SIGTERM ignored, stderr floods, and orphan cleanup from a pidfile.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendFailure } from '../../src/ports/backend-port.js';
import { simulatorSpawnSpec } from '../../src/simulator/launcher.js';
import { readPidfile, writePidfile } from '../../src/backend/pidfile.js';
import { BACKEND_BOUNDS } from '../../src/backend/bounds.js';
import { pidAlive, simLink, type SimLink } from './sim-harness.js';
import { delay, waitFor } from './helpers.js';

const open: SimLink[] = [];
const cleanups: Array<() => void> = [];
function harness(...args: Parameters<typeof simLink>): SimLink {
  const h = simLink(...args);
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) await h.dispose();
  for (const c of cleanups.splice(0)) c();
});

async function createSession(h: SimLink): Promise<string> {
  const snap = (await h.link.request('session/create', { workspace: { workspacePath: h.home, workspaceKey: h.home } })) as {
    session: { sessionId: string };
  };
  return snap.session.sessionId;
}

/** A child that stays alive but stops reading its stdin — the situation CHD-04/06 are about. */
const STOP_READING = ['--stop-reading-stdin'];

function childHandles(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'ProcessWrap' || r === 'PipeWrap').length;
}

describe('backend link × simulator: faults', () => {
  it('[CHD-01] SIGKILL of the child: in-flight requests fail "gone" within 100 ms, restarting → ready with a higher epoch, handles flat', async () => {
    const h = harness({ simArgs: ['--never-answer', 'session/list'], limits: { restartBackoffBaseMs: 100, restartBackoffMaxMs: 400 } });
    await h.link.start();
    await createSession(h);
    const baseline = childHandles();
    for (let round = 1; round <= 3; round++) {
      const pid = h.link.status().pid!;
      const inflight = [h.link.request('session/list').catch((e: unknown) => e), h.link.request('session/list').catch((e: unknown) => e)];
      await delay(30);
      const t0 = performance.now();
      process.kill(pid, 'SIGKILL');
      const errors = await Promise.all(inflight);
      const elapsed = performance.now() - t0;
      for (const e of errors) {
        expect(e).toBeInstanceOf(BackendFailure);
        expect((e as BackendFailure).kind).toBe('gone');
      }
      // The forward timeout is 30 s: well under it proves the exit (not the timeout) failed them.
      // The 100 ms target itself is measured by the benchmarks, not asserted on a shared machine.
      expect(elapsed).toBeLessThan(2_000);
      expect(h.link.status()).toMatchObject({ state: 'restarting', restarts: round, lastExit: { signal: 'SIGKILL' } });
      await expect(h.link.request('session/list')).rejects.toMatchObject({ kind: 'not_running' });
      await waitFor(() => h.link.status().state === 'ready', 10_000, 'ready again');
      expect(h.link.status().epoch).toBe(round + 1);
      expect(h.link.status().pid).not.toBe(pid);
      expect(pidAlive(pid)).toBe(false);
      await createSession(h); // the new child works
    }
    const states = h.statuses.map((s) => `${s.state}@${s.epoch}`);
    expect(states).toContain('restarting@1');
    expect(states).toContain('ready@2');
    expect(states.indexOf('ready@4')).toBeGreaterThan(states.indexOf('restarting@3'));
    await waitFor(() => childHandles() <= baseline, 2_000, 'handles back to baseline');
  });

  it('[CHD-02] a child that exits at once: backoff doubles with jitter, failed after the crash-loop count, idle meanwhile; restart() recovers', async () => {
    let broken = true;
    const h = harness({
      limits: { restartBackoffBaseMs: 50, restartBackoffMaxMs: 150, crashLoopCount: 4, crashWindowMs: 60_000 },
      simulatorSpawnSpec: (extra) => simulatorSpawnSpec(broken ? [...extra, '--exit-immediately'] : extra),
    });
    await h.link.start();
    await waitFor(() => h.link.status().state === 'failed', 15_000, 'failed');
    expect(h.link.status()).toMatchObject({ state: 'failed', restarts: 4, epoch: 4, lastExit: { code: 1 } });
    expect(h.link.status().nextRetryMs).toBeUndefined();
    const delays = h.statuses.filter((s) => s.state === 'restarting' && s.nextRetryMs !== undefined).map((s) => s.nextRetryMs!);
    expect(delays).toHaveLength(3);
    const expected = [50, 100, 150];
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(Math.floor(expected[i]! * 0.8));
      expect(d).toBeLessThanOrEqual(Math.min(150, Math.ceil(expected[i]! * 1.2)));
    });
    expect(h.link.stderrTail().join('\n')).toMatch(/exit-immediately/);
    await delay(400);
    expect(h.link.status()).toMatchObject({ state: 'failed', epoch: 4 }); // no hot loop
    broken = false;
    await h.link.restart();
    expect(h.link.status()).toMatchObject({ state: 'ready', epoch: 5, restarts: 4 });
    await createSession(h);
  });

  it('[CHD-03] junk lines (non-JSON, invalid UTF-8, JSON that is no envelope) are skipped with rate-limited warnings', async () => {
    const h = harness({ simArgs: ['--junk-lines'] });
    await h.link.start();
    const t0 = Date.now();
    for (let i = 0; i < 20; i++) await h.link.request('session/list', {});
    await createSession(h);
    const elapsedS = (Date.now() - t0) / 1000;
    const warnings = h.log.find('skipped a backend stdout line that is not a protocol message');
    const reasons = new Set(warnings.map((w) => w.reason));
    expect(reasons.has('not-json') || reasons.has('invalid-utf8') || reasons.has('not-envelope')).toBe(true);
    expect(warnings.length).toBeLessThanOrEqual(BACKEND_BOUNDS.junkWarningsPerSecond * (Math.ceil(elapsedS) + 1));
    expect(h.link.status()).toMatchObject({ state: 'ready', restarts: 0 });
    await h.link.close();
    expect(h.log.find('backend junk-line warnings not logged (rate limit)').length).toBeGreaterThanOrEqual(1);
  });

  it('[CHD-03] an oversize stdout line is skipped, not fatal: the child lives on; memory stays bounded', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const h = harness({ simArgs: ['--oversize-line', String(8 * 1024 * 1024)], limits: { childStdoutLineBytes: 1024 * 1024 } });
    await h.link.start();
    await waitFor(() => h.link.status().state === 'ready', 15_000, 'ready');
    // The answer glued to the huge line is lost with it: that one request times out …
    await expect(h.link.request('session/list', {}, { timeoutMs: 1500 })).rejects.toMatchObject({ kind: 'timeout' });
    // … and the next one is answered by the same child.
    await expect(h.link.request('session/list', {})).resolves.toMatchObject({ sessions: expect.any(Array) });
    expect(h.link.status()).toMatchObject({ state: 'ready', restarts: 0, epoch: 1 });
    expect(h.log.find('backend wrote a line over the line cap; skipped it')).toHaveLength(1);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
    await h.link.close();
  });

  it('[CHD-04] a child that stops reading stdin: the queue stays under its cap and further requests fail fast with "overloaded"', async () => {
    const cap = 256 * 1024;
    const h = harness({ simArgs: [...STOP_READING], limits: { childStdinQueueBytes: cap, stopGraceMs: 300 } });
    await h.link.start();
    const pad = 'x'.repeat(32 * 1024);
    const pending: Promise<unknown>[] = [];
    let overloaded: BackendFailure | undefined;
    let elapsed = 0;
    for (let i = 0; i < 64 && !overloaded; i++) {
      const t0 = performance.now();
      const p = h.link.request('session/list', { pad }, { timeoutMs: 60_000 });
      const outcome = await Promise.race([
        p.then(
          () => 'answered',
          (e: unknown) => e,
        ),
        delay(20).then(() => 'waiting'),
      ]);
      if (outcome instanceof BackendFailure && outcome.kind === 'overloaded') {
        overloaded = outcome;
        elapsed = performance.now() - t0;
      } else pending.push(p.catch((e: unknown) => e));
    }
    expect(overloaded).toBeDefined();
    expect(elapsed).toBeLessThan(1_000); // fails fast: no waiting for the 60 s timeout
    const diag = h.link.diagnostics();
    expect(diag.stdinQueuedBytes).toBeGreaterThan(0);
    expect(diag.stdinQueuedBytes).toBeLessThanOrEqual(cap);
    expect(diag.pendingRequests).toBe(pending.length);
    // A second request fails fast too, and nothing was added to the queue.
    await expect(h.link.request('session/list', { pad })).rejects.toMatchObject({ kind: 'overloaded' });
    expect(h.link.diagnostics().stdinQueuedBytes).toBe(diag.stdinQueuedBytes);
    await h.link.close();
    for (const e of await Promise.all(pending)) expect(e).toMatchObject({ kind: 'closed' });
  });

  it('[CHD-05] a request the child never answers is rejected at its timeout and nothing leaks', async () => {
    const h = harness({ simArgs: ['--never-answer', 'session/list'] });
    await h.link.start();
    const t0 = Date.now();
    const err = await h.link.request('session/list', {}, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(err).toBeInstanceOf(BackendFailure);
    expect(err).toMatchObject({ kind: 'timeout', method: 'session/list' });
    expect(h.link.diagnostics().pendingRequests).toBe(0);
    await expect(h.link.request('runtime/capabilities')).resolves.toEqual({ independentPlanState: true });
    expect(h.link.diagnostics().pendingRequests).toBe(0);
  });

  it('[CHD-06] close() with a child that ignores stdin EOF and SIGTERM: the ladder reaches SIGKILL; no orphan, pidfile gone', async () => {
    const h = harness({ simArgs: ['--ignore-sigterm', ...STOP_READING], limits: { stopGraceMs: 300 } });
    await h.link.start();
    const pid = h.link.status().pid!;
    expect(readPidfile(path.join(h.stateDir, 'backend.pid'))?.pid).toBe(pid);
    // Fill the child's unread input so it never sees our EOF (an empty paused pipe still reports it).
    const stuck = Array.from({ length: 8 }, () => h.link.request('session/list', { pad: 'x'.repeat(32 * 1024) }).catch((e: unknown) => e));
    await delay(50);
    const t0 = Date.now();
    await h.link.close();
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(10_000);
    expect(pidAlive(pid)).toBe(false);
    expect(h.log.find('backend did not exit after stdin EOF; sending SIGTERM')).toHaveLength(1);
    expect(h.log.find('backend ignored SIGTERM; sending SIGKILL')).toHaveLength(1);
    expect(h.link.status()).toMatchObject({ state: 'stopped', lastExit: { signal: 'SIGKILL' } });
    expect(fs.existsSync(path.join(h.stateDir, 'backend.pid'))).toBe(false);
    for (const e of await Promise.all(stuck)) expect(e).toMatchObject({ kind: 'closed' });
    expect(h.link.close()).toBe(h.link.close()); // memoised, harmless
  });

  it('[CHD-06] close() with a well-behaved child stops at the first rung (stdin EOF)', async () => {
    const h = harness({ simArgs: ['--ignore-sigterm'], limits: { stopGraceMs: 5_000 } });
    await h.link.start();
    const pid = h.link.status().pid!;
    const t0 = Date.now();
    await h.link.close();
    expect(Date.now() - t0).toBeLessThan(4_000); // never reached the SIGTERM rung (5 s)
    expect(pidAlive(pid)).toBe(false);
    expect(h.log.find('backend did not exit after stdin EOF; sending SIGTERM')).toHaveLength(0);
  });

  it('a stderr flood is drained (the child keeps answering), logged at the rate limit, and kept in a bounded ring', async () => {
    const h = harness({ simArgs: ['--flood-stderr'], limits: { stderrLogLinesPerSecond: 20, stderrRingLines: 50 } });
    await h.link.start();
    const t0 = Date.now();
    await delay(700);
    for (let i = 0; i < 5; i++) await createSession(h);
    const elapsedS = (Date.now() - t0) / 1000;
    const tail = h.link.stderrTail();
    expect(tail.length).toBe(50);
    expect(tail.at(-1)).toMatch(/flood/);
    expect(h.log.find('backend stderr').length).toBeLessThanOrEqual(20 * (Math.ceil(elapsedS) + 2));
  });

  it('a child orphaned by a killed hub is found through the stale pidfile and stopped on the next start', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-orphan-'));
    cleanups.push(() => fs.rmSync(stateDir, { recursive: true, force: true }));
    const spec = simulatorSpawnSpec(['--data-dir', path.join(stateDir, 'orphan-sim')]);
    const orphan = spawn(spec.command, spec.args, { stdio: ['pipe', 'ignore', 'ignore'] });
    cleanups.push(() => orphan.kill('SIGKILL'));
    await new Promise((r) => orphan.once('spawn', r));
    const exited = new Promise<NodeJS.Signals | null>((r) => orphan.once('exit', (_code, signal) => r(signal)));
    writePidfile(path.join(stateDir, 'backend.pid'), { pid: orphan.pid!, startedAt: Date.now(), command: [spec.command, ...spec.args] });
    // and an unrelated live process under a stale pidfile is never touched
    const h = harness({ stateDir });
    await h.link.start();
    expect(await exited).toBe('SIGTERM');
    expect(h.link.status().state).toBe('ready');
    expect(readPidfile(path.join(stateDir, 'backend.pid'))?.pid).toBe(h.link.status().pid);
    expect(h.log.find('stopping a backend child orphaned by a previous hub')).toHaveLength(1);
  });

  it('a stale pidfile whose pid now runs another program leaves that program alone', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-orphan-'));
    cleanups.push(() => fs.rmSync(stateDir, { recursive: true, force: true }));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    cleanups.push(() => other.kill('SIGKILL'));
    await new Promise((r) => other.once('spawn', r));
    writePidfile(path.join(stateDir, 'backend.pid'), {
      pid: other.pid!,
      startedAt: Date.now(),
      command: [process.execPath, '/opt/ZCode/resources/glm/zcode.cjs', 'app-server'],
    });
    const h = harness({ stateDir });
    await h.link.start();
    expect(pidAlive(other.pid!)).toBe(true);
    expect(h.link.status().state).toBe('ready');
  });
});
