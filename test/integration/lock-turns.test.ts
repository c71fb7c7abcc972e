import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Compaction and goal
 * continuations hold the session's -32010 lock but end with `session_compacted` /
 * `session_compact_*` / `goal_continuation_*`, not `prompt_completed`. A prompt refused with
 * -32010 meanwhile must be sent again at that boundary.
 */
let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub({ simArgs: ['--turn-delay-scale', '0.5'] });
});
afterAll(async () => {
  await hub?.close();
});

describe('prompts queued behind lock-holding turns that are not prompts', () => {
  it('a prompt sent during compaction runs once the compaction is over', async () => {
    const c = await hub.initializedClient({ name: 'compactor' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say something first' }] });
    const compacted = await c.request<{ state: string }>('_zcode/compact', { sessionId });
    expect(compacted.state).toBe('accepted');
    const res = await c.request<{ stopReason: string; _meta?: { zcode?: { turnId?: string } } }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'after the compaction' }],
    });
    expect(res.stopReason).toBe('end_turn');
    expect(res._meta?.zcode?.turnId).toBeTruthy();
  });

  it('a prompt sent during a goal continuation runs once the continuation is over', async () => {
    const c = await hub.initializedClient({ name: 'goal-setter' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const goal = await c.request<{ response: string }>('_zcode/goal', { sessionId, action: 'set', objective: 'tidy the readme' });
    expect(goal.response).toContain('Goal active');
    const res = await c.request<{ stopReason: string; _meta?: { zcode?: { turnId?: string } } }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'while the goal runs' }],
    });
    expect(res.stopReason).toBe('end_turn');
    expect(res._meta?.zcode?.turnId).toBeTruthy();
  });
});

describe('a prompt sent during a turn that does not hold the lock (§4.8 rule 4)', () => {
  interface Update {
    sessionId: string;
    update: { sessionUpdate: string; content?: { text?: string }; _meta?: { zcode?: { backgroundTurn?: unknown } } };
  }

  it('ends with its own turn, after its output, not at the early prompt_completed', async () => {
    const c = await hub.initializedClient({ name: 'during-background' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { mode: 'yolo' } },
    });
    const updates = (): Update[] => c.notifications<Update>('session/update').filter((u) => u.sessionId === sessionId);
    await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'start a background build' }] });
    // The task's follow-up turn (inputSource background_task) starts on its own.
    await c.waitFor(() => updates().find((u) => u.update._meta?.zcode?.backgroundTurn !== undefined), 20_000);
    const before = updates().length;
    const next = c.request<{ stopReason: string; _meta?: { zcode?: { turnId?: string } } }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'and now tell me the time' }],
    });
    // A second prompt behind it waits for that turn, then runs as a normal prompt.
    const after = c.request<{ stopReason: string; _meta?: { zcode?: { turnId?: string } } }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'then say hello' }],
    });
    const res = await next;
    expect(res.stopReason).toBe('end_turn');
    expect(res._meta?.zcode?.turnId).toBeTruthy();
    const second = await after;
    expect(second._meta?.zcode?.turnId).toBeTruthy();
    expect(second._meta?.zcode?.turnId).not.toBe(res._meta?.zcode?.turnId);
    // Its own answer (not the background turn's) had arrived when the prompt ended.
    const own = updates()
      .slice(before)
      .filter((u) => u.update.sessionUpdate === 'agent_message_chunk' && u.update._meta?.zcode?.backgroundTurn === undefined);
    expect(own.map((u) => u.update.content?.text ?? '').join('').length).toBeGreaterThan(20);
  });
});
