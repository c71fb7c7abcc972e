/**
 * A session's running background tasks reach every client's list (docs/CLIENT-PROTOCOL.md
 * `_zcode/session_state.runningTasks`): a task that outlives its turn leaves the session idle
 * but `runningTasks: 1` — in the live notice, in `session/list` and over REST — for a client
 * that never opened the session; stopping it brings the count back to 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatch } from '../helpers/background-watch.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { sessionStateParams } from '../../src/zcode-ext/schemas.js';

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

interface StateNotice {
  sessionId: string;
  state: string;
  runningTasks: number;
}

describe('running background tasks in the session list', () => {
  it('a task after its turn: idle with runningTasks 1 for a client that never opened it; 0 once stopped', async () => {
    const phone = await hub.initializedClient({ name: 'phone' });
    const lister = await hub.initializedClient({ name: 'lister' });
    const { sessionId } = await phone.request<{ sessionId: string }>('session/new', {
      cwd: hub.workspace,
      mcpServers: [],
      _meta: { zcode: { mode: 'yolo' } },
    });
    const { taskId } = await startWatch(phone, sessionId, new Set());
    // The prompt has resolved: the turn is over, the task runs on.
    const running = await lister.waitForNotification<StateNotice>(
      '_zcode/session_state',
      (p) => p.sessionId === sessionId && p.state === 'idle' && p.runningTasks === 1,
      20_000,
    );
    expect(sessionStateParams.safeParse(running).success).toBe(true);

    const listed = await lister.request<{
      sessions: Array<{ sessionId: string; _meta: { zcode: { state: string; runningTasks: number } } }>;
    }>('session/list', {});
    expect(listed.sessions.find((s) => s.sessionId === sessionId)?._meta.zcode).toMatchObject({ state: 'idle', runningTasks: 1 });
    const rest = (await (await hub.api('/api/sessions')).json()) as { sessions: Array<{ sessionId: string; runningTasks: number }> };
    expect(rest.sessions.find((s) => s.sessionId === sessionId)?.runningTasks).toBe(1);

    const skip = lister.notifications('_zcode/session_state').length;
    expect((await phone.request<{ cancelled: boolean }>('_zcode/cancel_background_task', { sessionId, taskId })).cancelled).toBe(true);
    await lister.waitForNotification<StateNotice>(
      '_zcode/session_state',
      (p) => p.sessionId === sessionId && p.runningTasks === 0,
      20_000,
      skip,
    );
    const after = await lister.request<{ sessions: Array<{ sessionId: string; _meta: { zcode: { runningTasks: number } } }> }>(
      'session/list',
      {},
    );
    expect(after.sessions.find((s) => s.sessionId === sessionId)?._meta.zcode.runningTasks).toBe(0);
  });
});
