/**
 * The context meter survives a hub restart: the last `usage_update` is kept with the session's
 * marks (`<state-dir>/session-marks.ndjson`), so a replay after the restart ends with it — before
 * any new turn — as it did before the restart. Real daemons one after another on one state dir.
 */
import { describe, expect, it } from 'vitest';
import type { HubHarness } from '../helpers/hub-harness.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { sessionMarks } from '../helpers/state-logs.js';

const { stateDir, workspace, start } = restartableHub('zch-usage-restart-');

interface Update {
  sessionId: string;
  update: { sessionUpdate: string; used?: number; size?: number };
  _meta?: { zcode?: { replay?: boolean } };
}

/** The updates a fresh client is replayed on `session/load`. */
async function replay(hub: HubHarness, sessionId: string): Promise<Update[]> {
  const c = await hub.initializedClient({ name: 'reader' });
  await c.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
  const got = c.notifications<Update>('session/update').filter((u) => u.sessionId === sessionId && u._meta?.zcode?.replay === true);
  await c.close();
  return got;
}

describe('the last context usage across a hub restart', () => {
  it('is kept in the session marks and ends the first replay after the restart', async () => {
    const hub = await start();
    const a = await hub.initializedClient({ name: 'phone' });
    const { sessionId } = await a.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    await a.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'explain the readme' }] });
    const live = a
      .notifications<Update>('session/update')
      .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'usage_update');
    const last = live.at(-1)?.update;
    expect(last?.used).toBeGreaterThan(0);
    expect((await replay(hub, sessionId)).at(-1)?.update).toMatchObject({
      sessionUpdate: 'usage_update',
      used: last?.used,
      size: last?.size,
    });
    await hub.close();

    expect(sessionMarks(stateDir)[sessionId]?.['usage']).toMatchObject({ used: last?.used });

    const again = await start();
    const replayed = await replay(again, sessionId);
    expect(replayed.length).toBeGreaterThan(1);
    expect(replayed.at(-1)?.update).toMatchObject({ sessionUpdate: 'usage_update', used: last?.used, size: last?.size });
  });
});
