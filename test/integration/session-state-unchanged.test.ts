/**
 * `_zcode/session_state` goes to every connected client, so a copy that says nothing new costs every
 * device a frame (docs/CLIENT-PROTOCOL.md): a session's summary is published only when something in
 * it changed. A turn used to publish the same summary again when its prompt was queued and when the
 * agent named the turn. Whatever does change still arrives: running, the title, idle with the answer's preview.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStateParams } from '../../src/zcode-ext/schemas.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';

let hub: HubHarness;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('session state published only when it changed', () => {
  it('a turn seen from a client that never opened the session: no copy repeats the one before it', async () => {
    const phone = await hub.initializedClient({ name: 'phone' });
    const lister = await hub.initializedClient({ name: 'lister' });
    const { sessionId } = await phone.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
    await phone.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello there' }] });
    await lister.waitForNotification<SessionStateParams>(
      '_zcode/session_state',
      (p) => p.sessionId === sessionId && p.state === 'idle' && p.preview?.role === 'agent',
      20_000,
    );

    const seen = (lister.notifications('_zcode/session_state') as unknown as SessionStateParams[]).filter((p) => p.sessionId === sessionId);
    for (let i = 1; i < seen.length; i++) expect(seen[i], `copy ${i} repeats copy ${i - 1}`).not.toEqual(seen[i - 1]);
    // What changed arrived, in order: the turn running, its title, then idle with the answer.
    const running = seen.findIndex((s) => s.state === 'running');
    const titled = seen.findIndex((s) => s.state === 'running' && s.title === 'hello there');
    const done = seen.findIndex((s) => s.state === 'idle' && s.preview?.role === 'agent');
    expect(running).toBeGreaterThanOrEqual(0);
    expect(titled).toBeGreaterThan(running);
    expect(done).toBeGreaterThan(titled);
  });
});
