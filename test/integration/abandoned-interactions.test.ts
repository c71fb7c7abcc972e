import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * The runtime drops pending reverse
 * requests without notice — here AskUserQuestion's auto-resolution (300 s, scaled to 3 s by the
 * simulator's `--reannounce-scale 0.01`), after which the turn goes on and ends. The hub must
 * settle the interaction when its turn ends and withdraw it from the clients.
 */
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({
    simArgs: ['--reannounce-scale', '0.01', '--turn-delay-scale', '0.2'],
    config: { askUserQuestionAutoResolution: true },
  });
});
afterAll(async () => {
  await hub?.close();
});

describe('interactions the runtime abandons', () => {
  it('an AskUserQuestion auto-resolved by the child is settled when its turn ends', async () => {
    const c = await hub.initializedClient({ name: 'away' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const turn = c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ask me a question' }] });
    const asked = await c.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    expect(asked).toBeDefined();
    // Nobody answers: the child resolves it itself and the turn ends.
    expect((await turn).stopReason).toBe('end_turn');
    const resolved = await c.waitForNotification<{ sessionId: string; state: string }>(
      '_zcode/interaction_resolved',
      (p) => p.sessionId === sessionId,
      10_000,
    );
    expect(resolved.state).toBe('cancelled');
    const inbox = await c.request<{ interactions: unknown[] }>('_zcode/interactions/list', { sessionId });
    expect(inbox.interactions).toEqual([]);
  });
});
