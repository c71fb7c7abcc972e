import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { RemoteApp } from '../helpers/remote-app.js';

/** zcode-acp-remote's plan card (its ADR 0003): the plan text comes from `toolCall.rawInput.plan` or the tool call's content. */
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('zcode-acp-remote: plan approval', () => {
  it('the plan card carries the plan text and approving it ends the turn', async () => {
    const editor = await hub.initializedClient({ name: 'editor', elicitationForm: true });
    const { sessionId } = await editor.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const app = await RemoteApp.connect(hub.url, await hub.token('operate', 'phone'));
    try {
      await app.loadSession(sessionId, hub.workspace);
      const turn = app.prompt(sessionId, 'plan');
      turn.catch(() => undefined);
      const card = await app.nextCard(null, 'the plan card');
      expect(card.isPlan).toBe(true);
      expect(card.plan ?? card.text ?? '').toMatch(/\w+/);
      app.answer('approve');
      expect(await turn).toMatchObject({ stopReason: 'end_turn' });
    } finally {
      app.close();
      await editor.close();
    }
  });
});
