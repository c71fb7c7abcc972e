import { describe, expect, it } from 'vitest';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { until } from '../helpers/until.js';
import { prompt, resolvedOn, setRules } from './helpers.js';

/**
 * Approval rules across restarts (docs/SECURITY.md "Approval rules"): rules stored by one daemon
 * hold, at the same revision, in the next one started on the same state dir, for a session made
 * before the restart — the operator is not offered the request, the admin is; and after the
 * agent's child restarts, a request re-sent to clients resuming from the old epoch goes only to
 * those the rules let answer it.
 */
const { workspace, start } = restartableHub('zch-rules-restart-');
/** A state dir of its own for the child-restart case: two hubs never share one. */
const resend = restartableHub('zch-rules-resend-');

interface Journaled {
  sessionId: string;
  _meta: { zcode: { seq: number; epoch: string } };
}

/** Where a client's journal stands in a session: what it would resume from. */
function position(c: AcpWsClient, sessionId: string): { afterSeq: number; epoch: string } {
  const last = c
    .journaled<Journaled>()
    .filter((u) => u.sessionId === sessionId)
    .at(-1);
  if (!last) throw new Error('no journaled update seen');
  return { afterSeq: last._meta.zcode.seq, epoch: last._meta.zcode.epoch };
}

describe('[POL-06] approval rules after a restart', () => {
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

  it('a request re-sent after a child restart, to clients resuming from the old epoch, goes only where the rules let it', async () => {
    const hub = await resend.start();
    await setRules(hub, [{ id: 'admins', match: { command: 'npm test' }, decide: 'ask', approvers: { scopes: ['admin'] } }]);
    const opToken = await hub.token('operate', 'bea phone', 'bea');
    const op = await hub.initializedClient({ token: opToken, name: 'bea-app' });
    const admin = await hub.initializedClient({ name: 'admin-app' });
    const { sessionId } = await op.request<{ sessionId: string }>('session/new', { cwd: resend.workspace, mcpServers: [] });
    await admin.request('session/load', { sessionId, cwd: resend.workspace, mcpServers: [] });
    await prompt(op, sessionId, 'hello');
    const opWas = position(op, sessionId);
    const adminWas = position(admin, sessionId);

    // The child is killed and respawned: a new epoch, which no client's position belongs to.
    const pid = hub.daemon.backend.status().pid;
    process.kill(pid as number, 'SIGKILL');
    await until(() => hub.daemon.backend.status().pid !== pid && hub.daemon.backend.status().state === 'ready', 'the child respawned');
    // A request raised in the new epoch while both are attached; then both connections go.
    const turn = prompt(op, sessionId, 'permission please').catch(() => undefined);
    await op.waitForNotification('_zcode/interaction_opened', (p: { sessionId: string }) => p.sessionId === sessionId);
    await admin.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    await Promise.all([op.close(), admin.close()]);

    // Both come back from where they were, before the restart: a rebuilt replay, then the re-send.
    const resume = async (token: string | undefined, name: string, was: { afterSeq: number; epoch: string }) => {
      const c = await hub.initializedClient({ ...(token ? { token } : {}), name });
      const res = await c.request<{ _meta: { zcode: { replayMeta: { recovered: boolean } } } }>('session/resume', {
        sessionId,
        cwd: resend.workspace,
        mcpServers: [],
        _meta: { zcode: was },
      });
      expect(res._meta.zcode.replayMeta.recovered).toBe(false);
      return c;
    };
    const opAgain = await resume(opToken, 'bea-app', opWas);
    const adminAgain = await resume(undefined, 'admin-app', adminWas);
    const req = await adminAgain.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    const opened = await opAgain.waitForNotification<{
      sessionId: string;
      interaction: { interactionId: string; approval?: { waitingFor: string } };
    }>('_zcode/interaction_opened', (p) => p.sessionId === sessionId);
    expect(opened.interaction.approval?.waitingFor).toBe('waiting for an admin');
    // The operator is not offered it and cannot answer it another way.
    const refused = await hub.api(`/api/interactions/${opened.interaction.interactionId}/answer`, {
      method: 'POST',
      token: opToken,
      headers: { 'content-type': 'application/json' },
      body: '{"optionId":"allow_once"}',
    });
    expect(refused.status).toBe(403);
    adminAgain.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await resolvedOn(opAgain, sessionId)).resolvedBy?.person).toBe('admin');
    await turn;
    expect(opAgain.requests('session/request_permission')).toHaveLength(0);
  });
});
