import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { openIdle, type TrackedSocket } from '../security/helpers/sockets.js';
import { FULL, scale } from './fault-scale.js';

/**
 * The idle-socket flood at full size (RUN_FAULTS=1): 10,000 idle sockets opened against a real daemon
 * with its default limits, a batch of each kind in turn: some send nothing; some send the
 * head of a `POST /api/pair` with a body that never comes (the pre-auth deadline is satisfied by a
 * complete head, and before the fix nothing else bounded such a socket: that is how ~20k of them
 * ran the hub out of file descriptors); some ask the public `/api/health` and keep the connection
 * alive. The unauthenticated-connection caps keep what the hub holds bounded. While
 * the flood is open, /api/health answers, a client that authenticated before the flood can still
 * prompt, and a new authenticated client can connect and prompt. Everyday runs open 600.
 */
const SOCKETS = scale(10_000, 600);
/** Sockets opened together, of one kind; every kind has its batches at either size. */
const BATCH = scale(500, 200);

describe(`[SEC-12] a flood of ${SOCKETS} idle sockets${FULL ? '' : ' (everyday size; RUN_FAULTS=1 for 10,000)'}`, () => {
  let hub: HubHarness;
  const flood: TrackedSocket[] = [];
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    for (const t of flood) t.socket.destroy();
    await hub?.close();
  });

  it('leaves /api/health, an authenticated client and a new one answering; the unauthenticated sockets stay under the cap', {
    timeout: FULL ? 300_000 : 60_000,
  }, async () => {
    const early = await hub.initializedClient();
    const { sessionId } = await early.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const host = `Host: 127.0.0.1:${hub.daemon.port}\r\n`;
    // In turn, a batch at a time: silent; a body that never comes; a public request answered, then the connection kept alive.
    const kinds = [
      undefined,
      `POST /api/pair HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
      `GET /api/health HTTP/1.1\r\n${host}Connection: keep-alive\r\n\r\n`,
    ];
    for (let i = 0; i < SOCKETS; i += BATCH)
      flood.push(...(await openIdle(hub.daemon.port, Math.min(BATCH, SOCKETS - i), undefined, kinds[(i / BATCH) % kinds.length])));
    // Every socket was accepted and most were closed again: the hub holds no more than its cap.
    await expect
      .poll(() => flood.filter((t) => !t.closed).length, { timeout: 30_000 })
      .toBeLessThanOrEqual(LIMITS.unauthConnectionsPerAddress);
    const health = await fetch(`${hub.url}/api/health`);
    expect(health.status).toBe(200);
    const again = await early.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'still here' }],
    });
    expect(again.stopReason).toBe('end_turn');
    const late = await hub.initializedClient();
    const { sessionId: other } = await late.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    expect(
      (await late.request<{ stopReason: string }>('session/prompt', { sessionId: other, prompt: [{ type: 'text', text: 'hello' }] }))
        .stopReason,
    ).toBe('end_turn');
    expect((await hub.api('/api/me')).status).toBe(200);
  });
});
