import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

// Sub-agents through the whole hub: the simulator's `subagent` scenario mirrors the child's
// tool calls on the parent's stream (APP-SERVER.md §5.2, §5.5.7); an ACP client must see them
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
    const res = await c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Ask a subagent to survey the project' }],
    });
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
    expect(
      updates.some((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === parentToolCallId && u.status === 'completed'),
    ).toBe(true);

    // The child's cards: announced with the sub-agent meta, closed completed with it too.
    const childCalls = updates.filter((u) => u.sessionUpdate === 'tool_call' && u._meta?.zcode?.subagent !== undefined);
    expect(childCalls.map((u) => u._meta?.claudeCode?.toolName)).toEqual(['Glob', 'Read']);
    const childSessionId = childCalls[0]!._meta!.zcode!.subagent!['childSessionId']!;
    expect(childSessionId).toMatch(/^sess_subagent_/);
    for (const call of childCalls) {
      expect(call._meta!.zcode!.subagent).toEqual({ parentToolCallId, childSessionId, agentId: expect.any(String), agentType: 'Explore' });
      expect(call.toolCallId).not.toBe(parentToolCallId);
      expect(call.rawInput).toBeDefined();
      const done = updates.find(
        (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed',
      );
      expect(done?._meta?.zcode?.subagent).toMatchObject({ parentToolCallId, childSessionId });
    }
    // The children open and close inside the Agent card's lifetime.
    const at = (pred: (u: Update) => boolean): number => updates.findIndex(pred);
    const agentDone = at((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === parentToolCallId && u.status === 'completed');
    expect(at((u) => u === agentCall)).toBeLessThan(at((u) => u === childCalls[0]));
    for (const call of childCalls)
      expect(
        at((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed'),
      ).toBeLessThan(agentDone);
  });
});

/** The updates a fresh client gets from `session/load` of `sessionId` (history replay). */
async function loaded(h: HubHarness, sessionId: string): Promise<Update[]> {
  const joiner = await h.initializedClient({ name: 'late joiner' });
  await joiner.request('session/load', { sessionId, cwd: h.workspace, mcpServers: [] });
  return joiner
    .notifications<{ sessionId: string; update: Update }>('session/update')
    .filter((n) => n.sessionId === sessionId)
    .map((n) => n.update);
}

async function subagentTurns(h: HubHarness, n: number): Promise<string> {
  const c = await h.initializedClient({ name: 'asker' });
  const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: h.workspace, mcpServers: [] });
  for (let i = 0; i < n; i++)
    await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `Ask a subagent to survey the project (${i + 1})` }] });
  return sessionId;
}

describe('ACP: sub-agents in a history replay', () => {
  it('session/load replays the sub-agent’s tool calls, tagged, right after the Agent card that spawned them', async () => {
    const sessionId = await subagentTurns(hub, 1);
    const updates = await loaded(hub, sessionId);
    const agentAt = updates.findIndex((u) => u.sessionUpdate === 'tool_call' && u._meta?.claudeCode?.toolName === 'Agent');
    expect(agentAt).toBeGreaterThanOrEqual(0);
    const parentToolCallId = updates[agentAt]!.toolCallId!;
    const children = updates.filter((u) => u.sessionUpdate === 'tool_call' && u._meta?.zcode?.subagent !== undefined);
    expect(children.map((u) => u._meta?.claudeCode?.toolName)).toEqual(['Glob', 'Read']);
    for (const c of children) {
      expect(c._meta!.zcode!.subagent).toEqual({
        parentToolCallId,
        childSessionId: expect.stringMatching(/^sess_subagent_/),
        agentId: expect.any(String),
        agentType: 'Explore',
      });
      expect(c.status).toBe('completed');
    }
    expect(updates.indexOf(children[0]!)).toBe(agentAt + 1);
  });

  it('nests at most replaySubagentsMax sub-agents per replayed page; the others show their Agent card alone', async () => {
    const small = await startHub({ simArgs: ['--turn-delay-scale', '0.2'], limits: { replaySubagentsMax: 1 } });
    try {
      const sessionId = await subagentTurns(small, 2);
      const updates = await loaded(small, sessionId);
      expect(updates.filter((u) => u.sessionUpdate === 'tool_call' && u._meta?.claudeCode?.toolName === 'Agent')).toHaveLength(2);
      const children = updates.filter((u) => u.sessionUpdate === 'tool_call' && u._meta?.zcode?.subagent !== undefined);
      expect(children).toHaveLength(2);
      expect(new Set(children.map((c) => c._meta!.zcode!.subagent!['parentToolCallId'])).size).toBe(1);
    } finally {
      await small.close();
    }
  });
});
