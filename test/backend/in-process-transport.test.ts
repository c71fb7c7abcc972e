/**
 * The in-process transport (src/backend/in-process-transport.ts) with the real simulator core
 * running in this process: the Transport contract (onclose exactly once, EOF drain, abort), the
 * same framing and bounds as a child's pipe, the simulator's faults that work without a process,
 * the ones it refuses, and no process-wide side effects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessTransport } from '../../src/backend/in-process-transport.js';
import type { IncomingMessage } from '../../src/backend/envelope.js';
import { LineRing } from '../../src/backend/stderr-ring.js';
import type { TransportCloseInfo } from '../../src/backend/transport.js';
import { BackendFailure } from '../../src/ports/backend-port.js';
import { startSimulatorInProcess } from '../../src/simulator/index.js';
import { captureLogger, waitFor } from './helpers.js';
import { simLink, type SimLink } from './sim-harness.js';

const open: SimLink[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.dispose();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function harness(options: Parameters<typeof simLink>[0] = {}): SimLink {
  const h = simLink({ ...options, inProcess: true });
  open.push(h);
  return h;
}

/** A bare transport over the simulator, recording what it delivers. */
function bare(argv: string[] = [], bounds: { stdinQueueBytes?: number; stopGraceMs?: number } = {}) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-inproc-'));
  dirs.push(home);
  const ring = new LineRing(50);
  const log = captureLogger('debug');
  const transport = new InProcessTransport(
    startSimulatorInProcess,
    { argv: ['--data-dir', path.join(home, 'sim'), '--log-level', 'warn', ...argv], env: { HOME: home } },
    {
      maxLineBytes: 1024 * 1024,
      stdinQueueBytes: bounds.stdinQueueBytes ?? 1024 * 1024,
      stopGraceMs: bounds.stopGraceMs ?? 2_000,
      stderrLinesPerSecond: 100,
      stderrRing: ring,
      logger: log.logger,
    },
  );
  const messages: IncomingMessage[] = [];
  const closes: TransportCloseInfo[] = [];
  transport.onmessage = (m) => messages.push(m);
  transport.onclose = (info) => closes.push(info);
  return { transport, messages, closes, ring, log, home };
}

const probe = { id: 1, method: 'runtime/capabilities', params: {} } as const;

describe('in-process transport × simulator', () => {
  it('answers over the same ndjson lines; close() ends input, waits for the EOF drain, fires onclose once with code 0', async () => {
    const { transport, messages, closes } = bare();
    await transport.start();
    transport.send(probe, 'runtime/capabilities');
    await waitFor(() => messages.length === 1, 10_000, 'the probe answer');
    expect(messages[0]).toMatchObject({ id: 1, result: { independentPlanState: true } });
    const first = transport.close();
    expect(transport.close()).toBe(first); // memoised
    await first;
    expect(closes).toEqual([{ code: 0, signal: null }]);
    expect(() => transport.send({ ...probe, id: 2 }, 'runtime/capabilities')).toThrow(BackendFailure);
    transport.abort('late');
    expect(closes).toHaveLength(1);
  });

  it('abort() stops the simulator at once: onclose once, code null, the reason kept; send is then refused as gone', async () => {
    const { transport, closes } = bare();
    await transport.start();
    transport.abort('test abort');
    transport.abort('second abort');
    await waitFor(() => closes.length === 1, 5_000, 'onclose');
    expect(closes[0]).toEqual({ code: null, signal: null, reason: 'test abort' });
    let thrown: unknown;
    try {
      transport.send(probe, 'runtime/capabilities');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ kind: 'gone', method: 'runtime/capabilities' });
    await transport.close();
    expect(closes).toHaveLength(1);
  });

  it('[CHD-04] a send over the input cap fails fast with "overloaded"', () => {
    const { transport } = bare([], { stdinQueueBytes: 32 });
    return transport.start().then(async () => {
      expect(() => transport.send(probe, 'runtime/capabilities')).toThrow(expect.objectContaining({ kind: 'overloaded' }));
      await transport.close();
    });
  });

  it('faults a process cannot be spared are refused by name: start rejects, onclose fires once, the reason is in the stderr ring', async () => {
    for (const flag of ['--ignore-sigterm', '--stop-reading-stdin']) {
      const { transport, closes, ring } = bare([flag]);
      await expect(transport.start()).rejects.toThrow(new RegExp(`cannot run in-process: ${flag}`));
      expect(closes).toHaveLength(1);
      expect(closes[0]?.reason).toMatch(new RegExp(`^start failed: .*${flag}`));
      expect(ring.toArray().join('\n')).toContain(flag);
    }
    const unknown = bare(['--scenario', 'no-such-scenario']);
    await expect(unknown.transport.start()).rejects.toThrow(/Unknown scenario: no-such-scenario/);
  });

  it('--exit-immediately ends with code 1 and its stderr line, as the child does', async () => {
    const { transport, closes, ring } = bare(['--exit-immediately']);
    await transport.start();
    await waitFor(() => closes.length === 1, 5_000, 'onclose');
    expect(closes[0]).toEqual({ code: 1, signal: null });
    expect(ring.toArray()).toContain('zcode-sim: fault --exit-immediately: exiting with code 1');
  });

  it('touches nothing process-wide: no signal handlers, global workflows under the HOME it was given', async () => {
    const before = { usr2: process.listenerCount('SIGUSR2'), term: process.listenerCount('SIGTERM') };
    const h = harness();
    await h.link.start();
    expect(process.listenerCount('SIGUSR2')).toBe(before.usr2);
    expect(process.listenerCount('SIGTERM')).toBe(before.term);
    const list = (await h.link.request('workflows/list', {
      workspace: { workspacePath: h.home, workspaceKey: h.home },
      scope: 'global',
    })) as {
      dir: string;
    };
    expect(list.dir).toBe(path.join(h.home, '.zcode', 'workflows'));
    expect(h.link.status()).not.toHaveProperty('pid');
    expect(fs.existsSync(path.join(h.stateDir, 'backend.pid'))).toBe(false);
  });
});

