import { describe, expect, it } from 'vitest';
import { restartableHub } from '../helpers/restartable-hub.js';
import { prompt, resolvedOn, setRules } from './helpers.js';

/**
 * Approval rules survive a hub restart (docs/SECURITY.md "Approval rules"): rules stored by one
 * daemon hold, at the same revision, in the next one started on the same state dir, for a session
 * made before the restart — the operator is not offered the request, the admin is.
 */
const { workspace, start } = restartableHub('zch-rules-restart-');

describe('approval rules after a restart', () => {
  it('the rules stored before a restart decide a request of an older session after it', async () => {
    const first = await start();
    await setRules(first, [
      { id: 'admins', description: 'the test suite', match: { command: 'npm test' }, decide: 'ask', approvers: { scopes: ['admin'] } },
    ]);
    const opToken = await first.token('operate', 'ann phone', 'ann');
    const before = await first.initializedClient({ token: opToken, name: 'ann-app' });
    const { sessionId } = await before.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    await first.close();

    const hub = await start();
    const policy = (await (await hub.api('/api/policy')).json()) as { revision: number; rules: Array<{ id: string }> };
    expect(policy.revision).toBe(1);
    expect(policy.rules.map((r) => r.id)).toEqual(['admins']);
    // The operator's token is the one stored before the restart.
    const op = await hub.initializedClient({ token: opToken, name: 'ann-app' });
    const admin = await hub.initializedClient({ name: 'admin-app' });
    for (const c of [op, admin]) await c.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    const turn = prompt(op, sessionId, 'permission please');
    const req = await admin.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    const seen = await op.waitForNotification<{ sessionId: string; interaction: { approval?: { waitingFor: string } } }>(
      '_zcode/interaction_opened',
      (p) => p.sessionId === sessionId,
    );
    expect(seen.interaction.approval?.waitingFor).toBe('waiting for an admin');
    expect(op.requests('session/request_permission')).toHaveLength(0);
    admin.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await resolvedOn(op, sessionId)).resolvedBy?.person).toBe('admin');
    expect((await turn).stopReason).toBe('end_turn');
  });
});
