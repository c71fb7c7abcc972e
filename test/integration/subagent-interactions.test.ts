import { afterEach, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * A sub-agent's permission request carries
 * `origin {kind: "subagent", childSessionId, parentSessionId, …}`. Whichever id the server puts
 * in `params.sessionId` (the simulator's `--subagent-permission parent|child`), the parent's
 * clients must get it, or the parent turn blocks for ever.
 */
let hub: HubHarness | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe('sub-agent interactions are routed by origin', () => {
  for (const keyedBy of ['child', 'parent'] as const) {
    it(`a sub-agent permission keyed by the ${keyedBy} session reaches the parent's clients`, async () => {
      hub = await startHub({ simArgs: ['--subagent-permission', keyedBy, '--turn-delay-scale', '0.2'] });
      const c = await hub.initializedClient({ name: 'parent-watcher' });
      const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
      const turn = c.request<{ stopReason: string }>('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'use a subagent to survey the code' }],
      });
      const req = await c.waitForRequest('session/request_permission', () => true, 10_000);
      expect(req.params.sessionId).toBe(sessionId);
      const opts = req.params.options as Array<{ optionId: string; kind: string }>;
      c.answer(req.id, { outcome: { outcome: 'selected', optionId: opts.find((o) => o.kind === 'allow_once')?.optionId } });
      expect((await turn).stopReason).toBe('end_turn');
      // No phantom session was made for the child's id.
      const listed = await c.request<{ sessions: Array<{ sessionId: string }> }>('session/list', {});
      expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
      const inbox = await c.request<{ interactions: unknown[] }>('_zcode/interactions/list', {});
      expect(inbox.interactions).toEqual([]);
    });
  }
});
