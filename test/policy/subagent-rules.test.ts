import { afterEach, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { prompt, resolvedOn, setRules } from './helpers.js';

/**
 * Approval rules hold for a sub-agent's permission (docs/SECURITY.md "Approval rules"), on a real
 * daemon with the simulator child: whichever session id the agent puts on it (the simulator's
 * `--subagent-permission child|parent`), a rule scoped to the parent session decides it — only
 * the admin is offered it, the operator sees for whom it waits and is refused 403.
 */
let hub: HubHarness | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe('approval rules for sub-agent permissions', () => {
  for (const keyedBy of ['child', 'parent'] as const) {
    it(`[POL-06] a sub-agent permission keyed by the ${keyedBy} session is held by the parent session's ask rule`, async () => {
      const h = await startHub({ simArgs: ['--subagent-permission', keyedBy, '--turn-delay-scale', '0.2'] });
      hub = h;
      const opToken = await h.token('operate', 'ann phone', 'ann');
      const op = await h.initializedClient({ token: opToken, name: 'ann-app' });
      const admin = await h.initializedClient({ name: 'admin-app' });
      const { sessionId } = await op.request<{ sessionId: string }>('session/new', { cwd: h.workspace, mcpServers: [] });
      await admin.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
      await setRules(h, [{ id: 'admins-here', match: { session: sessionId }, decide: 'ask', approvers: { scopes: ['admin'] } }]);
      const turn = prompt(op, sessionId, 'use a subagent to survey the code');
      const req = await admin.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId, 10_000);
      const seen = await op.waitForNotification<{
        sessionId: string;
        interaction: { interactionId: string; approval?: { rule: { id: string }; waitingFor: string } };
      }>('_zcode/interaction_opened', (p) => p.sessionId === sessionId);
      expect(seen.interaction.approval).toMatchObject({ rule: { id: 'admins-here' }, waitingFor: 'waiting for an admin' });
      expect(op.requests('session/request_permission')).toHaveLength(0);
      const refused = await h.api(`/api/interactions/${seen.interaction.interactionId}/answer`, {
        method: 'POST',
        token: opToken,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ optionId: 'allow_once' }),
      });
      expect(refused.status).toBe(403);
      const opts = req.params.options as Array<{ optionId: string; kind: string }>;
      admin.answer(req.id, { outcome: { outcome: 'selected', optionId: opts.find((o) => o.kind === 'allow_once')?.optionId } });
      expect((await resolvedOn(op, sessionId)).resolvedBy?.person).toBe('admin');
      expect((await turn).stopReason).toBe('end_turn');
    });
  }
});
