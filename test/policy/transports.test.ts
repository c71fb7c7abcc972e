import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AcpHttpClient } from '../helpers/acp-http-client.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { until } from '../helpers/until.js';
import { prompt, resolvedOn, setRules, sharedSession } from './helpers.js';

/**
 * Approval rules across transports on a real daemon (docs/SECURITY.md "Approval rules"): a
 * Streamable HTTP client is offered only what it may answer, and requests re-sent after a
 * reconnect go only to eligible connections.
 */

let hub: HubHarness;
let operate: string;
beforeAll(async () => {
  hub = await startHub();
  operate = await hub.token('operate', 'ann phone', 'ann');
  await setRules(hub, [{ id: 'admins', match: { kind: 'execute' }, decide: 'ask', approvers: { scopes: ['admin'] } }]);
});
afterAll(async () => {
  await hub?.close();
});

describe('[POL-06] rules across transports', () => {
  it('requests re-sent on reconnect: the admin who joins later is offered it, the operator who reconnects is not', async () => {
    const op = await hub.initializedClient({ token: operate, name: 'ann-app' });
    const sessionId = await sharedSession(hub, op, []);
    // The prompting socket goes away; its turn runs on without it.
    const turn = prompt(op, sessionId, 'permission please').catch(() => undefined);
    await op.waitForNotification('_zcode/interaction_opened', (p: { sessionId: string }) => p.sessionId === sessionId);
    await op.close();
    const again = await hub.initializedClient({ token: operate, name: 'ann-app' });
    await again.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    await again.waitForNotification('_zcode/interaction_opened', (p: { sessionId: string }) => p.sessionId === sessionId);
    const admin = await hub.initializedClient({ name: 'admin-app' });
    await admin.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const req = await admin.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    admin.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await resolvedOn(again, sessionId)).resolvedBy?.person).toBe('admin');
    await turn;
    expect(again.requests('session/request_permission')).toHaveLength(0);
  });

  it('Streamable HTTP: an operator client is not offered it, an admin one is and answers', async () => {
    const open = async (token: string, name: string) => {
      const c = new AcpHttpClient(hub.url, { authorization: `Bearer ${token}` });
      await c.initialize(name);
      await c.openStream();
      return c;
    };
    const op = await open(operate, 'ann-http');
    const admin = await open(hub.adminToken, 'admin-http');
    const requestsOf = (c: AcpHttpClient) => c.messages.filter((m) => m.method === 'session/request_permission' && m.id !== undefined);
    try {
      const { sessionId } = await op.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
      await admin.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
      const turn = op.request<{ stopReason: string }>('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'permission please' }],
      });
      const req = await until(() => requestsOf(admin)[0], 'the admin to be asked');
      await until(() => op.notifications('_zcode/interaction_opened')[0], 'the operator to see it read-only');
      await admin.answer(req.id as string | number, { outcome: { outcome: 'selected', optionId: 'allow_once' } }, sessionId);
      expect((await turn).stopReason).toBe('end_turn');
      expect(requestsOf(op)).toHaveLength(0);
    } finally {
      op.close();
      admin.close();
    }
  });
});
