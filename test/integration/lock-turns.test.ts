import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Issue 19 item 1 (ZCODE-PROTOCOL §4.8 rule 4, §4.12, §4.13, §5.8): compaction and goal
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
    const res = await c.request<{ stopReason: string; _meta?: { zcode?: { turnId?: string } } }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'after the compaction' }] });
    expect(res.stopReason).toBe('end_turn');
    expect(res._meta?.zcode?.turnId).toBeTruthy();
  });

  it('a prompt sent during a goal continuation runs once the continuation is over', async () => {
    const c = await hub.initializedClient({ name: 'goal-setter' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const goal = await c.request<{ response: string }>('_zcode/goal', { sessionId, action: 'set', objective: 'tidy the readme' });
    expect(goal.response).toContain('Goal active');
    const res = await c.request<{ stopReason: string; _meta?: { zcode?: { turnId?: string } } }>('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'while the goal runs' }] });
    expect(res.stopReason).toBe('end_turn');
    expect(res._meta?.zcode?.turnId).toBeTruthy();
  });
});
