import { describe, expect, it } from 'vitest';
import { LIMITS, type Limits } from '../../src/limits.js';
import { BackendFailure, BackendRpcError, type BackendStatus } from '../../src/ports/backend-port.js';
import { BackendLink, type SpawnPlan } from '../../src/backend/backend-link.js';
import { FakeServer, MemoryTransport, quietLogger, waitFor, delay } from './helpers.js';

const plan: SpawnPlan = { kind: 'sim', command: 'node', args: ['sim.js'], env: {}, entry: 'sim.js' };

/** A link whose "children" are in-memory fake servers; `servers[i]` is spawn i. */
function makeLink(opts: { limits?: Partial<Limits>; answerProbe?: boolean; onServer?: (s: FakeServer, i: number) => void } = {}) {
  const servers: FakeServer[] = [];
  const transports: MemoryTransport[] = [];
  const link = new BackendLink({
    kind: 'sim',
    plan: () => plan,
    limits: { ...LIMITS, restartBackoffBaseMs: 10, restartBackoffMaxMs: 40, ...opts.limits },
    askUserQuestionAutoResolution: false,
    logger: quietLogger(),
    random: () => 0.5,
    transportFactory: () => {
      const server = new FakeServer();
      const transport = new MemoryTransport(server, 1000 + servers.length);
      server.onRequest = (m) => {
        if (m.method === 'runtime/capabilities' && opts.answerProbe !== false)
          server.emit({ id: m.id, result: { independentPlanState: true } });
      };
      opts.onServer?.(server, servers.length);
      servers.push(server);
      transports.push(transport);
      return transport;
    },
  });
  const statuses: BackendStatus[] = [];
  link.onStatus((s) => statuses.push(s));
  return { link, servers, transports, statuses };
}

