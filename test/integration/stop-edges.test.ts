import { afterEach, describe, expect, it } from 'vitest';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

/**
 * Stops the real app-server handles badly:
 * - a stop during pure streaming may end the turn with no terminal event at all (APP-SERVER.md
 *   §14.1; simulator `--silent-stop MS`: nothing is written, the lock is freed MS ms later) — a
 *   prompt queued behind it, refused with -32010 after the watchdog's local end, is re-sent;
 * - a v4 `stop` waits behind any slow request in the child's serial queue (§1.6; here: a v4
 *   command the child never answers) — the legacy `session/stop`, which jumps the queue, still
 *   stops the turn.
 */
let hub: HubHarness | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

interface Update {
  sessionId: string;
  update: { sessionUpdate: string };
}

describe('stops the child never confirms', () => {
  it('a prompt queued behind a silently stopped turn runs once the child frees its lock', async () => {
    hub = await startHub({ simArgs: ['--silent-stop', '2500'], limits: { stopSettleMs: 500, busyRetryMs: 300 } });
    const c = await hub.initializedClient({ name: 'stopper' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const slow = c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'a slow answer please' }],
    });
    await c.waitFor(() =>
      c.notifications<Update>('session/update').find((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk'),
    );
    // Queued by another client: a cancel returns only the canceller's own queued prompts.
    const other = await hub.initializedClient({ name: 'queued-behind' });
    await other.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
    const next = other.request<{ stopReason: string; _meta?: { zcode?: { turnId?: string } } }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'then tell me the time' }],
    });
    await c.waitForNotification(
      '_zcode/turn_state',
      (p: { sessionId?: string; queue?: unknown[] }) => p.sessionId === sessionId && Array.isArray(p.queue) && p.queue.length > 0,
    );
    c.notify('session/cancel', { sessionId });
    expect((await slow).stopReason).toBe('cancelled');
    const res = await next;
    expect(res.stopReason).toBe('end_turn');
    expect(res._meta?.zcode?.turnId).toBeTruthy();
  }, 40_000);
});

describe('a v4 stop stuck behind the serial queue', () => {
  it('the legacy stop, which jumps the queue, ends the turn', async () => {
    hub = await startHub({
      simArgs: ['--never-answer', 'v4/command'],
      limits: { forwardRequestTimeoutMs: 120_000, stopSettleMs: 120_000 },
    });
    const c = await hub.initializedClient({ name: 'stopper-2' });
    const { sessionId } = await c.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    const slow = c.request<{ stopReason: string }>('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'a slow answer please' }],
    });
    await c.waitFor(() =>
      c.notifications<Update>('session/update').find((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk'),
    );
    await c.request('session/cancel', { sessionId });
    expect((await slow).stopReason).toBe('cancelled');
  }, 30_000);
});
