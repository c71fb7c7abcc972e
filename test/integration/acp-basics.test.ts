import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('ACP over WebSocket: basics', () => {
  it('initialize advertises the hub capabilities', async () => {
    const c = await hub.client();
    const init = await c.initialize({ name: 'basics' });
    expect(init.protocolVersion).toBe(1);
    expect(init).toMatchObject({
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
    });
    await c.waitForNotification('_zcode/backend_state');
  });

  it('new session, prompt, streamed updates with seq', async () => {
    const c = await hub.initializedClient({ name: 'prompter' });
    const opened = await c.request<{ sessionId: string; _meta: { zcode: { seq: number; epoch: string } } }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
    });
    expect(opened.sessionId).toBeTruthy();
    const res = await c.request<{ stopReason: string }>('session/prompt', {
      sessionId: opened.sessionId,
      prompt: [{ type: 'text', text: 'hello there' }],
    });
    expect(res.stopReason).toBe('end_turn');
    const updates = c.journaled<{ sessionId: string; update: { sessionUpdate: string }; _meta: { zcode: { seq: number } } }>();
    expect(updates.length).toBeGreaterThan(0);
    const seqs = updates.map((u) => u._meta.zcode.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });
});
