import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * The real server forwards internal objects
 * unvalidated. With the simulator's `--payload-drift` the text deltas carry a `null`
 * `assistantMessageId`, later tool events a `null` `toolName`, `startedAt` is a string, a tool
 * error is a bare string, `turn.completed` has `usage: null`, and every assistant message in the
 * history holds one unreadable part. Nothing of the content may be lost.
 */
interface Update {
  sessionId: string;
  update: {
    sessionUpdate: string;
    toolCallId?: string;
    status?: string;
    content?: { type: string; text?: string };
    _meta?: { zcode?: { turn?: { turnId?: string } } };
  };
}

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--payload-drift', '--turn-delay-scale', '0.2'] });
});
afterAll(async () => {
  await hub?.close();
});

function text(updates: Update[], kind: string): string {
  return updates
    .filter((u) => u.update.sessionUpdate === kind)
    .map((u) => u.update.content?.text ?? '')
    .join('');
}

describe('payload drift from the real app-server', () => {
  it('keeps text, tool cards, a string tool error and the turn stats; history keeps the message around a bad part', async () => {
    const c = await hub.initializedClient({ name: 'drift' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const updates = (): Update[] => c.notifications<Update>('session/update').filter((u) => u.sessionId === sessionId);

    // Default turn: reasoning, a Read tool, a Markdown answer.
    const first = await c.request<{ stopReason: string; _meta?: { zcode?: { turnId?: string } } }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'show me the readme' }],
    });
    expect(first.stopReason).toBe('end_turn');
    expect(text(updates(), 'agent_message_chunk').length).toBeGreaterThan(20);
    expect(text(updates(), 'agent_thought_chunk').length).toBeGreaterThan(0);
    const readCard = updates().find((u) => u.update.sessionUpdate === 'tool_call');
    expect(readCard).toBeDefined();
    expect(
      updates().some(
        (u) =>
          u.update.sessionUpdate === 'tool_call_update' &&
          u.update.toolCallId === readCard?.update.toolCallId &&
          u.update.status === 'completed',
      ),
    ).toBe(true);
    // turn.completed with `usage: null` still arrives: its stats travel on a usage_update.
    const turnId = first._meta?.zcode?.turnId;
    expect(turnId).toBeTruthy();
    await c.waitFor(() =>
      updates().find((u) => u.update.sessionUpdate === 'usage_update' && u.update._meta?.zcode?.turn?.turnId === turnId),
    );

    // Permission denied → the tool fails with a bare-string error: the card must close as failed.
    const turn = c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run the permission check' }],
    });
    const req = await c.waitForRequest('session/request_permission', (r) => r.params.sessionId === sessionId);
    const opts = req.params.options as Array<{ optionId: string; kind: string }>;
    c.answer(req.id, { outcome: { outcome: 'selected', optionId: opts.find((o) => o.kind === 'reject_once')?.optionId } });
    expect((await turn).stopReason).toBe('end_turn');
    const bashId = (req.params.toolCall as { toolCallId: string }).toolCallId;
    expect(
      updates().some(
        (u) => u.update.sessionUpdate === 'tool_call_update' && u.update.toolCallId === bashId && u.update.status === 'failed',
      ),
    ).toBe(true);

    // A second client loads the history: every assistant message holds one unreadable part.
    const late = await hub.initializedClient({ name: 'drift-late' });
    await late.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const replay = late.notifications<Update>('session/update').filter((u) => u.sessionId === sessionId);
    expect(text(replay, 'agent_message_chunk')).toContain(text(updates(), 'agent_message_chunk').slice(0, 40));
    expect(replay.filter((u) => u.update.sessionUpdate === 'tool_call').length).toBe(2);
  });
});