describe('backend link supervision (in-memory children)', () => {
  it('start: starting → ready after the runtime/capabilities probe; epoch 1; start() is idempotent', async () => {
    const { link, statuses, servers } = makeLink();
    await expect(link.request('session/list')).rejects.toMatchObject({ kind: 'not_running' });
    await Promise.all([link.start(), link.start()]);
    expect(servers).toHaveLength(1);
    expect(link.status()).toMatchObject({ state: 'ready', kind: 'sim', epoch: 1, restarts: 0, pid: 1000, command: 'sim.js' });
    expect(statuses.map((s) => s.state)).toEqual(['starting', 'starting', 'ready']);
    await link.close();
  });

  it('[CHD-01] a crash fails in-flight requests with gone at once, then restarting (backoff) → ready with a higher epoch', async () => {
    const { link, transports, statuses } = makeLink();
    await link.start();
    const inflight = link.request('session/list').catch((e: unknown) => e);
    await delay(1);
    const t0 = Date.now();
    transports[0]!.crash({ code: null, signal: 'SIGKILL' });
    const err = await inflight;
    expect(Date.now() - t0).toBeLessThan(2_000); // at once, not at the 30 s request timeout
    expect(err).toBeInstanceOf(BackendFailure);
    expect((err as BackendFailure).kind).toBe('gone');
    expect(link.status()).toMatchObject({ state: 'restarting', nextRetryMs: 10, restarts: 1, lastExit: { signal: 'SIGKILL' } });
    await waitFor(() => link.status().state === 'ready', 2000, 'ready');
    expect(link.status()).toMatchObject({ epoch: 2, restarts: 1, pid: 1001 });
    const states = statuses.map((s) => s.state);
    expect(states.slice(states.indexOf('restarting'))).toContain('ready');
    await link.close();
  });

  it('[CHD-02] crash loop ends in failed (no hot loop); restart() recovers', async () => {
    let healthy = false;
    const { link, transports, servers } = makeLink({
      limits: { crashLoopCount: 3, crashWindowMs: 60_000 },
      onServer: (s) => {
        if (!healthy) queueMicrotask(() => s.transport.crash({ code: 1, signal: null }));
      },
    });
    await link.start();
    await waitFor(() => link.status().state === 'failed', 3000, 'failed');
    expect(link.status()).toMatchObject({ state: 'failed', restarts: 3, epoch: 3 });
    expect(link.status().nextRetryMs).toBeUndefined();
    await delay(150);
    expect(servers).toHaveLength(3); // nothing respawns while failed
    await expect(link.request('session/list')).rejects.toMatchObject({ kind: 'not_running' });
    healthy = true;
    await link.restart();
    expect(link.status()).toMatchObject({ state: 'ready', epoch: 4, restarts: 3 });
    expect(transports).toHaveLength(4);
    await link.close();
  });

  it('a child slower to answer its probe than a (shortened) forward timeout still becomes ready: the probe has backendStartTimeoutMs', async () => {
    const { link, transports } = makeLink({
      answerProbe: false,
      limits: { forwardRequestTimeoutMs: 20 },
      onServer: (s) => {
        s.onRequest = (m) => {
          if (m.method === 'runtime/capabilities') setTimeout(() => s.emit({ id: m.id, result: {} }), 200);
        };
      },
    });
    await link.start();
    expect(link.status().state).toBe('ready');
    expect(transports).toHaveLength(1);
    await link.close();
  });

  it('a child that never answers the liveness probe is killed and restarted', async () => {
    const { link, transports } = makeLink({ answerProbe: false, limits: { backendStartTimeoutMs: 50, crashLoopCount: 2 } });
    await link.start();
    expect(transports[0]!.closed).toBe(true);
    expect(link.status().lastExit?.reason).toMatch(/liveness probe failed/);
    await waitFor(() => link.status().state === 'failed', 3000, 'failed');
    await link.close();
  });

  it('[CHD-08] -32004 → one shared session/resume, onSessionResumed, then a single retry', async () => {
    let resumes = 0;
    const active = new Set<string>();
    const { link } = makeLink({
      onServer: (s) => {
        s.onRequest = (m) => {
          const sid = (m.params as { sessionId?: string } | undefined)?.sessionId ?? '';
          if (m.method === 'runtime/capabilities') s.emit({ id: m.id, result: {} });
          else if (m.method === 'session/resume') {
            resumes++;
            setTimeout(() => {
              active.add(sid);
              s.emit({ id: m.id, result: { session: { sessionId: sid } } });
            }, 20);
          } else if (!active.has(sid)) s.emit({ id: m.id, error: { code: -32004, message: `Session is not active: ${sid}` } });
          else s.emit({ id: m.id, result: { ok: m.method } });
        };
      },
    });
    const resumed: string[] = [];
    link.onSessionResumed((sid) => resumed.push(sid));
    await link.start();
    const results = await Promise.all([
      link.request('session/read', { sessionId: 's1' }),
      link.request('session/subscribe', { sessionId: 's1', deliveryKind: 'web-remote-replayable' }),
      link.request('session/messages', { sessionId: 's1' }),
    ]);
    expect(results).toEqual([{ ok: 'session/read' }, { ok: 'session/subscribe' }, { ok: 'session/messages' }]);
    expect(resumes).toBe(1);
    expect(resumed).toEqual(['s1']);
    await expect(link.request('session/read', { sessionId: 's2' }, { noResumeRetry: true })).rejects.toMatchObject({ code: -32004 });
    expect(resumes).toBe(1);
    await link.close();
  });

  it('[CHD-08] no resume for "Session not found", and a failed resume rejects with its own error', async () => {
    let resumes = 0;
    const { link } = makeLink({
      onServer: (s) => {
        s.onRequest = (m) => {
          if (m.method === 'runtime/capabilities') s.emit({ id: m.id, result: {} });
          else if (m.method === 'session/subagents') s.emit({ id: m.id, error: { code: -32004, message: 'Session not found: zz' } });
          else if (m.method === 'session/resume') {
            resumes++;
            s.emit({ id: m.id, error: { code: -32004, message: 'Session not found: gone' } });
          } else s.emit({ id: m.id, error: { code: -32004, message: 'Session is not active: gone' } });
        };
      },
    });
    await link.start();
    await expect(link.request('session/subagents', { sessionId: 'zz' })).rejects.toMatchObject({
      code: -32004,
      message: 'Session not found: zz',
    });
    expect(resumes).toBe(0);
    const err = await link.request('session/read', { sessionId: 'gone' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendRpcError);
    expect(err).toMatchObject({ method: 'session/resume', message: 'Session not found: gone' });
    expect(resumes).toBe(1);
    await link.close();
  });

  it('delivers notifications of the current child only, in order', async () => {
    const { link, servers } = makeLink();
    const seen: string[] = [];
    link.onNotification((n) => seen.push(`${n.method}:${JSON.stringify(n.params)}`));
    await link.start();
    servers[0]!.emit({ method: 'session/event', params: { seq: 1 } });
    servers[0]!.emit({ method: 'session/event', params: { seq: 2 } });
    const old = servers[0]!;
    await link.restart();
    old.transport.deliver({ kind: 'notification', method: 'session/event', params: { seq: 99 } });
    expect(seen).toEqual(['session/event:{"seq":1}', 'session/event:{"seq":2}']);
    await link.close();
  });

  it('close() is memoised, rejects pending requests with closed, ends stopped; later calls fail closed', async () => {
    const { link, statuses } = makeLink();
    await link.start();
    const pending = link.request('session/list').catch((e: unknown) => e);
    await delay(1);
    const a = link.close();
    const b = link.close();
    expect(a).toBe(b);
    await a;
    expect(await pending).toMatchObject({ kind: 'closed' });
    expect(link.status().state).toBe('stopped');
    expect(statuses.at(-1)?.state).toBe('stopped');
    await expect(link.request('session/list')).rejects.toMatchObject({ kind: 'closed' });
    await expect(link.start()).rejects.toMatchObject({ kind: 'closed' });
    await expect(link.restart()).rejects.toMatchObject({ kind: 'closed' });
  });

  it('close() during the backoff wait cancels the respawn', async () => {
    const { link, transports, servers } = makeLink({ limits: { restartBackoffBaseMs: 200, restartBackoffMaxMs: 200 } });
    await link.start();
    transports[0]!.crash();
    expect(link.status().state).toBe('restarting');
    await link.close();
    await delay(300);
    expect(servers).toHaveLength(1);
    expect(link.status().state).toBe('stopped');
  });

  it('a plan that throws leaves the link failed with the reason', async () => {
    const link = new BackendLink({
      kind: 'zcode',
      plan: () => {
        throw new Error('state dir not writable');
      },
      limits: { ...LIMITS },
      askUserQuestionAutoResolution: false,
      logger: quietLogger(),
    });
    await expect(link.start()).rejects.toThrow('state dir not writable');
    expect(link.status()).toMatchObject({ state: 'failed', lastExit: { reason: expect.stringContaining('state dir not writable') } });
    await link.close();
  });
});
