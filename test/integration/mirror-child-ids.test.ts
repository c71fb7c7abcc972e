import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Sub-agent mirror `tool.updated` events carry the
 * child's own call id in `childToolCallId`. With `--mirror-child-ids` the simulator puts the
 * parent's Agent call id in `toolCallId` (an update of the Agent call) and the child's id in
 * `childToolCallId`; the hub must key each mirror card by the child's id, so the child's calls
 * are their own cards (not folded into the Agent card) and match the history replay's cards.
 */
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.2', '--mirror-child-ids'] });
});
afterAll(async () => {
  await hub?.close();
});

interface Update {
  sessionUpdate: string;
  toolCallId?: string;
  status?: string;
  _meta?: { zcode?: { subagent?: Record<string, string> }; claudeCode?: { toolName?: string } };
}

function updatesOf(c: { notifications<T>(m: string): T[] }, sessionId: string): Update[] {
  return c
    .notifications<{ sessionId: string; update: Update }>('session/update')
    .filter((n) => n.sessionId === sessionId)
    .map((n) => n.update);
}

describe('sub-agent mirrors keyed by childToolCallId', () => {
  it('each child call is its own card, the Agent card completes once, and a reload shows the same cards', async () => {
    const c = await hub.initializedClient({ name: 'mirror' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const res = await c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'Ask a subagent to survey the project' }],
    });
    expect(res.stopReason).toBe('end_turn');
    const live = updatesOf(c, sessionId);

    const agentCall = live.find((u) => u.sessionUpdate === 'tool_call' && u._meta?.claudeCode?.toolName === 'Agent');
    const agentId = agentCall!.toolCallId!;
    const childCalls = live.filter((u) => u.sessionUpdate === 'tool_call' && u._meta?.zcode?.subagent !== undefined);
    expect(childCalls.map((u) => u._meta?.claudeCode?.toolName)).toEqual(['Glob', 'Read']);
    for (const call of childCalls) {
      expect(call.toolCallId).not.toBe(agentId);
      expect(live.some((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed')).toBe(
        true,
      );
    }
    // The child's results did not close the Agent card early: it completes exactly once, last.
    const agentDone = live.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === agentId && u.status === 'completed');
    expect(agentDone).toHaveLength(1);
    for (const call of childCalls) {
      const childDone = live.findIndex(
        (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed',
      );
      expect(childDone).toBeLessThan(live.indexOf(agentDone[0]!));
    }

    // A reload (history replay keys the child's cards by its own call ids) names the same cards.
    const joiner = await hub.initializedClient({ name: 'reloader' });
    await joiner.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const replayed = updatesOf(joiner, sessionId).filter((u) => u.sessionUpdate === 'tool_call' && u._meta?.zcode?.subagent !== undefined);
    expect(replayed.map((u) => u.toolCallId)).toEqual(childCalls.map((u) => u.toolCallId));
  });
});
