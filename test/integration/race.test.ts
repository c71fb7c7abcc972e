import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpWsClient, HubRequest } from '../helpers/acp-ws-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * The interaction race at volume and across a child crash (ARCHITECTURE.md §4.5). The default suite
 * runs a smaller APR-01; RUN_FAULTS=1 runs the full 1,000 interactions.
 */

const ROUNDS = process.env.RUN_FAULTS === '1' ? 1_000 : 8;
const CLIENTS = 5;

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

const attach = (c: AcpWsClient, sessionId: string) => c.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });

describe('the race', () => {
  it(`[APR-01] ${ROUNDS} interactions × ${CLIENTS} operator clients answering at once: one winner each, losers withdrawn`, {
    timeout: Math.max(60_000, ROUNDS * 3_000),
  }, async () => {
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => hub.initializedClient({ name: `op-${i}` })));
    const [owner] = clients as [AcpWsClient];
    const { sessionId } = await owner.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await Promise.all(clients.slice(1).map((c) => attach(c, sessionId)));
    for (let round = 0; round < ROUNDS; round++) {
      const seen = clients.map((c) => c.requests('session/request_permission').length);
      const turn = owner.request<{ stopReason: string }>('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: `permission round ${round}` }],
      });
      const reqs = await Promise.all(clients.map((c, i) => c.waitFor(() => c.requests('session/request_permission')[seen[i] ?? 0])));
      // Everyone answers in the same tick: exactly one can win.
      reqs.forEach((r: HubRequest, i) => {
        const opts = r.params.options as Array<{ optionId: string; kind: string }>;
        const pick = opts.find((o) => o.kind === (i % 2 === 0 ? 'allow_once' : 'reject_once')) ?? opts[0];
        clients[i]?.answer(r.id, { outcome: { outcome: 'selected', optionId: pick?.optionId } });
      });
      const resolved = await Promise.all(
        clients.map((c) =>
          c.waitFor(
            () =>
              c
                .notifications<{ sessionId: string; resolvedBy?: { name: string; clientId?: string } }>('_zcode/interaction_resolved')
                .filter((p) => p.sessionId === sessionId)[round],
          ),
        ),
      );
      const winners = new Set(resolved.map((r) => r.resolvedBy?.clientId));
      expect(winners.size).toBe(1);
      expect((await turn).stopReason).toBe('end_turn');
      const cancels = clients.reduce((n, c) => n + c.notifications('$/cancel_request').length, 0);
      expect(cancels).toBe((round + 1) * (CLIENTS - 1));
    }
  });

  it('[APR-06] a child crash marks pending interactions lost for everyone; a late answer is refused', async () => {
    const a = await hub.initializedClient({ name: 'crash-a' });
    const b = await hub.initializedClient({ name: 'crash-b' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await attach(b, sessionId);
    const turn = a
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'permission before the crash' }] })
      .catch((e: unknown) => e);
    const req = await b.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    const inbox = await b.request<{ interactions: Array<{ interactionId: string }> }>('_zcode/interactions/list', { sessionId });
    const pid = hub.daemon.backend.status().pid;
    expect(pid).toBeDefined();
    const statesBefore = a.notifications('_zcode/backend_state').length;
    process.kill(pid as number, 'SIGKILL');
    const lost = await Promise.all(
      [a, b].map((c) =>
        c.waitForNotification<{ sessionId: string; state: string }>('_zcode/interaction_resolved', (p) => p.sessionId === sessionId),
      ),
    );
    for (const l of lost) expect(l.state).toBe('lost');
    b.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    const late = await hub.api(`/api/interactions/${inbox.interactions[0]?.interactionId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"optionId":"allow_once"}',
    });
    expect([404, 409]).toContain(late.status);
    await a.waitForNotification<{ state: string }>('_zcode/backend_state', (p) => p.state === 'ready', undefined, statesBefore);
    await turn;
  });
});
