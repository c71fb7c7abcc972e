import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

// Sub-agents through the whole hub: the simulator's `subagent` scenario mirrors the child's
// tool calls on the parent's stream (ZCODE-PROTOCOL §5.2, §5.5.7); an ACP client must see them
// as their own tool cards tagged `_meta.zcode.subagent` (src/acp/translate-tool.ts).
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2'] });
});
afterAll(async () => {
  await hub?.close();
});

interface Update {
  sessionUpdate: string;
  toolCallId?: string;
  status?: string;
  title?: string;
  rawInput?: Record<string, unknown>;
  _meta?: { zcode?: { subagent?: Record<string, string> }; claudeCode?: { toolName?: string } };
}

describe('ACP: sub-agent tool calls', () => {
  it('the child tool calls arrive as tool_call / tool_call_update carrying _meta.zcode.subagent', async () => {
    const c = await hub.initializedClient({ name: 'subagent' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const res = await c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Ask a subagent to survey the project' }] });
    expect(res.stopReason).toBe('end_turn');
    const updates = c
      .notifications<{ sessionId: string; update: Update }>('session/update')
      .filter((n) => n.sessionId === sessionId)
      .map((n) => n.update);

    // The parent's Agent card: an ordinary card, completed with the sub-agent's summary.
    const agentCall = updates.find((u) => u.sessionUpdate === 'tool_call' && u._meta?.claudeCode?.toolName === 'Agent');
    expect(agentCall).toBeDefined();
    expect(agentCall!._meta?.zcode?.subagent).toBeUndefined();
    const parentToolCallId = agentCall!.toolCallId!;
    expect(updates.some((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === parentToolCallId && u.status === 'completed')).toBe(true);

    // The child's cards: announced with the sub-agent meta, closed completed with it too.
    const childCalls = updates.filter((u) => u.sessionUpdate === 'tool_call' && u._meta?.zcode?.subagent !== undefined);
    expect(childCalls.map((u) => u._meta?.claudeCode?.toolName)).toEqual(['Glob', 'Read']);
    const childSessionId = childCalls[0]!._meta!.zcode!.subagent!['childSessionId']!;
    expect(childSessionId).toMatch(/^sess_subagent_/);
    for (const call of childCalls) {
      expect(call._meta!.zcode!.subagent).toEqual({ parentToolCallId, childSessionId, agentId: expect.any(String), agentType: 'Explore' });
      expect(call.toolCallId).not.toBe(parentToolCallId);
      expect(call.rawInput).toBeDefined();
      const done = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed');
      expect(done?._meta?.zcode?.subagent).toMatchObject({ parentToolCallId, childSessionId });
    }
    // The children open and close inside the Agent card's lifetime.
    const at = (pred: (u: Update) => boolean): number => updates.findIndex(pred);
    const agentDone = at((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === parentToolCallId && u.status === 'completed');
    expect(at((u) => u === agentCall)).toBeLessThan(at((u) => u === childCalls[0]));
    for (const call of childCalls) expect(at((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed')).toBeLessThan(agentDone);
  });
});
