import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recentRequests } from '../../web/src/policy/recent-requests.js';
import { restartableHub } from '../helpers/restartable-hub.js';
import { prompt } from './helpers.js';

/**
 * The dry run's recent requests of a session nobody loaded since a restart (docs/SECURITY.md
 * "Approval rules"): the hub has no journal of it then (404), so the phone reads the conversation as the
 * agent stored it, `GET /api/sessions/{id}/history`, which carries who answered each request.
 * Real daemons on one state dir with the simulator child; the phone's own parser reads both.
 */
const { workspace, start } = restartableHub('zch-recent-restart-');

describe('recent requests after a restart', () => {
  it('no journal; the stored history lists the command and who answered it', async () => {
    const first = await start();
    const ann = await first.token('operate', 'Ann phone', 'ann');
    const owner = await first.initializedClient({ token: ann, name: 'ann-app' });
    const { sessionId } = await owner.request<{ sessionId: string }>('session/new', { cwd: workspace, mcpServers: [] });
    const turn = prompt(owner, sessionId, 'permission please');
    const req = await owner.waitForRequest('session/request_permission', (q) => q.params.sessionId === sessionId);
    owner.answer(req.id, { outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect((await turn).stopReason).toBe('end_turn');
    await first.close();

    const hub = await start();
    // The hub has not opened it since it started: it has no journal of it.
    expect((await hub.api(`/api/sessions/${sessionId}/events`)).status).toBe(404);
    const res = await hub.api(`/api/sessions/${sessionId}/history?limit=50`, { token: ann });
    expect(res.status).toBe(200);
    const history = z.object({ updates: z.array(z.unknown()), hasMore: z.boolean() }).parse(await res.json());
    expect(recentRequests(history.updates, new Set(), 10)).toMatchObject([
      {
        tool: 'Bash',
        answeredBy: 'ann · Ann phone',
        request: { kind: 'permission', tool: 'Bash', input: { command: 'npm test' } },
        pending: false,
      },
    ]);
    expect((await hub.api('/api/sessions/nope/history')).status).toBe(404);
  });
});
