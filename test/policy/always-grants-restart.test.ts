import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restartableHub } from '../helpers/restartable-hub.js';
import { prompt, resolvedOn } from './helpers.js';

/**
 * "Always allow" grants survive a hub restart (docs/SECURITY.md "Always allow"): kept in the
 * state dir (0600), a grant set before the restart allows the same request after it, for a
 * session made before it, with no one asked.
 */
const { stateDir, workspace, start } = restartableHub('zch-grants-restart-');

describe('"always allow" grants after a restart', () => {
  it('a grant kept by one daemon allows the same request in the next one', async () => {
    const first = await start();
    const admin = await first.initializedClient({ name: 'admin-app' });
    const { sessionId } = await admin.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    const turn = prompt(admin, sessionId, 'permission please');
    const req = await admin.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    admin.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_project' } });
    expect((await turn).stopReason).toBe('end_turn');
    const file = path.join(stateDir, 'always-grants.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    await first.close();

    const hub = await start();
    const listed = (await (await hub.api('/api/policy/grants')).json()) as {
      revision: number;
      grants: Array<{ id: string; toolName: string }>;
    };
    expect(listed.revision).toBe(1);
    expect(listed.grants.map((g) => g.toolName)).toEqual(['Bash']);
    const again = await hub.initializedClient({ name: 'admin-app' });
    await again.request('session/load', { sessionId, cwd: workspace, mcpServers: [] });
    const done = resolvedOn(again, sessionId);
    const next = prompt(again, sessionId, 'permission please');
    expect(await done).toMatchObject({ state: 'resolved', grant: { id: listed.grants[0]!.id, by: 'admin' } });
    expect((await next).stopReason).toBe('end_turn');
    expect(again.requests('session/request_permission')).toHaveLength(0);
  });
});