describe('backend link × in-process simulator: faults with the same observable effect as a child', () => {
  it('[CHD-01] --crash-after-events ends the run with exit code 1: restarting → ready with a higher epoch', async () => {
    const h = harness({ simArgs: ['--crash-after-events', '1'], limits: { restartBackoffBaseMs: 10, restartBackoffMaxMs: 40 } });
    await h.link.start();
    const ws = { workspacePath: h.home, workspaceKey: h.home };
    const snap = (await h.link.request('session/create', { workspace: ws })) as { session: { sessionId: string } };
    const sid = snap.session.sessionId;
    await h.link.request('session/subscribe', { sessionId: sid, deliveryKind: 'web-remote-replayable' });
    await h.link.request('session/send', { sessionId: sid, content: 'hello' }).catch(() => {});
    await waitFor(() => h.link.status().restarts >= 1, 10_000, 'a restart');
    expect(h.link.status().lastExit).toMatchObject({ code: 1, signal: null });
    await waitFor(() => h.link.status().state === 'ready', 10_000, 'ready again');
    expect(h.link.status().epoch).toBeGreaterThanOrEqual(2);
  });

  it('[CHD-03] junk lines and an oversize line are skipped exactly as from a pipe; the simulator lives on', async () => {
    const h = harness({
      simArgs: ['--junk-lines', '--oversize-line', String(2 * 1024 * 1024)],
      limits: { childStdoutLineBytes: 1024 * 1024 },
    });
    await h.link.start();
    await waitFor(() => h.link.status().state === 'ready', 10_000, 'ready');
    // The answer glued to the huge line is lost with it; the next one is answered.
    await expect(h.link.request('session/list', {}, { timeoutMs: 1_000 })).rejects.toMatchObject({ kind: 'timeout' });
    await expect(h.link.request('session/list', {})).resolves.toMatchObject({ sessions: expect.any(Array) });
    expect(h.log.find('backend wrote a line over the line cap; skipped it')).toHaveLength(1);
    const reasons = new Set(h.log.find('skipped a backend stdout line that is not a protocol message').map((w) => w.reason));
    expect(reasons.has('not-json') || reasons.has('invalid-utf8') || reasons.has('not-envelope')).toBe(true);
    expect(h.link.diagnostics().junkLines).toBeGreaterThan(1);
    expect(h.link.status()).toMatchObject({ state: 'ready', restarts: 0, epoch: 1 });
  });

  it('the simulator logs into the stderr ring, not onto this process; close() stops at EOF', async () => {
    const h = harness({ simArgs: ['--log-level', 'info'] });
    await h.link.start();
    await waitFor(() => h.link.stderrTail().some((l) => l.includes('zcode simulator ready')), 5_000, 'the ready line in the ring');
    await h.link.close();
    expect(h.link.status()).toMatchObject({ state: 'stopped', lastExit: { code: 0, signal: null } });
    expect(h.log.find(/did not stop after input EOF/)).toHaveLength(0);
  });
});
